"""A progress bar for the commands that can take a while (export-progress, import-progress,
check): Rich's, on standard error, shown only on a terminal and only once the work has taken
more than a second, so quick runs, pipes and --json print nothing more."""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from types import TracebackType
from typing import Any

from vocabgame.cli.terminal import in_browser, is_terminal

AFTER = 1.0  # seconds of work before a bar appears


class Bar:
    """Call it with (done, total) as the work goes; use it as a context manager so the bar
    is taken away at the end."""

    def __init__(
        self,
        what: str,
        shown: bool,
        clock: Callable[[], float] = time.monotonic,
        after: float = AFTER,
        bytes_: bool = False,
    ) -> None:
        self.what, self.shown, self.clock, self.after = what, shown, clock, after
        self.bytes = bytes_
        self.started = clock()
        self.progress: Any = None
        self.task: Any = None

    @classmethod
    def on_terminal(cls, what: str, as_json: bool = False, bytes_: bool = False) -> Bar:
        """A bar shown when both standard output and error are a terminal, never with
        --json, never in a browser tab."""
        shown = (
            not as_json and not in_browser() and is_terminal(sys.stdout) and is_terminal(sys.stderr)
        )
        return cls(what, shown, bytes_=bytes_)

    def __call__(self, done: int, total: int) -> None:
        if not self.shown:
            return
        if self.progress is None:
            if self.clock() - self.started < self.after:
                return
            self.progress, self.task = self._start(total)
        self.progress.update(self.task, completed=done, total=total)

    def _start(self, total: int) -> tuple[Any, Any]:
        # Imported here: commands that finish within a second never load Rich's progress.
        from rich.console import Console
        from rich.progress import (
            BarColumn,
            DownloadColumn,
            MofNCompleteColumn,
            Progress,
            TextColumn,
            TimeRemainingColumn,
        )

        count = DownloadColumn() if self.bytes else MofNCompleteColumn()
        progress = Progress(
            TextColumn("{task.description}"),
            BarColumn(),
            count,
            TimeRemainingColumn(),
            console=Console(stderr=True),
            transient=True,
        )
        progress.start()
        return progress, progress.add_task(self.what, total=total)

    def __enter__(self) -> Bar:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        if self.progress is not None:
            self.progress.stop()
            self.progress = None
