"""Whether the game can be shown where it was started: a terminal, or a browser tab."""

from __future__ import annotations

import os
from collections.abc import Mapping

WEB_DRIVER = "textual.drivers.web_driver:WebDriver"


def in_browser(environ: Mapping[str, str] = os.environ) -> bool:
    """Whether this game was started by `vocabgame serve` (textual-serve) for a browser tab.
    Its standard input, output and error are pipes, not a terminal, TERM is whatever the
    server had, and Textual draws through its web driver, which this variable names; the
    first line on standard output must be the web driver's, so nothing may print there."""
    return environ.get("TEXTUAL_DRIVER", "") == WEB_DRIVER


def is_terminal(stream: object) -> bool:
    """Whether `stream` is an open terminal."""
    try:
        return stream is not None and bool(stream.isatty())  # type: ignore[attr-defined]
    except (AttributeError, ValueError):  # no isatty, or closed
        return False


def terminal_problem(
    stdin: object, stdout: object, environ: Mapping[str, str] = os.environ
) -> str | None:
    """Why the game cannot be shown here, in one sentence; None when it can. The game needs a
    terminal on both ends (read from a pipe it would wait on input that never comes) and one
    that understands colours and cursor moves, which TERM=dumb (or no TERM) says it does not.
    A game that `vocabgame serve` started for a browser tab has pipes on both ends and the
    server's TERM, and is shown all the same, by Textual's web driver."""
    if in_browser(environ):
        return None
    for name, stream in (("standard input", stdin), ("standard output", stdout)):
        if not is_terminal(stream):
            return (
                f"the game needs a terminal, but {name} is not one; run vocabgame in a "
                "terminal (text commands such as vocabgame stats and vocabgame validate "
                "work in pipes)"
            )
    term = environ.get("TERM", "")
    if os.name != "nt" and term in ("", "dumb"):
        shown = f"TERM={term}" if term else "TERM is not set"
        return (
            f"this terminal cannot show the game ({shown}); run vocabgame in a terminal "
            "emulator, or set TERM for it, e.g. TERM=xterm-256color vocabgame"
        )
    return None


def screen_problem(stdin: object, stdout: object) -> str | None:
    """`terminal_problem`, looked up in this module at each call: tests and the launch
    benchmark replace `vocabgame.cli.terminal.terminal_problem` to open the game without a
    terminal."""
    return terminal_problem(stdin, stdout)
