"""Command line: parses arguments, then calls the core or starts the app.

One module per group of commands declares each command (a `common.Command`: its options,
the function that runs it, whether it uses the data folder) beside the code that reads
them; `commands.COMMANDS` lists them all. Commands that do not open the game never import
textual, and a run builds the options of its own command only, so they start fast.
"""

from vocabgame.cli.commands import build_parser, entry, main
from vocabgame.cli.stats import render_stats
from vocabgame.cli.terminal import in_browser, terminal_problem

__all__ = ["build_parser", "entry", "in_browser", "main", "render_stats", "terminal_problem"]
