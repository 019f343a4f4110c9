"""What a round plan reads from the store, read so that its cost does not grow with the
history: the due cards through the index on due (only the fields their order needs), and the
faces still new through the per-item summary (items answered with faces left) and the deck's
order as the store keeps it (the first items not yet started: a few rows of an index). The
order is `modes.round_robin`'s, worked out from each face's place instead of listing every face."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from datetime import datetime

from vocabgame.kinds import KINDS, item_faces
from vocabgame.model import Deck, FaceKey
from vocabgame.stats import deck_shape
from vocabgame.store import Store


def new_faces(
    store: Store, decks: Sequence[Deck], new_left: Mapping[str, int]
) -> list[tuple[FaceKey, bool]]:
    """Faces never answered that a round may ask today, in `round_robin` order, each with
    whether it starts a new item: the unanswered faces of items already started, and every face
    of the first items not yet started, as many per deck as its limit still allows."""
    found: list[tuple[tuple[int, int], FaceKey, bool]] = []
    for number, deck in enumerate(decks):
        shape = deck_shape(deck)
        # Items answered with fewer faces scheduled than they have now; read from the store
        # only those with fewer than the deck's most, usually a handful.
        wanted = [
            (item_id, store.schedules.faces_of(deck.id, item_id), False)
            for item_id, scheduled in store.items.scheduled_below(deck.id, shape.most_faces)
            if scheduled < shape.faces.get(item_id, 0)
        ]
        left = new_left.get(deck.id, 0)
        # the first items in the order never answered
        unstarted = store.items.next_new(deck.id, shape.order, shape.order_digest, left)
        wanted += [(item_id, set[str](), True) for item_id in unstarted]
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


def weakest(
    store: Store,
    decks: Sequence[Deck],
    now: datetime,
    curve: tuple[float, float],
    due_by: datetime | None = None,
) -> Iterator[FaceKey]:
    """The scheduled faces of these decks (due by `due_by`, if given), least remembered at
    `now` first (then due soonest, then by key), ordered by the store a page at a time
    (`Store.weakest`): a round that takes its first twenty reads one page, not every card."""
    live = {deck.id: deck_shape(deck).keys for deck in decks}
    return (
        k
        for k in store.schedules.weakest(live, now, curve, due_by)
        if (k.item_id, k.face) in live[k.deck_id]
    )


def soonest(store: Store, decks: Sequence[Deck]) -> Iterator[FaceKey]:
    """The scheduled faces of these decks, due soonest first."""
    live = {deck.id: deck_shape(deck).keys for deck in decks}
    return (k for k in store.schedules.soonest(live) if (k.item_id, k.face) in live[k.deck_id])
