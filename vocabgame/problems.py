"""Problems found in a deck file, reported the way compilers and linters do."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from vocabgame.printable import printable

Severity = Literal["error", "warning"]


@dataclass(frozen=True, slots=True)
class Problem:
    """One thing wrong with a deck file, at a 1-based line and column when known."""

    path: str
    message: str
    line: int | None = None
    col: int | None = None
    severity: Severity = "error"
    rule: str | None = None  # the lint rule that found it, for warnings about test-taking tells

    def __str__(self) -> str:
        """The problem as one line; control characters in the path or message are escaped,
        so a file's name can never drive the terminal it is printed to."""
        where = self.path if self.line is None else f"{self.path}:{self.line}:{self.col or 1}"
        named = f" [{self.rule}]" if self.rule else ""
        return printable(f"{where}: {self.severity}: {self.message}{named}")

    def as_dict(self) -> dict[str, object]:
        return {
            "path": self.path,
            "line": self.line,
            "col": self.col,
            "severity": self.severity,
            "message": self.message,
            "rule": self.rule,
        }


class DeckError(Exception):
    """A deck file could not be loaded; `problems` lists every error found in it."""

    def __init__(self, problems: list[Problem]) -> None:
        self.problems = list(problems)
        super().__init__("\n".join(str(p) for p in self.problems))
