"""What a round plan reads from the store, read so that its cost does not grow with the
history: the due cards through the index on due, and the faces still new through the per-item
summary (items answered with faces left, and the first items not yet started). The order is
`modes.round_robin`'s, worked out from each face's place instead of listing every face."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from datetime import datetime

from fsrs import Card

from vocabgame.kinds import KINDS, item_faces
from vocabgame.model import Deck, FaceKey
from vocabgame.stats import deck_shape
from vocabgame.store import Store


def due_cards(store: Store, decks: Sequence[Deck], now: datetime) -> dict[FaceKey, Card]:
    """The faces of these decks due at `now`, with their schedules."""
    live = {deck.id: deck_shape(deck).keys for deck in decks}
    cards = store.due_cards(now, live)
    return {k: c for k, c in cards.items() if (k.item_id, k.face) in live[k.deck_id]}


def new_faces(
    store: Store, decks: Sequence[Deck], new_left: Mapping[str, int]
) -> list[tuple[FaceKey, bool]]:
    """Faces never answered that a round may ask today, in `round_robin` order, each with
    whether it starts a new item: the unanswered faces of items already started, and every face
    of the first items not yet started, as many per deck as its limit still allows."""
    found: list[tuple[tuple[int, int], FaceKey, bool]] = []
    for number, deck in enumerate(decks):
        shape = deck_shape(deck)
        wanted = [
            (item_id, store.scheduled_faces(deck.id, item_id), False)
            for item_id in store.partial_items(deck.id, shape.live)
        ] + [
            (item_id, set[str](), True)
            for item_id, _ in store.first_unstarted(deck.id, shape.live, new_left.get(deck.id, 0))
        ]
        for item_id, answered, starts in wanted:
            item = deck.item(item_id)
            if item is None:
                continue
            kind, first = shape.position[item_id]
            for index, face in enumerate(item_faces(item)):
                if face not in answered:
                    place = (first + index, number * len(KINDS) + kind)
                    found.append((place, FaceKey(deck.id, item_id, face), starts))
    found.sort(key=lambda f: f[0])
    return [(key, starts) for _, key, starts in found]


def soonest(store: Store, decks: Sequence[Deck]) -> Iterator[FaceKey]:
    """The scheduled faces of these decks, due soonest first."""
    live = {deck.id: deck_shape(deck).keys for deck in decks}
    return (k for k in store.soonest(live) if (k.item_id, k.face) in live[k.deck_id])
