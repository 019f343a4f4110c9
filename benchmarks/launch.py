"""One launch, as a whole process: start an app headless, exit once its first screen is painted.

    python -m benchmarks.launch game DATA_DIR [--decks DIR]...
    python -m benchmarks.launch bare

`game` goes the way `vocabgame [--data-dir DATA_DIR] [--decks DIR]` does: `vocabgame.cli.main`
parses the arguments, takes the data folder's lock, loads the decks, opens the store and
builds the app. Only the last step differs: the app runs headless at 80x24 instead of in the
terminal, and exits as soon as a frame of its home screen, with its table of decks filled in,
has been rendered. (The app's `run` is replaced as its module is imported, so nothing is
imported earlier than the game itself imports it.) `bare` is the baseline: a bare Textual app
with a Static and a DataTable of a dozen rows, run and stopped the same way. The runner times
the whole process; with BENCHMARK_RSS_FILE set, the process writes its resident memory there
as the screen is painted.

Exit status 0 when the screen was painted; 3 when the app stopped without painting it.
"""

from __future__ import annotations

import importlib.abc
import importlib.util
import os
import sys
from collections.abc import Callable
from importlib.machinery import ModuleSpec
from types import ModuleType
from typing import Any

SIZE = (80, 24)
RSS_FILE = "BENCHMARK_RSS_FILE"
EXIT_NOT_PAINTED = 3


def _has_table_rows(app: Any) -> bool:
    """Whether the current screen shows a DataTable with rows in it (the home screen's decks,
    or the bare app's dozen rows)."""
    from textual.widgets import DataTable

    return any(table.row_count > 0 for table in app.screen.query(DataTable))


def _note_memory() -> None:
    """With BENCHMARK_RSS_FILE set, write there the process's resident memory (VmRSS, in
    KiB, from /proc) as its first screen is painted: what an idle game holds."""
    out = os.environ.get(RSS_FILE)
    if not out:
        return
    with open("/proc/self/status", encoding="ascii") as status:
        kib = next(line.split()[1] for line in status if line.startswith("VmRSS:"))
    with open(out, "w", encoding="ascii") as file:
        file.write(kib)


def run_until_painted(app: Any) -> bool:
    """Run `app` headless until a frame showing a filled table has been rendered, then exit.
    Returns whether such a frame was rendered.

    Each frame the compositor renders goes through `App._display` (which, headless, writes
    nothing); the first one rendered while the screen's table has rows ends the run."""
    from textual.app import App

    painted: list[bool] = []
    display = app._display

    def display_and_check(screen: Any, renderable: Any) -> None:
        display(screen, renderable)
        if renderable is not None and not painted and _has_table_rows(app):
            painted.append(True)
            _note_memory()
            app.exit()

    app._display = display_and_check
    App.run(app, headless=True, size=SIZE)
    return bool(painted)


class _WhenImported(importlib.abc.MetaPathFinder):
    """Calls `then(module)` once the module `name` has been imported, so that a class of it
    can be patched without importing it early: the game imports its app (and Textual) only
    once the CLI has parsed its arguments, and the launch must be timed the same way."""

    def __init__(self, name: str, then: Callable[[ModuleType], None]) -> None:
        self.name, self.then = name, then

    def find_spec(self, name: str, path: Any, target: Any = None) -> ModuleSpec | None:
        if name != self.name:
            return None
        sys.meta_path.remove(self)
        spec = importlib.util.find_spec(name)
        if spec is None or spec.loader is None:
            return spec
        exec_module, then = spec.loader.exec_module, self.then

        def exec_then(module: ModuleType) -> None:
            exec_module(module)
            then(module)

        spec.loader.exec_module = exec_then  # type: ignore[method-assign]
        return spec


def run_game(argv: list[str]) -> int:
    from vocabgame import cli

    painted: list[bool] = []

    def run_headless(self: Any, *args: object, **kwargs: object) -> None:
        painted.append(run_until_painted(self))

    def patch(module: ModuleType) -> None:
        setattr(module.VocabApp, "run", run_headless)  # noqa: B010

    # The CLI refuses to open the game without a terminal; here there is none on purpose.
    setattr(cli.terminal, "terminal_problem", lambda *args, **kwargs: None)  # noqa: B010
    sys.meta_path.insert(0, _WhenImported("vocabgame.ui.app", patch))
    code = cli.main(argv)
    if code != 0:
        print(f"vocabgame exited with {code}", file=sys.stderr)
        return code
    return 0 if all(painted) and painted else EXIT_NOT_PAINTED


def run_bare() -> int:
    from textual.app import App, ComposeResult
    from textual.widgets import DataTable, Static

    class Bare(App[None]):
        """The baseline: a bare Textual app showing a table of a dozen rows."""

        def compose(self) -> ComposeResult:
            yield Static("vocabgame")
            yield DataTable()

        def on_mount(self) -> None:
            table = self.query_one(DataTable)
            table.add_columns("Deck", "Seen", "Due", "New", "Best")
            for n in range(12):
                table.add_row(f"Deck {n}", "0/100", "0", "20", "-")
            table.focus()

    return 0 if run_until_painted(Bare()) else EXIT_NOT_PAINTED


def main(argv: list[str]) -> int:
    if argv[:1] == ["game"] and len(argv) >= 2:
        return run_game(["--data-dir", *argv[1:]])
    if argv == ["bare"]:
        return run_bare()
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
