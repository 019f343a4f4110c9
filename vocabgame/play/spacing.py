"""Spacing inside a round: the order a plan's faces are asked in, and where a missed face comes
back. A mode's plan decides what a round asks; these functions, applied to any plan, decide
only the order, so that one question does not give the next away:

- `one_face_per_item`: two faces of one item (siblings) are never in one round, as Anki
  buries siblings;
- `interleave`: items that share a term (a term, the look-alike group it is in, a scenario that
  offers it) are kept `TERM_GAP` questions apart where the plan allows, so a cue about two
  look-alikes is not asked right before the scenario whose answer is one of them; and next to
  each other, questions come from different decks, topics and kinds of item where they can;
- `retry_slot`: a missed face, put back later in the round, is not put next to an item that
  shares its terms either.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from vocabgame.kinds import kind_of, terms_of
from vocabgame.model import Deck, FaceKey

TERM_GAP = 3  # items that share a term: at least this many other questions between them


@dataclass(frozen=True, slots=True)
class Traits:
    """What spacing compares between two faces."""

    item: tuple[str, str]  # deck id, item id
    deck: str
    section: str  # the kind of item: terms, scenarios, ...
    topics: frozenset[str]  # the item's tags, or its deck's when it has none
    terms: frozenset[tuple[str, str]]  # (deck id, term id) of the terms it is about

    def shares_terms(self, other: Traits) -> bool:
        return self.item != other.item and not self.terms.isdisjoint(other.terms)


def traits_of(decks: Sequence[Deck]) -> Callable[[FaceKey], Traits]:
    """A lookup of each face's traits in these decks (cached per item)."""
    by_id = {deck.id: deck for deck in decks}
    cache: dict[tuple[str, str], Traits] = {}

    def traits(key: FaceKey) -> Traits:
        item_key = (key.deck_id, key.item_id)
        found = cache.get(item_key)
        if found is None:
            deck = by_id[key.deck_id]
            item = deck.item(key.item_id)
            if item is None:
                raise KeyError(f"{key} is not in deck {deck.id!r}")
            found = cache[item_key] = Traits(
                item=item_key,
                deck=deck.id,
                section=kind_of(item).section,
                topics=frozenset(item.tags or deck.tags),
                terms=frozenset((deck.id, term) for term in terms_of(item)),
            )
        return found

    return traits


def one_face_per_item(keys: Iterable[FaceKey]) -> list[FaceKey]:
    """The keys in order, without a second face of an item already in them."""
    seen: set[tuple[str, str]] = set()
    kept: list[FaceKey] = []
    for key in keys:
        if (key.deck_id, key.item_id) not in seen:
            seen.add((key.deck_id, key.item_id))
            kept.append(key)
    return kept


def interleave(keys: Sequence[FaceKey], traits: Callable[[FaceKey], Traits]) -> list[FaceKey]:
    """The same keys, reordered as little as it takes: each next question shares no term with
    the last `TERM_GAP` questions, comes from another deck than the last one, shares no topic
    with it and is another kind of item, in that order of importance. Among equals it is from
    the deck with the most questions left (so no deck is left to bunch up at the end), then
    the earliest in the plan. A plan with nothing to separate keeps its order."""
    remaining = list(keys)
    left = Counter(traits(key).deck for key in remaining)
    # How many other faces of the plan each one shares a term with: the most entangled go
    # first, while there is still room to keep the others away from them.
    links = {
        key: sum(traits(key).shares_terms(traits(other)) for other in remaining)
        for key in remaining
    }
    placed: list[FaceKey] = []
    while remaining:
        recent = [traits(k) for k in placed[-TERM_GAP:]]
        ranks = [_rank(traits(key), recent, left, links[key], i) for i, key in enumerate(remaining)]
        key = remaining.pop(ranks.index(min(ranks)))
        left[traits(key).deck] -= 1
        for other in remaining:
            if traits(key).shares_terms(traits(other)):
                links[other] -= 1
        placed.append(key)
    return placed


def _rank(
    t: Traits, recent: list[Traits], left: Counter[str], links: int, index: int
) -> tuple[bool, bool, bool, bool, int, int, int]:
    """How well a face fits next after `recent` (lower is better)."""
    last = recent[-1] if recent else None
    return (
        any(t.shares_terms(r) for r in recent),
        last is not None and last.deck == t.deck,
        last is not None and not last.topics.isdisjoint(t.topics),
        last is not None and last.section == t.section,
        -left[t.deck],
        -links,
        index,
    )


def space_round(keys: Sequence[FaceKey], decks: Sequence[Deck]) -> list[FaceKey]:
    """A plan put in the order a round asks it: one face per item, interleaved."""
    return interleave(one_face_per_item(keys), traits_of(decks))


def retry_slot(
    queue: Sequence[FaceKey], at: int, key: FaceKey, traits: Callable[[FaceKey], Traits]
) -> int:
    """Where a missed face goes back: `at`, or later while the questions on either side of
    that place share a term with it (at the end of the queue at the latest)."""
    mine = traits(key)

    def clashes(index: int) -> bool:
        return 0 <= index < len(queue) and mine.shares_terms(traits(queue[index]))

    while at < len(queue) and (clashes(at - 1) or clashes(at)):
        at += 1
    return at
