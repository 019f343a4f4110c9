"""The rules that read claims and cues: absolute words that predict a claim's verdict, and cues
that give away the term they point to by its name or by a word of its name."""

from __future__ import annotations

import math
import re
from collections.abc import Iterator

from vocabgame.deck.entry import Entry
from vocabgame.model import Claim, Confusable, Deck, Term
from vocabgame.reading.node import Node

from .base import (
    ABSOLUTE,
    ABSOLUTE_CLAIMS,
    ABSOLUTE_CLAIMS_MIN,
    ABSOLUTE_CLAIMS_SHARE,
    CUE_NAMES_TERM,
    CUE_SHARES_WORD,
    Finding,
    Where,
    content_words,
    quoted,
    rule,
    term_names,
    valid_cue_nodes,
)


def _fix(same: list[Claim], verdict: bool, total: int) -> str:
    """How to bring the share of one verdict under the threshold: add claims of the other
    verdict, or reword some of these without their absolute word."""
    other = "false" if verdict else "true"
    # (same) / (total + add) < share, and (same - cut) / (total - cut) < share
    add = math.floor(len(same) / ABSOLUTE_CLAIMS_SHARE - total) + 1
    cut = next(
        k
        for k in range(1, len(same) + 1)
        if total - k < ABSOLUTE_CLAIMS_MIN or len(same) - k < ABSOLUTE_CLAIMS_SHARE * (total - k)
    )
    ids = quoted([c.id for c in same[:cut]])
    return (
        f"add {add} {other} claim{'s' * (add > 1)} that use{'s' * (add == 1)} an absolute word, "
        f"or reword {cut} of these without one (e.g. {ids})"
    )


@rule(
    ABSOLUTE_CLAIMS,
    "nearly all of a deck's claims with absolute words have the same verdict",
    "deck",
    "claims",
)
def absolute_claims(deck: Deck, entries: list[Entry], where: Where) -> Iterator[Finding]:
    absolute = [
        e.item
        for e in entries
        if isinstance(e.item, Claim)
        and ABSOLUTE_CLAIMS not in e.ignore
        and ABSOLUTE.search(e.item.statement)
    ]
    if len(absolute) < ABSOLUTE_CLAIMS_MIN:
        return
    for verdict in (False, True):
        same = [c for c in absolute if c.answer is verdict]
        if len(same) >= ABSOLUTE_CLAIMS_SHARE * len(absolute):
            name = "true" if verdict else "false"
            yield Finding(
                where,
                f"{len(same)} of the {len(absolute)} claims with absolute words (always, never, "
                f"only, every, all ...) are {name}; players learn to answer {name} on sight: "
                + _fix(same, verdict, len(absolute)),
            )


def _cues(entry: Entry) -> Iterator[tuple[str, str, Node]]:
    """Each cue of a confusable group: its text, its answer and its text's node."""
    item = entry.item
    node = entry.fields.get("cues")
    nodes = node.value if node is not None and node.kind == "seq" else []
    for cue, cue_node in zip(item.cues, valid_cue_nodes(nodes), strict=False):
        yield cue.text, cue.answer, cue_node.value["text"]


def named_in(text: str, term: Term) -> str | None:
    """The name or alias of `term` that `text` contains as whole words, ignoring case."""
    for name in term_names(term):
        if re.search(rf"(?<!\w){re.escape(name.casefold())}(?!\w)", text.casefold()):
            return name
    return None


@rule(CUE_NAMES_TERM, "a cue contains the name or an alias of the term it points to")
def cue_names_term(deck: Deck, entry: Entry) -> Iterator[Finding]:
    if not isinstance(entry.item, Confusable):
        return
    for text, answer, node in _cues(entry):
        term = deck.term(answer)
        name = named_in(text, term) if term is not None else None
        if name is not None:
            yield Finding(node, f"the cue names its own answer, {name!r}")


def _name_words(deck: Deck, term_ids: list[str]) -> set[str]:
    words: set[str] = set()
    for term_id in term_ids:
        term = deck.term(term_id)
        if term is not None:
            words |= set(content_words(" ".join(term_names(term))))
    return words


@rule(
    CUE_SHARES_WORD,
    "a cue shares a word (by its stem) with its answer's name or aliases that the group's "
    "other terms do not have",
)
def cue_shares_word(deck: Deck, entry: Entry) -> Iterator[Finding]:
    item = entry.item
    if not isinstance(item, Confusable):
        return
    for text, answer, node in _cues(entry):
        term = deck.term(answer)
        if term is None or named_in(text, term) is not None:
            continue  # the whole name is cue-names-term's to report
        words = content_words(text)
        shared = set(words) & _name_words(deck, [answer])
        shared -= _name_words(deck, [t for t in item.terms if t != answer])
        if shared:
            said = quoted(sorted(words[s] for s in shared))
            yield Finding(
                node,
                f"the cue says {said}, a word of its answer {term.term!r} that no other term "
                "of the group has; a player can match the word instead of knowing: describe "
                "it in other words",
            )
