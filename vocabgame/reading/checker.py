"""The typed readers a deck is checked with: each reads one YAML value, reports what is wrong
with it at its line and column, and returns None (or an empty value) after a problem.

Kinds of item (`vocabgame.kinds`) read their own keys with these; `vocabgame.deck` walks the
file. Every message is one sentence an author can act on.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable
from typing import Any

from vocabgame.problems import Problem
from vocabgame.reading.node import Node

SLUG = re.compile(r"^[a-z0-9][a-z0-9-]*$")
# A YAML 1.2 number such as 1e9, which PyYAML (YAML 1.1) reads as text but editors read as a number
_NUMBER_TEXT = re.compile(r"^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$")


def did_you_mean(word: str, options: Iterable[str]) -> str:
    """' (did you mean 'x'?)' when something close exists, else ''."""
    import difflib  # here: only a deck with a mistake needs it

    close = difflib.get_close_matches(word, list(options), n=1, cutoff=0.6)
    return f" (did you mean {close[0]!r}?)" if close else ""


def number(node: Node) -> float | None:
    """A scalar's value as a float: an int, a float, or unquoted text like 1e9; else None."""
    value = node.value
    if node.kind != "scalar" or isinstance(value, bool):
        return None
    if isinstance(value, str):
        if node.quoted or not _NUMBER_TEXT.match(value):
            return None
    elif not isinstance(value, (int, float)):
        return None
    try:
        return float(value)
    except OverflowError:  # an integer with hundreds of digits
        return float("inf")


def describe(node: Node) -> str:
    if node.kind == "map":
        return "a mapping"
    if node.kind == "seq":
        return "a list"
    value = node.value
    if value is None:
        return "nothing"
    if isinstance(value, bool):
        return f"the boolean {node.raw}"
    if isinstance(value, (int, float)):
        return f"the number {node.raw}"
    if isinstance(value, str):
        return "text"
    return f"a {type(value).__name__} ({node.raw})"


class Checker:
    """Collects the problems of one deck file, and what its items may refer to: the deck's term
    ids and source keys, filled in by the deck reader before items are read."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.problems: list[Problem] = []
        self.source_nodes: dict[str, tuple[int, int]] = {}
        self.source_keys: Collection[str] = frozenset()
        self.term_ids: frozenset[str] = frozenset()
        self.cited: set[str] = set()

    # -- reporting ---------------------------------------------------------------------------

    def error(self, where: Node | tuple[int, int] | None, message: str) -> None:
        line: int | None
        col: int | None
        if isinstance(where, Node):
            line, col = where.line, where.col
        elif where is None:
            line = col = None
        else:
            line, col = where
        self.problems.append(Problem(self.path, message, line, col))

    def warn(self, where: Node | tuple[int, int], message: str) -> None:
        line, col = (where.line, where.col) if isinstance(where, Node) else where
        self.problems.append(Problem(self.path, message, line, col, severity="warning"))

    # -- typed readers: each returns None after reporting a problem ---------------------------

    def mapping(
        self,
        node: Node,
        what: str,
        required: tuple[str, ...],
        optional: tuple[str, ...],
    ) -> dict[str, Node] | None:
        if node.kind != "map":
            self.error(node, f"{what} should be a mapping of keys to values, not {describe(node)}")
            return None
        allowed = (*required, *optional)
        for key in node.value:
            if key not in allowed:
                hint = did_you_mean(key, allowed) or f"; allowed keys: {', '.join(allowed)}"
                self.error(node.key_pos[key], f"unknown key {key!r} in {what}{hint}")
        for key in required:
            if key not in node.value:
                self.error(node, f"{what} is missing required key {key!r}")
        return {k: v for k, v in node.value.items() if k in allowed}

    def text(self, node: Node, what: str) -> str | None:
        if node.kind == "scalar" and isinstance(node.value, str):
            if not node.value.strip():
                self.error(node, f"{what} is empty")
                return None
            return node.value
        if node.looks_boolean:
            self.error(
                node,
                f"{what}: YAML reads unquoted {node.raw} as a boolean; "
                f'write "{node.raw}" in quotes to mean the text',
            )
        elif node.kind == "scalar" and node.value is not None:
            self.error(
                node, f'{what} should be text, found {describe(node)}; quote it: "{node.raw}"'
            )
        else:
            self.error(node, f"{what} should be text, found {describe(node)}")
        return None

    def slug(self, node: Node, what: str) -> str | None:
        value = self.text(node, what)
        if value is None:
            return None
        if not SLUG.match(value):
            self.error(
                node,
                f"{what} {value!r} is not a slug: use lowercase letters, digits and hyphens, "
                "starting with a letter or digit",
            )
            return None
        return value

    def sequence(self, node: Node, what: str) -> list[Node] | None:
        if node.kind != "seq":
            self.error(node, f"{what} should be a list, found {describe(node)}")
            return None
        return node.value

    def texts(self, node: Node, what: str) -> tuple[str, ...]:
        items = self.sequence(node, what)
        if items is None:
            return ()
        out = (self.text(item, f"each entry of {what}") for item in items)
        return tuple(v for v in out if v is not None)

    def common(self, fields: dict[str, Node]) -> dict[str, Any]:
        """id, tags, sources and the line: what every item has."""
        sources: tuple[str, ...] = ()
        if "sources" in fields:
            keys = self.texts(fields["sources"], "sources")
            entries = fields["sources"].value if fields["sources"].kind == "seq" else []
            for entry in entries:
                key = entry.value
                if isinstance(key, str) and key.strip() and key not in self.source_keys:
                    hint = did_you_mean(key, self.source_keys)
                    known = (
                        ""
                        if hint
                        else (
                            "; add it to the deck's sources"
                            if not self.source_keys
                            else f"; known keys: {', '.join(sorted(self.source_keys))}"
                        )
                    )
                    self.error(entry, f"source {key!r} is not in the deck's sources{hint}{known}")
            self.cited.update(keys)
            sources = keys
        return {
            "id": fields["id"].value if "id" in fields else "",
            "tags": self.texts(fields["tags"], "tags") if "tags" in fields else (),
            "sources": sources,
            "line": fields["id"].line if "id" in fields else 0,
        }

    def opt_text(self, fields: dict[str, Node], key: str) -> str | None:
        return self.text(fields[key], key) if key in fields else None

    def req_text(self, fields: dict[str, Node], key: str) -> str:
        return (self.text(fields[key], key) if key in fields else None) or ""

    def term_ref(self, node: Node, what: str, allowed: Iterable[str] | None = None) -> str | None:
        value = self.text(node, what)
        if value is None:
            return None
        pool = self.term_ids if allowed is None else frozenset(allowed)
        if value not in pool:
            where = "the deck's term ids" if allowed is None else "the group's terms"
            self.error(node, f"{what} {value!r} is not one of {where}{did_you_mean(value, pool)}")
            return None
        return value
