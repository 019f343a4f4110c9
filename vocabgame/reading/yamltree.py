"""Read YAML text into a tree that remembers where every value stood.

Safe by construction: only PyYAML's safe resolver and scalar constructors are used, no tag can
build an object, nesting depth and alias expansion are bounded while parsing (so a "billion
laughs" file fails fast in bounded memory), and duplicate keys are reported instead of being
silently overwritten.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import yaml

from vocabgame.reading.node import Node

try:  # the C parser is several times faster; fall back quietly where libyaml is missing
    from yaml import CSafeLoader as _Loader
except ImportError:  # pragma: no cover - depends on how PyYAML was built
    from yaml import SafeLoader as _Loader  # type: ignore[assignment]

MAX_DEPTH = 64
MAX_NODES = 1_000_000  # a 50,000-item deck has about 400,000; an alias bomb hits it at once

# C0 and C1 controls except tab and newline, and DEL: a double-quoted "\e[31m" would
# otherwise reach the terminal as an escape sequence.
_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")
# Bidirectional embeddings, overrides and isolates: they make text display in another order
# than it is stored (the "Trojan Source" trick), so a definition could read as its opposite.
_BIDI = re.compile("[\u202a-\u202e\u2066-\u2069]")
_UNSAFE = re.compile(f"{_CONTROL.pattern[:-1]}{_BIDI.pattern[1:]}")  # either, in one pass


class YamlProblem(Exception):
    def __init__(self, message: str, line: int | None = None, col: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.line = line
        self.col = col


# What a puzzled author most likely did, for the parser's most common complaints.
_SYNTAX_HINTS = (
    (
        "mapping values are not allowed",
        "; a ': ' inside unquoted text starts a new key, or this line is indented deeper than "
        "the key above it: quote the text, or line the key up with its neighbours",
    ),
    ("tab", "; indent with spaces, never tabs"),
    (
        "expected '-' indicator",
        "; every entry of a list starts with '- ' at the same indentation",
    ),
    (
        "did not find expected ',' or ']'",
        "; close the '[' or quote text that holds a comma, a colon or a bracket",
    ),
    (
        "did not find expected ',' or '}'",
        "; close the '{' or quote text that holds a comma, a colon or a bracket",
    ),
    (
        "did not find expected key",
        "; the keys of one mapping must line up at the same indentation",
    ),
)


def _char_at(text: str, mark: Any) -> str:
    if mark is None:
        return ""
    lines = text.splitlines()
    if mark.line >= len(lines) or mark.column >= len(lines[mark.line]):
        return ""
    return lines[mark.line][mark.column]


def _pos(mark: Any) -> tuple[int, int]:
    return (mark.line + 1, mark.column + 1) if mark is not None else (1, 1)


_YAML = "tag:yaml.org,2002:"
# Only plain values: no binary, set, omap, pairs, merge, python/* or any other tag.
_SCALAR_TAGS = frozenset(_YAML + t for t in ("str", "int", "float", "bool", "null", "timestamp"))
_COLLECTION_TAGS = {"map": (None, "!", _YAML + "map"), "seq": (None, "!", _YAML + "seq")}

_constructor = yaml.constructor.SafeConstructor()
_resolver = yaml.resolver.Resolver()
# The first characters of plain values YAML may type as something other than text (numbers,
# booleans, null, dates, '=', '<<'): any other plain value is text without asking the resolver.
_TYPED_STARTS = frozenset(_resolver.yaml_implicit_resolvers)
# The key positions of every scalar: none, and never added to (only a mapping's are), so all
# scalars share one empty dict instead of each making its own.
_NO_KEYS: dict[str, tuple[int, int]] = {}


_STR = _YAML + "str"
# The parser's events, compared by exact type in the loop below (they have no subclasses).
_ScalarEvent = yaml.ScalarEvent
_MappingStart, _MappingEnd = yaml.MappingStartEvent, yaml.MappingEndEvent
_SequenceStart, _SequenceEnd = yaml.SequenceStartEvent, yaml.SequenceEndEvent
_Alias, _DocumentStart, _StreamEnd = yaml.AliasEvent, yaml.DocumentStartEvent, yaml.StreamEndEvent


def _refuse_characters(value: str, line: int, col: int) -> None:
    control = _CONTROL.search(value)
    if control:
        raise YamlProblem(
            f"text contains the control character U+{ord(control.group()):04X}; deck text may "
            "not hold terminal escapes or other control characters",
            line,
            col,
        )
    bidi = _BIDI.search(value)
    if bidi:
        raise YamlProblem(
            f"text contains the bidirectional control character U+{ord(bidi.group()):04X}, "
            "which makes text display in another order than it is written; deck text may not "
            "hold it",
            line,
            col,
        )


def _scalar(event: yaml.ScalarEvent) -> Node:
    mark = event.start_mark
    line, col = (mark.line + 1, mark.column + 1) if mark is not None else (1, 1)
    tag = event.tag
    text = event.value
    if tag is None and (
        not event.implicit[0]  # quoted or block text: text, whatever it says
        or (text and text[0] not in _TYPED_STARTS)  # plain text the resolver would not type
    ):
        tag = _STR
    elif tag is None or tag == "!":
        tag = _resolver.resolve(yaml.ScalarNode, event.value, event.implicit)
    if tag == _YAML + "value":  # YAML 1.1 resolves a lone '=' to this; in a deck it is text
        tag = _YAML + "str"
    if tag == _YAML + "merge":
        raise YamlProblem("merge keys (<<) are not supported; write the keys out", line, col)
    if tag not in _SCALAR_TAGS:
        raise YamlProblem(f"unsupported YAML tag {tag!r}; decks use plain values only", line, col)
    if tag == _STR:  # most deck values: the text is the value
        value: Any = event.value
    else:
        node = yaml.ScalarNode(tag, event.value, event.start_mark, event.end_mark, event.style)  # type: ignore[arg-type]
        try:
            value = _constructor.construct_object(node)
        except yaml.constructor.ConstructorError as exc:
            raise YamlProblem(f"cannot read value: {exc.problem}", line, col) from None
        except (ValueError, OverflowError):
            raise YamlProblem(f"cannot read value {event.value!r}", line, col) from None
        finally:
            # The constructor remembers every node it built; this one is never asked again.
            _constructor.constructed_objects.pop(node, None)
        if isinstance(value, (bytes, bytearray)) or tag.endswith((":set", ":omap", ":pairs")):
            raise YamlProblem(
                f"unsupported YAML tag {tag!r}; decks use plain values only", line, col
            )
    if _UNSAFE.search(text):
        _refuse_characters(text, line, col)
    return Node(
        "scalar",
        value,
        line,
        col,
        text,
        event.style in ("'", '"', "|", ">"),
        _NO_KEYS,
    )


def _open(event: Any, mapping: bool, depth: int) -> list[Any]:
    """A new collection's entry on the parse stack: [node, pending key, key position, anchor];
    too deep or a tag decks do not use is a problem."""
    line, col = _pos(event.start_mark)
    if depth >= MAX_DEPTH:
        raise YamlProblem(f"nesting deeper than {MAX_DEPTH} levels", line, col)
    kind = "map" if mapping else "seq"
    if event.tag not in _COLLECTION_TAGS[kind]:
        raise YamlProblem(
            f"unsupported YAML tag {event.tag!r}; decks use plain values only", line, col
        )
    node = Node(kind, {} if mapping else [], line, col)
    return [node, None, (line, col), event.anchor]


def _syntax_problem(exc: yaml.MarkedYAMLError, text: str) -> YamlProblem:
    """PyYAML's syntax error as one sentence at its line and column, with a hint where one
    helps."""
    mark = exc.problem_mark or exc.context_mark
    line, col = _pos(mark)
    message = exc.problem or "YAML syntax error"
    if exc.context:
        started = exc.context_mark
        if (
            started is not None
            and exc.problem_mark is not None
            and started.line != exc.problem_mark.line
        ):
            message = f"{message} ({exc.context} that began at line {started.line + 1})"
        else:
            message = f"{message} ({exc.context})"
    hint = next((h for words, h in _SYNTAX_HINTS if words in message), "")
    if not hint and _char_at(text, exc.problem_mark) == "\t":
        hint = "; indent with spaces, never tabs"
    return YamlProblem(f"YAML syntax error: {message}{hint}", line, col)


class _Tree:
    """The tree being built from the parser's events: the open collections, the anchors, the
    soft problems, and how many values the document holds once its aliases are expanded."""

    def __init__(self) -> None:
        self.problems: list[YamlProblem] = []
        self.anchors: dict[str, Node] = {}
        # Each open collection: [node, pending key (str | None), key position, anchor]
        self.stack: list[list[Any]] = []
        self.root: Node | None = None
        self.total = 0

    def count(self, added: int, line: int, col: int) -> None:
        # Each value is counted once where it is written, and an alias by the size of what it
        # repeats, so `total` is the size of the document once aliases are expanded.
        self.total += added
        if self.total > MAX_NODES:
            raise YamlProblem(
                f"the document expands to more than {MAX_NODES:,} values "
                "(aliases that refer to aliases?)",
                line,
                col,
            )

    def alias(self, event: Any) -> None:
        line, col = _pos(event.start_mark)
        target = self.anchors.get(event.anchor or "")
        if target is None:
            raise YamlProblem(f"unknown alias *{event.anchor}", line, col)
        self.count(target.size, line, col)
        self.attach(target, None)

    def attach(self, node: Node, anchor: str | None) -> None:
        if anchor:
            self.anchors[anchor] = node
        if not self.stack:
            self.root = node
            return
        parent = self.stack[-1]
        pnode: Node = parent[0]
        if pnode.kind == "seq":
            pnode.value.append(node)
            pnode.size += node.size
        elif parent[1] is None:
            if node.kind != "scalar":
                raise YamlProblem("a mapping key must be plain text", node.line, node.col)
            parent[1] = node.raw if not isinstance(node.value, str) else node.value
            parent[2] = (node.line, node.col)
        else:
            self._add_value(parent, node)

    def _add_value(self, parent: list[Any], node: Node) -> None:
        pnode: Node = parent[0]
        key = parent[1]
        if key in pnode.value:
            first = pnode.key_pos[key]
            self.problems.append(
                YamlProblem(
                    f"duplicate key {key!r} (first given at line {first[0]}); "
                    "YAML would silently keep only one",
                    parent[2][0],
                    parent[2][1],
                )
            )
        else:
            pnode.value[key] = node
            pnode.key_pos[key] = parent[2]
            pnode.size += node.size
        parent[1] = None


def _one_document(event: Any, documents: int) -> None:
    if documents > 1:
        line, col = _pos(event.start_mark)
        raise YamlProblem("a deck is a single YAML document; remove the extra '---'", line, col)


def parse(text: str) -> tuple[Node | None, list[YamlProblem]]:
    """Parse one YAML document. Returns the root (None for an empty document) and soft problems
    (duplicate keys); raises YamlProblem for anything that stops parsing."""
    tree = _Tree()
    stack = tree.stack
    documents = 0
    loader = _Loader(text)
    # Events are told apart by exact type below, which mypy does not narrow on.
    next_event: Callable[[], Any] = loader.get_event
    try:
        while (event := next_event()) is not None:
            kind_of = type(event)
            if kind_of is _ScalarEvent:  # most events: checked first
                node = _scalar(event)
                tree.total += 1
                if tree.total > MAX_NODES:
                    tree.count(0, node.line, node.col)
                tree.attach(node, event.anchor)
            elif kind_of is _MappingStart or kind_of is _SequenceStart:
                opened = _open(event, kind_of is _MappingStart, len(stack))
                tree.count(1, opened[0].line, opened[0].col)
                stack.append(opened)
            elif kind_of is _MappingEnd or kind_of is _SequenceEnd:
                node, _, _, anchor = stack.pop()
                tree.attach(node, anchor)
            elif kind_of is _Alias:
                tree.alias(event)
            elif kind_of is _DocumentStart:
                documents += 1
                _one_document(event, documents)
            elif kind_of is _StreamEnd:
                break
    except yaml.MarkedYAMLError as exc:
        raise _syntax_problem(exc, text) from None
    except yaml.YAMLError as exc:
        raise YamlProblem(f"YAML syntax error: {exc}") from None
    except RecursionError:
        raise YamlProblem(f"nesting deeper than {MAX_DEPTH} levels") from None
    finally:
        loader.dispose()
    return tree.root, tree.problems


__all__ = ["Node", "YamlProblem", "parse"]
