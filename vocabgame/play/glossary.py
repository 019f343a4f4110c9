"""A deck read as a glossary: each term with its definition, caveat, example and sources, and
each group of terms often confused with its distinction, for the browse screen."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from vocabgame.kinds import display, item_faces
from vocabgame.model import Confusable, Deck, FaceKey, Item, Source, Term


@dataclass(frozen=True, slots=True)
class Entry:
    """One term or group of a deck as the browse screen lists it, with the questions it asks."""

    item_id: str
    kind: str  # "term" or "group"
    title: str
    definition: str = ""  # a term's definition; a group's distinction
    caveat: str | None = None
    example: str | None = None
    aliases: tuple[str, ...] = ()
    terms: tuple[str, ...] = ()  # a group's terms, by name
    sources: tuple[Source, ...] = ()
    faces: tuple[FaceKey, ...] = ()

    @property
    def words(self) -> str:
        """Everything a search looks in, lower-cased."""
        parts = (self.title, self.definition, self.caveat or "", self.example or "")
        return " ".join((*parts, *self.aliases, *self.terms)).lower()

    def matches(self, query: str) -> bool:
        """True when every word of `query` is somewhere in the entry (case does not count)."""
        words = self.words
        return all(word in words for word in query.lower().split())


def _faces(deck: Deck, item: Item) -> tuple[FaceKey, ...]:
    return tuple(FaceKey(deck.id, item.id, face) for face in item_faces(item))


def _sources(deck: Deck, keys: Sequence[str]) -> tuple[Source, ...]:
    return tuple(deck.sources[k] for k in keys if k in deck.sources)


def glossary(deck: Deck) -> tuple[Entry, ...]:
    """The deck's terms in deck order, then its groups of confusable terms."""
    entries: list[Entry] = []
    for term in deck.terms:
        entries.append(_term_entry(deck, term))
    for group in deck.confusables:
        entries.append(_group_entry(deck, group))
    return tuple(entries)


def _term_entry(deck: Deck, term: Term) -> Entry:
    return Entry(
        term.id,
        "term",
        term.term,
        definition=term.definition,
        caveat=term.caveat,
        example=term.example,
        aliases=term.aliases,
        sources=_sources(deck, term.sources),
        faces=_faces(deck, term),
    )


def _group_entry(deck: Deck, group: Confusable) -> Entry:
    names = tuple(t.term if (t := deck.term(i)) is not None else i for i in group.terms)
    return Entry(
        group.id,
        "group",
        display(group, deck),
        definition=group.distinction,
        terms=names,
        sources=_sources(deck, group.sources),
        faces=_faces(deck, group),
    )
