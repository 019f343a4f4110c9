"""A deck read as a glossary: each term with its definition, caveat, example and sources, and
each group of terms often confused with its distinction, for the browse screen."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import overload

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


class Glossary(Sequence[Entry]):
    """A deck's entries, each made the first time it is read: a list shows a screenful of a
    deck of 33,000 terms without making the other entries (a search reads them all, once)."""

    def __init__(self, deck: Deck) -> None:
        self._deck = deck
        self._items: tuple[Term | Confusable, ...] = (*deck.terms, *deck.confusables)
        self._made: list[Entry | None] = [None] * len(self._items)
        self._words: list[str] | None = None

    def __len__(self) -> int:
        return len(self._items)

    @overload
    def __getitem__(self, index: int) -> Entry: ...

    @overload
    def __getitem__(self, index: slice) -> tuple[Entry, ...]: ...

    def __getitem__(self, index: int | slice) -> Entry | tuple[Entry, ...]:
        if isinstance(index, slice):
            return tuple(self._entry(i) for i in range(*index.indices(len(self._items))))
        if index < 0:
            index += len(self._items)
        if not 0 <= index < len(self._items):
            raise IndexError(index)
        return self._entry(index)

    def _entry(self, index: int) -> Entry:
        entry = self._made[index]
        if entry is None:
            item = self._items[index]
            if isinstance(item, Term):
                entry = _term_entry(self._deck, item)
            else:
                entry = _group_entry(self._deck, item)
            self._made[index] = entry
        return entry

    def matching(self, query: str) -> Sequence[Entry]:
        """The entries in which every word of `query` appears (`Entry.matches`), in order;
        this whole glossary for a query of no words."""
        words = query.lower().split()
        if not words:
            return self
        if self._words is None:  # kept: each key typed in a search reads every entry again
            self._words = [self._entry(i).words for i in range(len(self._items))]
        return tuple(
            self._entry(i)
            for i, text in enumerate(self._words)
            if all(word in text for word in words)
        )


def glossary(deck: Deck) -> Glossary:
    """The deck's terms in deck order, then its groups of confusable terms."""
    return Glossary(deck)


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
