"""A value read from a deck file with the place it stood: what the checks and the kinds of
item work on. Apart from the YAML reader (`vocabgame.reading.yamltree`), so that what only
names a node never loads YAML."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

_BOOL_WORDS = frozenset(
    [
        "y",
        "Y",
        "yes",
        "Yes",
        "YES",
        "n",
        "N",
        "no",
        "No",
        "NO",
        "true",
        "True",
        "TRUE",
        "false",
        "False",
        "FALSE",
        "on",
        "On",
        "ON",
        "off",
        "Off",
        "OFF",
    ]
)


@dataclass(slots=True, eq=False)
class Node:
    """A YAML value with its 1-based position. `value` is a dict, a list or a scalar."""

    kind: str  # "map", "seq" or "scalar"
    value: Any
    line: int
    col: int
    raw: str = ""  # a scalar's source text, before typing
    quoted: bool = False
    key_pos: dict[str, tuple[int, int]] = field(default_factory=dict)
    size: int = 1  # nodes this one stands for once aliases are expanded

    @property
    def looks_boolean(self) -> bool:
        """True for an unquoted yes/no/on/off/true/false that YAML typed as a boolean."""
        return self.kind == "scalar" and not self.quoted and self.raw in _BOOL_WORDS


__all__ = ["Node"]
