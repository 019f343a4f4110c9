"""Load deck files: YAML text in, a validated immutable `Deck` out, or every problem at once.

Reading a deck goes in steps: the YAML tree (`reading.yamltree`), the header (format, id,
title, sources), the sections' entries and their ids, then each item by its kind
(`vocabgame.kinds`), then, with `strict`, the warnings. Every problem names the file, line and
column. Loading never runs code from the file.
"""

from __future__ import annotations

import gc
import re
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from types import MappingProxyType
from typing import TYPE_CHECKING

from vocabgame.deck.entry import Entry
from vocabgame.kinds import KINDS, ItemKind
from vocabgame.model import FORMAT_VERSION, LEVELS, Deck, Source
from vocabgame.problems import Problem
from vocabgame.reading.checker import Checker, describe, did_you_mean
from vocabgame.reading.yamltree import Node, YamlProblem, parse

if TYPE_CHECKING:
    from vocabgame.deck import lint

HEADER_KEYS = (
    "format",
    "id",
    "title",
    "description",
    "start_here",
    "tags",
    "sources",
    "formerly",
)
SOURCE_KEYS = ("title", "url")
# keys every kind of item may have
ITEM_KEYS = ("tags", "sources", "formerly", "version", "level", "topic", "lint")
LINT_KEYS = ("ignore", "reason")
EMPTY = "file is empty; a deck needs format, id, title and items"


def top_keys() -> tuple[str, ...]:
    """Every key a deck file may have at the top: the header, then one per kind of item."""
    return (*HEADER_KEYS, *KINDS)


@dataclass(slots=True)
class _Header:
    """A deck file's header keys, as read."""

    deck_id: str | None
    title: str | None
    description: str | None
    start_here: int | None
    tags: tuple[str, ...]
    sources: dict[str, Source]
    formerly: tuple[str, ...]


def _entry_name(kind: ItemKind, index: int, entry: Node) -> str:
    """'term 'ttft'' when the entry has a readable id, else 'terms entry 2'."""
    if entry.kind == "map":
        id_node = entry.value.get("id")
        if id_node is not None and id_node.kind == "scalar" and isinstance(id_node.value, str):
            return f"{kind.noun} {id_node.value!r}"
    return f"{kind.section} entry {index}"


class DeckReader:
    """Reads one deck's YAML tree with a `Checker`, step by step."""

    def __init__(self, checker: Checker) -> None:
        self.checker = checker
        self.ids: dict[str, Node] = {}
        self.renamed: dict[str, tuple[str, Node]] = {}  # old item id -> (new id, its node)
        self.versions: dict[str, str] = {}  # item id -> the release its fact describes
        self.levels: dict[str, str] = {}  # item id -> its level
        self.topics: dict[str, tuple[str, Node]] = {}  # item id -> its topic and where it is
        self.linted: list[Entry] = []  # every item with its nodes, for the lint rules
        self.sections_at: dict[str, tuple[int, int]] = {}  # where each section's key is

    def deck(self, root: Node) -> Deck | None:
        c = self.checker
        top = c.mapping(root, "the deck", ("format", "id", "title"), top_keys()[3:])
        if top is None or not self.format_ok(top):
            return None
        header = self.header(top)
        entries = self.entries(top)
        if not any(top[s].kind == "seq" and top[s].value for s in KINDS if s in top):
            c.error(root, f"the deck has no items; add at least one entry to {', '.join(KINDS)}")
        c.term_ids = frozenset(
            fields["id"].value
            for _, fields in entries.get("terms", [])
            if "id" in fields and isinstance(fields["id"].value, str)
        )
        sections = {
            section: tuple(KINDS[section].read(c, entry, fields) for entry, fields in rows)
            for section, rows in entries.items()
        }
        if header.deck_id in header.formerly:
            c.error(top["formerly"], f"formerly lists the deck's own id {header.deck_id!r}")
        for section, rows in entries.items():
            for (entry, fields), item in zip(rows, sections[section], strict=True):
                ignore = self.lint_key(fields["lint"]) if "lint" in fields else frozenset()
                self.linted.append(Entry(section, item, entry, fields, ignore))
        self.sections_at = {s: root.key_pos[s] for s in KINDS if s in top}
        if any(p.severity == "error" for p in c.problems):
            return None
        assert header.deck_id is not None and header.title is not None
        return Deck(
            id=header.deck_id,
            title=header.title,
            path=c.path,
            description=header.description,
            start_here=header.start_here,
            tags=header.tags,
            sources=MappingProxyType(header.sources),
            sections=MappingProxyType({s: sections.get(s, ()) for s in KINDS}),
            formerly=header.formerly,
            renamed=MappingProxyType({old: new for old, (new, _) in self.renamed.items()}),
            versions=MappingProxyType(self.versions),
            levels=MappingProxyType(self.levels),
            topics=MappingProxyType({i: topic for i, (topic, _) in self.topics.items()}),
        )

    def format_ok(self, top: dict[str, Node]) -> bool:
        if "format" not in top:
            return True  # reported as a missing key
        fmt = top["format"]
        if fmt.kind == "scalar" and not isinstance(fmt.value, bool) and fmt.value == FORMAT_VERSION:
            return True
        if isinstance(fmt.value, str) and fmt.value.strip() == str(FORMAT_VERSION):
            message = (
                f"format is the number {FORMAT_VERSION}, unquoted; found the text {fmt.value!r}"
            )
        else:
            shown = repr(fmt.value) if isinstance(fmt.value, str) else fmt.raw or describe(fmt)
            message = f"unsupported format {shown}; this version of vocabgame reads format {FORMAT_VERSION}"
        self.checker.error(fmt, message)
        return False

    def header(self, top: dict[str, Node]) -> _Header:
        c = self.checker
        sources = self.sources(top["sources"]) if "sources" in top else {}
        c.source_keys = frozenset(sources)
        return _Header(
            deck_id=c.slug(top["id"], "deck id") if "id" in top else None,
            title=c.text(top["title"], "title") if "title" in top else None,
            description=c.opt_text(top, "description"),
            start_here=self.start_here(top["start_here"]) if "start_here" in top else None,
            tags=c.texts(top["tags"], "tags") if "tags" in top else (),
            sources=sources,
            formerly=self.old_ids(top["formerly"], "deck") if "formerly" in top else (),
        )

    def start_here(self, node: Node) -> int | None:
        """Where a newcomer begins: 1 for the first deck to play, 2 for the next, and so on."""
        value = node.value
        if node.kind == "scalar" and type(value) is int and 1 <= value <= 999:
            return value
        self.checker.error(
            node,
            "start_here is a whole number from 1 (play this deck first) to 999, "
            f"not {describe(node)}",
        )
        return None

    def sources(self, node: Node) -> dict[str, Source]:
        c = self.checker
        if node.kind != "map":
            c.error(
                node,
                f"sources should be a mapping from a key to {{title, url}}, not {describe(node)}",
            )
            return {}
        out: dict[str, Source] = {}
        for key, value in node.value.items():
            fields = c.mapping(value, f"source {key!r}", SOURCE_KEYS, ())
            if fields is None or len(fields) < len(SOURCE_KEYS):
                continue
            title = c.text(fields["title"], f"title of source {key!r}")
            url = c.text(fields["url"], f"url of source {key!r}")
            if title and url:
                if not re.match(r"^(https?://|doi:|urn:)\S+$", url):
                    c.error(
                        fields["url"],
                        f"url of source {key!r} should start with https:// or http://",
                    )
                out[key] = Source(key, title, url)
        c.source_nodes = {k: node.key_pos[k] for k in out}
        return out

    def entries(self, top: dict[str, Node]) -> dict[str, list[tuple[Node, dict[str, Node]]]]:
        """Each section's entries with their checked keys, ids registered as they come."""
        c = self.checker
        sections: dict[str, list[tuple[Node, dict[str, Node]]]] = {}
        for section, kind in KINDS.items():
            if section not in top or (entries := c.sequence(top[section], section)) is None:
                continue
            rows = []
            for index, entry in enumerate(entries, 1):
                what = _entry_name(kind, index, entry)
                fields = c.mapping(entry, what, kind.required, (*kind.optional, *ITEM_KEYS))
                if fields is None:
                    continue
                if "id" in fields:
                    self.item_id(fields["id"])
                if "formerly" in fields:
                    self.item_renames(fields)
                if "version" in fields and "id" in fields:
                    version = c.text(fields["version"], "version")
                    if version is not None and isinstance(fields["id"].value, str):
                        self.versions[fields["id"].value] = version
                if "id" in fields and isinstance(fields["id"].value, str):
                    self.level_and_topic(fields["id"].value, fields)
                rows.append((entry, fields))
            sections[section] = rows
        self.check_renames()
        return sections

    def level_and_topic(self, item_id: str, fields: dict[str, Node]) -> None:
        """An item's `level` (one of LEVELS) and `topic` (any slug; `strict` checks the map)."""
        c = self.checker
        if "level" in fields:
            node = fields["level"]
            level = node.value if node.kind == "scalar" else None
            if isinstance(level, str) and level in LEVELS:
                self.levels[item_id] = level
            elif node.kind == "scalar" and level is None:
                c.error(node, f"level is empty; write one of {', '.join(LEVELS)}")
            else:
                shown = repr(level) if isinstance(level, str) else node.raw or describe(node)
                hint = did_you_mean(level.upper(), LEVELS) if isinstance(level, str) else ""
                c.error(node, f"level {shown} is not one of {', '.join(LEVELS)}{hint}")
        if "topic" in fields:
            topic = c.slug(fields["topic"], "topic")
            if topic is not None:
                self.topics[item_id] = (topic, fields["topic"])

    def old_ids(self, node: Node, what: str) -> tuple[str, ...]:
        """A `formerly` list: the ids something had before, as slugs."""
        entries = self.checker.sequence(node, f"formerly of the {what}")
        if entries is None:
            return ()
        ids = (self.checker.slug(entry, f"old {what} id") for entry in entries)
        return tuple(i for i in ids if i is not None)

    def item_renames(self, fields: dict[str, Node]) -> None:
        new = fields["id"].value if "id" in fields else None
        if not isinstance(new, str):
            return
        entries = self.checker.sequence(fields["formerly"], "formerly of the item") or []
        for node in entries:
            old = self.checker.slug(node, "old item id")
            if old is None:
                continue
            if old in self.renamed:
                other = self.renamed[old]
                self.checker.error(
                    node,
                    f"old id {old!r} is already claimed by {other[0]!r} at line "
                    f"{other[1].line}; progress can go to one item only",
                )
            else:
                self.renamed[old] = (new, node)

    def check_renames(self) -> None:
        """An old id that is also a live id would take another item's progress."""
        for old, (new, node) in self.renamed.items():
            if old in self.ids:
                self.checker.error(
                    node,
                    f"old id {old!r} of {new!r} is also the id of the item at line "
                    f"{self.ids[old].line}; an id in formerly must no longer be used",
                )

    def item_id(self, node: Node) -> None:
        value = self.checker.slug(node, "id")
        if value is None:
            return
        if value in self.ids:
            first = self.ids[value]
            self.checker.error(
                node,
                f"id {value!r} is already used at line {first.line}; ids must be unique in a deck",
            )
        else:
            self.ids[value] = node

    def lint_key(self, node: Node) -> frozenset[str]:
        """The rules an item silences: `lint: {ignore: [rule-name, ...], reason: why}`."""
        c = self.checker
        fields = c.mapping(node, "lint", LINT_KEYS, ())
        if fields is None or "ignore" not in fields:
            return frozenset()
        from vocabgame.deck import lint  # the rules load only for a deck that names them

        names: set[str] = set()
        for name_node in c.sequence(fields["ignore"], "lint ignore") or []:
            name = c.text(name_node, "each entry of lint ignore")
            if name is None:
                continue
            if name not in lint.RULES:
                hint = did_you_mean(name, lint.RULES) or f"; the rules are {', '.join(lint.RULES)}"
                c.error(name_node, f"lint ignores {name!r}, which is not a lint rule{hint}")
            else:
                names.add(name)
        if fields["ignore"].kind == "seq" and not fields["ignore"].value:
            c.error(fields["ignore"], "lint ignore lists no rule; name the rules to silence")
        if "reason" in fields:
            c.text(fields["reason"], "lint reason")
        return frozenset(names)

    def strict_warnings(self, deck: Deck) -> None:
        from vocabgame.deck import lint

        c = self.checker
        for item in deck.items():
            if not item.sources:
                c.warn((item.line, 1), f"{type(item).__name__.lower()} {item.id!r} cites no source")
        for key, pos in c.source_nodes.items():
            if key not in c.cited:
                c.warn(pos, f"source {key!r} is cited by no item")
        from vocabgame.deck.topics import topic_map  # its reading loads tempfile and random

        known = topic_map()
        for topic, node in self.topics.values():
            if topic not in known:
                hint = did_you_mean(topic, known) or f"; the topics are {', '.join(known)}"
                c.warn(node, f"topic {topic!r} is not in the topic map{hint}")
        c.problems.extend(lint.problems(c.path, deck, self.linted, self.sections_at))


@contextmanager
def _collector_paused() -> Iterator[None]:
    """Python's cyclic garbage collector paused while a deck is read. The parse makes an
    object per value and keeps them all until the deck is built, so each collection on the way
    would walk everything made so far: a 50,000-item deck took 6-8x the time of 10,000 items,
    instead of about 5x. Nothing is kept longer: what is dropped is freed by its reference
    count, and any cycle at the next collection."""
    if not gc.isenabled():  # paused already (a deck read inside another's)
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


def _compared_with_itself(path: str, deck: Deck, linted: list[Entry]) -> list[Problem]:
    """The cross-deck rule's problems for a deck on its own."""
    from vocabgame.deck import lint

    alone = lint.Corpus()
    alone.add(path, deck, linted)
    return alone.problems()


def load_text(
    text: str, path: str, strict: bool = False, corpus: lint.Corpus | None = None
) -> tuple[Deck | None, list[Problem]]:
    """Validate deck text. Returns the deck (None if any error) and every problem found.

    With `strict`, also the warnings: items without sources, sources no item cites, and the lint
    rules' test-taking tells. The cross-deck rule compares the deck with itself, or, given a
    `corpus`, adds the deck to it and leaves the comparison to `corpus.problems()`.
    """
    if not text.strip():
        return None, [Problem(path, EMPTY)]
    if "\x00" in text:
        return None, [Problem(path, "file contains a NUL character; it is not a text file")]
    with _collector_paused():
        try:
            root, soft = parse(text)
        except YamlProblem as exc:
            return None, [Problem(path, exc.message, exc.line, exc.col)]
        checker = Checker(path)
        for problem in soft:
            checker.error((problem.line or 1, problem.col or 1), problem.message)
        if root is None or (root.kind == "scalar" and root.value is None):
            return None, [Problem(path, EMPTY)]
        reader = DeckReader(checker)
        deck = reader.deck(root)
        if any(p.severity == "error" for p in checker.problems):
            deck = None
        if deck is not None and strict:
            reader.strict_warnings(deck)
            if corpus is None:
                checker.problems.extend(_compared_with_itself(path, deck, reader.linted))
            else:
                corpus.add(path, deck, reader.linted)
        # The tree goes while the collector is still paused, freed by reference counting;
        # kept until the collector runs again, it would be walked by the first collection
        # (at 50,000 items, 190 ms of a 1.75 s load, against 22 ms at 10,000).
        del reader, root
    problems = sorted(checker.problems, key=lambda p: (p.line or 0, p.col or 0))
    return deck, problems


__all__ = ["DeckReader", "load_text", "top_keys"]
