"""An item as it was read, for the lint rules: apart from the rules themselves, so that a
deck is read without loading them (they run only for `validate --strict`)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from vocabgame.reading.node import Node


@dataclass(frozen=True, slots=True)
class Entry:
    """One item as the rules see it: the model item and the YAML nodes it was read from."""

    section: str
    item: Any
    node: Node
    fields: Mapping[str, Node]
    ignore: frozenset[str] = frozenset()


__all__ = ["Entry"]
