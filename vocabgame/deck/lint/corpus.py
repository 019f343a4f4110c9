"""Running the rules: every single-deck rule over a deck's items, and `near-duplicate`, the one
rule that compares items across every deck validated together (`Corpus`)."""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field

from vocabgame.deck.entry import Entry
from vocabgame.model import Confusable, Deck, Scenario
from vocabgame.problems import Problem
from vocabgame.reading.node import Node

from .base import (
    NEAR_DUPLICATE,
    NEAR_DUPLICATE_MIN_WORDS,
    NEAR_DUPLICATE_RATIO,
    RULES,
    WORD,
    Finding,
    Rule,
    Where,
    choice_nodes,
    shown,
    valid_cue_nodes,
)

RULES[NEAR_DUPLICATE] = Rule(
    NEAR_DUPLICATE,
    "a choice repeats another item's prompt nearly word for word (across the decks validated)",
    "decks",
)


def lint_deck(
    deck: Deck, entries: list[Entry], sections_at: Mapping[str, Where]
) -> list[tuple[Finding, str]]:
    """Every single-deck rule's findings, each with its rule name; silenced ones left out.
    `sections_at` gives where each section's key is, for the rules about a whole section."""
    found: list[tuple[Finding, str]] = []
    for r in RULES.values():
        if r.check is None:
            continue
        if r.scope == "item":
            for entry in entries:
                if r.name not in entry.ignore:
                    found += [(f, r.name) for f in r.check(deck, entry)]
        elif r.scope == "deck" and r.section is not None and r.section in sections_at:
            found += [(f, r.name) for f in r.check(deck, entries, sections_at[r.section])]
    return found


# -- near-duplicates across decks ---------------------------------------------------------------


def _normal(text: str) -> str:
    return " ".join(WORD.findall(text.casefold()))


@dataclass(slots=True)
class _Text:
    """A text a cross-deck rule compares: where it stands, the item it belongs to, the rules
    silenced there."""

    path: str
    owner: tuple[str, str]  # (path, item id)
    node: Where
    text: str
    ignore: frozenset[str] = frozenset()


def _prompts(entry: Entry) -> Iterator[tuple[Where, str]]:
    """The texts a player is shown as the question of this item."""
    item, fields = entry.item, entry.fields
    for key in ("prompt", "statement", "definition"):
        value = getattr(item, key, None)
        if isinstance(value, str) and key in fields:
            yield fields[key], value
    if isinstance(item, Confusable):
        node = fields.get("cues")
        nodes = list(valid_cue_nodes(node.value)) if node is not None and node.kind == "seq" else []
        for cue, cue_node in zip(item.cues, nodes, strict=False):
            yield cue_node.value["text"], cue.text


@dataclass
class Corpus:
    """The prompts and authored choices of every deck validated together, for the one rule
    that compares items across decks."""

    prompts: list[_Text] = field(default_factory=list)
    choices: list[_Text] = field(default_factory=list)

    def add(self, path: str, deck: Deck, entries: Iterable[Entry]) -> None:
        for entry in entries:
            owner = (path, entry.item.id)
            for node, text in _prompts(entry):
                self.prompts.append(_Text(path, owner, node, _normal(text)))
            if isinstance(entry.item, Scenario):
                nodes = choice_nodes(entry)
                for choice in entry.item.choices:
                    text = _normal(shown(deck, choice))
                    if len(text.split()) >= NEAR_DUPLICATE_MIN_WORDS:
                        where = nodes.get(choice, entry.node)
                        self.choices.append(_Text(path, owner, where, text, entry.ignore))

    def problems(self) -> list[Problem]:
        out: list[Problem] = []
        ratio = NEAR_DUPLICATE_RATIO
        for choice in self.choices:
            if NEAR_DUPLICATE in choice.ignore:
                continue
            matcher = difflib.SequenceMatcher(None, autojunk=False)
            matcher.set_seq2(choice.text)  # analysed once, compared with every prompt
            n = len(choice.text)
            for prompt in self.prompts:
                m = len(prompt.text)
                # the ratio is at most 2 * min / (n + m): texts of unlike length never match
                if prompt.owner == choice.owner or 2 * min(n, m) < ratio * (n + m):
                    continue
                matcher.set_seq1(prompt.text)
                if matcher.quick_ratio() >= ratio and matcher.ratio() >= ratio:
                    line, col = _pos(prompt.node)
                    where = "" if prompt.path == choice.path else f"{prompt.path}:"
                    out.append(
                        _problem(
                            choice.path,
                            choice.node,
                            f"this choice repeats the question of {prompt.owner[1]!r} "
                            f"({where}{line}:{col}) nearly word for word; a player who has seen "
                            "one recognises the other",
                            NEAR_DUPLICATE,
                        )
                    )
                    break
        return out


def _pos(where: Where) -> tuple[int, int]:
    return (where.line, where.col) if isinstance(where, Node) else where


def _problem(path: str, where: Where, message: str, name: str) -> Problem:
    line, col = _pos(where)
    return Problem(path, message, line, col, severity="warning", rule=name)


def problems(
    path: str, deck: Deck, entries: list[Entry], sections_at: Mapping[str, Where]
) -> list[Problem]:
    """The single-deck rules' findings as warnings of the file at `path`."""
    return [
        _problem(path, f.node, f.message, name) for f, name in lint_deck(deck, entries, sections_at)
    ]
