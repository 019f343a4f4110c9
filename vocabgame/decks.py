"""Load deck files: YAML text in, a validated immutable `Deck` out, or every problem at once.

Every problem names the file, line and column. Loading never runs code from the file.
"""

from __future__ import annotations

import difflib
import itertools
import math
import re
import string
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType
from typing import Any

from vocabgame import calc
from vocabgame.model import (
    DEFAULT_TOLERANCE,
    FORMAT_VERSION,
    SECTIONS,
    Calculation,
    Claim,
    Confusable,
    Cue,
    Deck,
    Given,
    Recall,
    Scenario,
    Source,
    Term,
    Tolerance,
)
from vocabgame.problems import DeckError, Problem
from vocabgame.yamltree import Node, YamlProblem, parse

DEFAULT_MAX_BYTES = 5 * 1024 * 1024
MAX_COMBINATIONS = 10_000
DECK_SUFFIXES = (".yaml", ".yml")

SLUG = re.compile(r"^[a-z0-9][a-z0-9-]*$")
# A YAML 1.2 number such as 1e9, which PyYAML (YAML 1.1) reads as text but editors read as a number
_NUMBER_TEXT = re.compile(r"^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$")
_TOLERANCE = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*%\s*$")

TOP_KEYS = ("format", "id", "title", "description", "tags", "sources", *SECTIONS)
ITEM_KEYS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    # section: (required keys, optional keys); every item may also have tags and sources
    "terms": (("id", "term", "definition"), ("aliases", "caveat", "example")),
    "confusables": (("id", "terms", "distinction"), ("cues",)),
    "scenarios": (("id", "prompt", "choices", "answer", "explanation"), ("why_not",)),
    "recall": (("id", "prompt", "answer"), ("key_points",)),
    "claims": (("id", "statement", "answer", "explanation"), ()),
    "calculations": (
        ("id", "prompt", "given", "answer", "explanation"),
        ("unit", "tolerance"),
    ),
}
SOURCE_KEYS = ("title", "url")
CUE_KEYS = ("text", "answer")


def did_you_mean(word: str, options: Iterable[str]) -> str:
    """' (did you mean 'x'?)' when something close exists, else ''."""
    close = difflib.get_close_matches(word, list(options), n=1, cutoff=0.6)
    return f" (did you mean {close[0]!r}?)" if close else ""


def _number(node: Node) -> float | None:
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


def _describe(node: Node) -> str:
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


ITEM_NAMES = {
    "terms": "term",
    "confusables": "confusable group",
    "scenarios": "scenario",
    "recall": "recall item",
    "claims": "claim",
    "calculations": "calculation",
}


def _entry_name(section: str, index: int, entry: Node) -> str:
    """'term 'ttft'' when the entry has a readable id, else 'terms entry 2'."""
    if entry.kind == "map":
        id_node = entry.value.get("id")
        if id_node is not None and id_node.kind == "scalar" and isinstance(id_node.value, str):
            return f"{ITEM_NAMES[section]} {id_node.value!r}"
    return f"{section} entry {index}"


class _Checker:
    """Walks the YAML tree of one deck, collecting problems and building the model."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.problems: list[Problem] = []
        self.source_nodes: dict[str, tuple[int, int]] = {}

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
            self.error(node, f"{what} should be a mapping of keys to values, not {_describe(node)}")
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
                node, f'{what} should be text, found {_describe(node)}; quote it: "{node.raw}"'
            )
        else:
            self.error(node, f"{what} should be text, found {_describe(node)}")
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
            self.error(node, f"{what} should be a list, found {_describe(node)}")
            return None
        return node.value

    def texts(self, node: Node, what: str) -> tuple[str, ...]:
        items = self.sequence(node, what)
        if items is None:
            return ()
        out = (self.text(item, f"each entry of {what}") for item in items)
        return tuple(v for v in out if v is not None)

    # -- the deck -----------------------------------------------------------------------------

    def deck(self, root: Node) -> Deck | None:
        top = self.mapping(root, "the deck", ("format", "id", "title"), TOP_KEYS[3:])
        if top is None:
            return None
        if "format" in top:
            fmt = top["format"]
            if fmt.kind != "scalar" or isinstance(fmt.value, bool) or fmt.value != FORMAT_VERSION:
                if isinstance(fmt.value, str) and fmt.value.strip() == str(FORMAT_VERSION):
                    message = (
                        f"format is the number {FORMAT_VERSION}, unquoted; found the text "
                        f"{fmt.value!r}"
                    )
                else:
                    shown = (
                        repr(fmt.value) if isinstance(fmt.value, str) else fmt.raw or _describe(fmt)
                    )
                    message = (
                        f"unsupported format {shown}; "
                        f"this version of vocabgame reads format {FORMAT_VERSION}"
                    )
                self.error(fmt, message)
                return None
        deck_id = self.slug(top["id"], "deck id") if "id" in top else None
        title = self.text(top["title"], "title") if "title" in top else None
        description = self.text(top["description"], "description") if "description" in top else None
        tags = self.texts(top["tags"], "tags") if "tags" in top else ()
        sources = self.sources(top["sources"]) if "sources" in top else {}

        self.ids: dict[str, Node] = {}
        self.source_keys = sources
        self.cited: set[str] = set()
        sections: dict[str, list[tuple[Node, dict[str, Node]]]] = {}
        for section in SECTIONS:
            if section not in top:
                continue
            entries = self.sequence(top[section], section)
            if entries is None:
                continue
            required, optional = ITEM_KEYS[section]
            rows = []
            for index, entry in enumerate(entries, 1):
                what = _entry_name(section, index, entry)
                fields = self.mapping(entry, what, required, (*optional, "tags", "sources"))
                if fields is None:
                    continue
                if "id" in fields:
                    self.item_id(fields["id"])
                rows.append((entry, fields))
            sections[section] = rows

        if not any(top[s].kind == "seq" and top[s].value for s in SECTIONS if s in top):
            self.error(
                root,
                f"the deck has no items; add at least one entry to {', '.join(SECTIONS)}",
            )

        self.term_ids = {
            fields["id"].value
            for _, fields in sections.get("terms", [])
            if "id" in fields and isinstance(fields["id"].value, str)
        }
        built: dict[str, list[Any]] = {}
        builders: dict[str, Callable[[Node, dict[str, Node]], Any]] = {
            "terms": self.term,
            "confusables": self.confusable,
            "scenarios": self.scenario,
            "recall": self.recall,
            "claims": self.claim,
            "calculations": self.calculation,
        }
        for section, rows in sections.items():
            built[section] = [builders[section](entry, fields) for entry, fields in rows]

        if any(p.severity == "error" for p in self.problems):
            return None
        assert deck_id is not None and title is not None
        return Deck(
            id=deck_id,
            title=title,
            path=self.path,
            description=description,
            tags=tags,
            sources=MappingProxyType(
                {k: s for k, (s, _) in sources.items()}  # positions dropped
            ),
            **{section: tuple(items) for section, items in built.items()},
        )

    def sources(self, node: Node) -> dict[str, tuple[Source, Node]]:
        if node.kind != "map":
            self.error(
                node,
                f"sources should be a mapping from a key to {{title, url}}, not {_describe(node)}",
            )
            return {}
        out: dict[str, tuple[Source, Node]] = {}
        for key, value in node.value.items():
            fields = self.mapping(value, f"source {key!r}", SOURCE_KEYS, ())
            if fields is None or len(fields) < len(SOURCE_KEYS):
                continue
            title = self.text(fields["title"], f"title of source {key!r}")
            url = self.text(fields["url"], f"url of source {key!r}")
            if title and url:
                if not re.match(r"^(https?://|doi:|urn:)\S+$", url):
                    self.error(
                        fields["url"],
                        f"url of source {key!r} should start with https:// or http://",
                    )
                out[key] = (Source(key, title, url), value)
        self.source_nodes = {k: node.key_pos[k] for k in out}
        return out

    def item_id(self, node: Node) -> None:
        value = self.slug(node, "id")
        if value is None:
            return
        if value in self.ids:
            first = self.ids[value]
            self.error(
                node,
                f"id {value!r} is already used at line {first.line}; ids must be unique in a deck",
            )
        else:
            self.ids[value] = node

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
        pool = set(self.term_ids if allowed is None else allowed)
        if value not in pool:
            where = "the deck's term ids" if allowed is None else "the group's terms"
            self.error(node, f"{what} {value!r} is not one of {where}{did_you_mean(value, pool)}")
            return None
        return value

    # -- sections -----------------------------------------------------------------------------

    def term(self, entry: Node, f: dict[str, Node]) -> Term:
        return Term(
            term=self.req_text(f, "term"),
            definition=self.req_text(f, "definition"),
            aliases=self.texts(f["aliases"], "aliases") if "aliases" in f else (),
            caveat=self.opt_text(f, "caveat"),
            example=self.opt_text(f, "example"),
            **self.common(f),
        )

    def confusable(self, entry: Node, f: dict[str, Node]) -> Confusable:
        terms: list[str] = []
        if "terms" in f and (nodes := self.sequence(f["terms"], "terms")) is not None:
            for node in nodes:
                ref = self.term_ref(node, "term")
                if ref in terms:
                    self.error(node, f"term {ref!r} is listed twice in this group")
                elif ref is not None:
                    terms.append(ref)
            if len(nodes) < 2:
                self.error(f["terms"], "a confusable group needs at least 2 terms")
        cues: list[Cue] = []
        if "cues" in f and (nodes := self.sequence(f["cues"], "cues")) is not None:
            for index, node in enumerate(nodes, 1):
                fields = self.mapping(node, f"cue {index}", CUE_KEYS, ())
                if fields is None or len(fields) < 2:
                    continue
                text = self.text(fields["text"], "cue text")
                answer = self.term_ref(fields["answer"], "cue answer", terms)
                if text and answer:
                    cues.append(Cue(text, answer))
        return Confusable(
            terms=tuple(terms),
            distinction=self.req_text(f, "distinction"),
            cues=tuple(cues),
            **self.common(f),
        )

    def scenario(self, entry: Node, f: dict[str, Node]) -> Scenario:
        choices: list[str] = []
        if "choices" in f and (nodes := self.sequence(f["choices"], "choices")) is not None:
            if not 2 <= len(nodes) <= 8:
                self.error(f["choices"], f"a scenario has 2 to 8 choices, found {len(nodes)}")
            for node in nodes:
                value = self.text(node, "choice")
                if value is None:
                    continue
                if value in choices:
                    self.error(node, f"choice {value!r} is given twice")
                    continue
                if SLUG.match(value) and value not in self.term_ids:
                    self.error(
                        node,
                        f"choice {value!r} looks like a term id but no term has it"
                        f"{did_you_mean(value, self.term_ids)}; to show it as literal text, "
                        "write it with a capital letter or a space",
                    )
                choices.append(value)
        answer = self.req_text(f, "answer")
        if answer and choices and answer not in choices:
            self.error(
                f["answer"],
                f"answer {answer!r} is not one of the choices{did_you_mean(answer, choices)}",
            )
        why_not: list[tuple[str, str]] = []
        if "why_not" in f:
            node = f["why_not"]
            if node.kind != "map":
                self.error(
                    node, f"why_not should map each wrong choice to a reason, not {_describe(node)}"
                )
            else:
                for key, reason in node.value.items():
                    pos = node.key_pos[key]
                    if key == answer:
                        self.error(pos, f"why_not explains {key!r}, but that is the right answer")
                    elif key not in choices:
                        self.error(
                            pos,
                            f"why_not key {key!r} is not one of the choices{did_you_mean(key, choices)}",
                        )
                    text = self.text(reason, f"why_not for {key!r}")
                    if text:
                        why_not.append((key, text))
        return Scenario(
            prompt=self.req_text(f, "prompt"),
            choices=tuple(choices),
            answer=answer,
            explanation=self.req_text(f, "explanation"),
            why_not=tuple(why_not),
            **self.common(f),
        )

    def recall(self, entry: Node, f: dict[str, Node]) -> Recall:
        return Recall(
            prompt=self.req_text(f, "prompt"),
            answer=self.req_text(f, "answer"),
            key_points=self.texts(f["key_points"], "key_points") if "key_points" in f else (),
            **self.common(f),
        )

    def claim(self, entry: Node, f: dict[str, Node]) -> Claim:
        answer = False
        if "answer" in f:
            node = f["answer"]
            if node.kind == "scalar" and isinstance(node.value, bool):
                answer = node.value
            else:
                self.error(
                    node, f"a claim's answer is true or false (unquoted), found {_describe(node)}"
                )
        return Claim(
            statement=self.req_text(f, "statement"),
            answer=answer,
            explanation=self.req_text(f, "explanation"),
            **self.common(f),
        )

    def calculation(self, entry: Node, f: dict[str, Node]) -> Calculation:
        given: list[Given] = []
        names: set[str] = set()
        if "given" in f:
            node = f["given"]
            if node.kind != "map" or not node.value:
                self.error(node, f"given should map each name to its values, not {_describe(node)}")
            else:
                for name, values in node.value.items():
                    pos = node.key_pos[name]
                    if not name.isidentifier() or name in calc.FUNCTIONS:
                        self.error(
                            pos,
                            f"given name {name!r} should be a plain identifier such as tokens or ttft_ms",
                        )
                        continue
                    names.add(name)
                    options = self.given_options(name, values)
                    if options:
                        given.append(Given(name, options))
        prompt = self.req_text(f, "prompt")
        if prompt:
            self.placeholders(f["prompt"], prompt, names, "given" in f)
        expression = self.req_text(f, "answer")
        if expression and "given" in f:
            try:
                tree = calc.parse(expression)
            except calc.CalcError as exc:
                self.error(f["answer"], f"answer: {exc}")
            else:
                unknown = calc.names(tree) - names
                if unknown:
                    first = sorted(unknown)[0]
                    self.error(
                        f["answer"],
                        f"answer uses {first!r}, which is not in given{did_you_mean(first, names)}",
                    )
                elif given and len(given) == len(f["given"].value):
                    self.try_all(f["answer"], tree, given)
        tolerance = DEFAULT_TOLERANCE
        if "tolerance" in f:
            tolerance = self.tolerance(f["tolerance"]) or DEFAULT_TOLERANCE
        return Calculation(
            prompt=prompt,
            given=tuple(given),
            answer=expression,
            explanation=self.req_text(f, "explanation"),
            unit=self.opt_text(f, "unit"),
            tolerance=tolerance,
            **self.common(f),
        )

    def given_options(self, name: str, node: Node) -> tuple[tuple[str, float], ...]:
        def number(value_node: Node) -> float | None:
            value = _number(value_node)
            if value is not None:
                if not math.isfinite(value):
                    self.error(
                        value_node, f"given {name!r}: {value_node.raw} is not a finite number"
                    )
                    return None
                return value
            self.error(
                value_node, f"given {name!r} should hold numbers, found {_describe(value_node)}"
            )
            return None

        options: list[tuple[str, float]] = []
        if node.kind == "seq":
            for value_node in node.value:
                value = number(value_node)
                if value is not None:
                    options.append((value_node.raw, value))
        elif node.kind == "map":
            for label, value_node in node.value.items():
                value = number(value_node)
                if value is not None:
                    options.append((label, value))
        else:
            self.error(
                node,
                f"given {name!r} should be a list of numbers or a mapping from a label to a number",
            )
            return ()
        if not options and not node.value:
            self.error(node, f"given {name!r} has no values")
        return tuple(options)

    def placeholders(self, node: Node, prompt: str, names: set[str], check_unused: bool) -> None:
        try:
            fields = [f for _, f, spec, conv in string.Formatter().parse(prompt) if f is not None]
        except ValueError as exc:
            self.error(node, f"prompt: {exc}; write a literal brace as {{{{ or }}}}")
            return
        for field in fields:
            if field not in names:
                self.error(
                    node,
                    f"prompt placeholder {{{field}}} is not in given{did_you_mean(field, names)}",
                )
        if check_unused:
            for name in sorted(names - set(fields)):
                self.error(
                    node, f"given {name!r} is never shown in the prompt; add {{{name}}} to it"
                )

    def try_all(self, node: Node, tree: Any, given: list[Given]) -> None:
        combos = 1
        for g in given:
            combos *= len(g.options)
        if combos > MAX_COMBINATIONS:
            self.error(
                node,
                f"given values make {combos:,} combinations; at most {MAX_COMBINATIONS:,} are allowed",
            )
            return
        for combo in itertools.product(*(g.options for g in given)):
            values = {g.name: value for g, (_, value) in zip(given, combo, strict=True)}
            try:
                calc.evaluate(tree, values)
            except calc.CalcError as exc:
                shown = ", ".join(f"{k}={v:g}" for k, v in values.items())
                self.error(node, f"answer fails when {shown}: {exc}")
                return

    def tolerance(self, node: Node) -> Tolerance | None:
        value = node.value
        if node.kind == "scalar" and isinstance(value, str):
            match = _TOLERANCE.match(value)
            if match:
                return Tolerance(float(match.group(1)) / 100, relative=True)
        if (number := _number(node)) is not None and 0 <= number < math.inf:
            return Tolerance(number, relative=False)
        self.error(
            node,
            f'tolerance should be a percentage such as "5%" or an absolute number, found {node.raw or _describe(node)}',
        )
        return None

    def strict_warnings(self, deck: Deck) -> None:
        for item in deck.items():
            if not item.sources:
                self.warn(
                    (item.line, 1), f"{type(item).__name__.lower()} {item.id!r} cites no source"
                )
        for key, pos in self.source_nodes.items():
            if key not in self.cited:
                self.warn(pos, f"source {key!r} is cited by no item")


def read_text(path: Path, max_bytes: int = DEFAULT_MAX_BYTES) -> str:
    """A deck file's text, or DeckError for a missing, oversized, empty or non-UTF-8 file."""
    shown = str(path)
    try:
        size = path.stat().st_size
        if size > max_bytes:
            raise DeckError(
                [Problem(shown, f"file is {size:,} bytes, over the limit of {max_bytes:,}")]
            )
        data = path.read_bytes()
    except FileNotFoundError:
        raise DeckError([Problem(shown, "no such file")]) from None
    except IsADirectoryError:
        raise DeckError([Problem(shown, "is a folder, not a deck file")]) from None
    except OSError as exc:
        raise DeckError([Problem(shown, f"cannot read: {exc.strerror}")]) from None
    return decode(data, shown, max_bytes)


def decode(data: bytes, shown: str, max_bytes: int = DEFAULT_MAX_BYTES) -> str:
    if len(data) > max_bytes:
        raise DeckError(
            [Problem(shown, f"file is {len(data):,} bytes, over the limit of {max_bytes:,}")]
        )
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        before = data[: exc.start]
        line = before.count(b"\n") + 1
        col = exc.start - (before.rfind(b"\n") + 1) + 1
        raise DeckError(
            [
                Problem(
                    shown,
                    f"file is not UTF-8 text (byte 0x{data[exc.start]:02x}); save it as UTF-8",
                    line,
                    col,
                )
            ]
        ) from None
    return text.removeprefix("\ufeff")


def load_text(text: str, path: str, strict: bool = False) -> tuple[Deck | None, list[Problem]]:
    """Validate deck text. Returns the deck (None if any error) and every problem found."""
    if not text.strip():
        return None, [Problem(path, "file is empty; a deck needs format, id, title and items")]
    if "\x00" in text:
        return None, [Problem(path, "file contains a NUL character; it is not a text file")]
    try:
        root, soft = parse(text)
    except YamlProblem as exc:
        return None, [Problem(path, exc.message, exc.line, exc.col)]
    checker = _Checker(path)
    for problem in soft:
        checker.error((problem.line or 1, problem.col or 1), problem.message)
    if root is None or (root.kind == "scalar" and root.value is None):
        return None, [Problem(path, "file is empty; a deck needs format, id, title and items")]
    deck = checker.deck(root)
    if checker.problems and any(p.severity == "error" for p in checker.problems):
        deck = None
    if deck is not None and strict:
        checker.strict_warnings(deck)
    problems = sorted(checker.problems, key=lambda p: (p.line or 0, p.col or 0))
    return deck, problems


def load_deck(path: Path | str, max_bytes: int = DEFAULT_MAX_BYTES) -> Deck:
    """Load one deck file; raises DeckError listing every problem in it."""
    path = Path(path)
    deck, problems = load_text(read_text(path, max_bytes), str(path))
    if deck is None:
        raise DeckError([p for p in problems if p.severity == "error"])
    return deck


def deck_files(paths: Iterable[Path]) -> list[Path]:
    """Deck files under the given files and folders, in a stable order."""
    found: list[Path] = []
    for path in paths:
        if path.is_dir():
            found.extend(
                sorted(p for p in path.rglob("*") if p.suffix in DECK_SUFFIXES and p.is_file())
            )
        else:
            found.append(path)
    return found


@dataclass(frozen=True)
class Catalog:
    """The decks found in a set of folders, and the problems that kept others out."""

    decks: tuple[Deck, ...]
    problems: tuple[Problem, ...]

    def get(self, deck_id: str) -> Deck | None:
        return next((d for d in self.decks if d.id == deck_id), None)


def load_catalog(folders: Iterable[Path], max_bytes: int = DEFAULT_MAX_BYTES) -> Catalog:
    """Load every deck in the folders (missing folders are skipped). A deck whose id another
    file already took is left out with one problem naming both files."""
    decks: dict[str, Deck] = {}
    problems: list[Problem] = []
    seen: set[Path] = set()
    for path in deck_files(f for f in folders if f.exists()):
        resolved = path.resolve()
        if resolved in seen:
            continue
        seen.add(resolved)
        try:
            deck = load_deck(path, max_bytes)
        except DeckError as exc:
            problems.extend(exc.problems)
            continue
        if deck.id in decks:
            problems.append(
                Problem(
                    str(path),
                    f"deck id {deck.id!r} is already used by {decks[deck.id].path}; this file was skipped",
                )
            )
            continue
        decks[deck.id] = deck
    return Catalog(tuple(decks.values()), tuple(problems))
