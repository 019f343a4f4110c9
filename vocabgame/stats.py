"""Progress figures, as pure queries over the store and the decks: one source for the home
screen, `vocabgame stats` and anything else that shows progress. Nothing here prints or writes.

`day_of` turns a moment into the player's calendar day (their time zone decides what "today"
is); `now` comes from the caller's clock.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from datetime import date, datetime, timedelta

from fsrs import State

try:  # hashlib's own blake2b, without loading OpenSSL (4 MiB a process) for a digest
    from _blake2 import blake2b
except ImportError:  # a Python built without it
    from hashlib import blake2b

from vocabgame.deck.topics import topic_ids
from vocabgame.kinds import KINDS, item_faces
from vocabgame.model import Deck, FaceKey
from vocabgame.store import Store

DayOf = Callable[[datetime], date]


@dataclass(frozen=True, slots=True)
class DeckStats:
    """One deck's progress. Every count but `new_items_left` is of questions (faces): a round
    asks faces, and a term is asked three ways."""

    id: str
    title: str
    seen: int  # questions answered at least once
    total: int  # questions the deck asks
    due: int  # questions due for review now
    best: int | None  # best score of a finished round on this deck alone
    new: int = 0  # questions never answered that rounds may ask today (the daily limit counted)
    new_items_left: int = 0  # items that may still start today under the deck's daily limit
    unstarted: int = 0  # items never answered at all
    learned: int = 0  # questions stable for LEARNED_DAYS or more: likely known weeks from now


@dataclass(frozen=True, slots=True)
class Stats:
    """The figures `vocabgame stats` prints: answers, rounds, the day streak and each deck's
    progress."""

    reviews: int
    rounds: int  # finished rounds
    streak_days: int
    decks: tuple[DeckStats, ...]
    overrides: int = 0  # answers marked wrong that the player counted as right ("I was right")


def deck_shape(deck: Deck) -> _DeckShape:
    """What figures and planning need to know of a deck's items, computed once per deck."""
    return _shape(deck)


def deck_sizes(decks: Iterable[Deck]) -> list[tuple[int, int]]:
    """(items, faces) of each deck, from its shape (worked out once per loaded deck)."""
    return [(len(shape.faces), sum(shape.faces.values())) for shape in map(_shape, decks)]


def new_item_order(deck: Deck) -> list[str]:
    """The deck's item ids in the order a round starts new ones: faces taken in turn from each
    kind of item (as `play.modes.round_robin` does), each item at its first face."""
    return _shape(deck).order


@dataclass(frozen=True, slots=True)
class _DeckShape:
    """What the figures need to know of a deck's items, worked out once per loaded deck."""

    order: list[str]  # item ids, in the order new items start
    faces: dict[str, int]  # item id -> how many faces it has
    keys: frozenset[tuple[str, str]]  # every face, as (item id, face)
    live: str  # JSON object: item id -> faces, in `order` (what the store's queries take)
    # item id -> (kind's index in KINDS, index of its first face in that kind's list of
    # faces): where `play.modes.round_robin` puts each face, without listing them all
    position: dict[str, tuple[int, int]]
    most_faces: int  # the most faces any item has
    order_digest: str  # names `order` (the store keeps the order under it)


_SHAPES: dict[int, tuple[Deck, _DeckShape]] = {}


def _shape(deck: Deck) -> _DeckShape:
    """What the figures need to know of a deck's items, worked out once per loaded deck."""
    cached = _SHAPES.get(id(deck))
    if cached is not None and cached[0] is deck:
        return cached[1]
    position: dict[str, tuple[int, int]] = {}
    counts: dict[str, int] = {}
    keys: list[tuple[str, str]] = []
    for number, section in enumerate(KINDS):
        offset = 0
        for item in deck.section(section):
            faces_of = item_faces(item)
            position[item.id] = (number, offset)
            counts[item.id] = len(faces_of)
            offset += len(faces_of)
            keys += [(item.id, face) for face in faces_of]
    # New items start in turn across the kinds, a face of each kind at a time, so an item
    # comes in at the turn of its first face: by its place in its kind, then by kind.
    order = sorted((i for i in position if counts[i]), key=lambda i: position[i][::-1])
    shape = _DeckShape(
        order,
        counts,
        frozenset(keys),
        json.dumps({item_id: counts[item_id] for item_id in order}),
        position,
        max(counts.values(), default=0),
        blake2b(json.dumps(order).encode(), digest_size=16).hexdigest(),
    )
    if len(_SHAPES) > 256:  # decks reloaded many times in one process: forget the old ones
        _SHAPES.clear()
    _SHAPES[id(deck)] = (deck, shape)
    return shape


def deck_progress(
    store: Store,
    decks: Iterable[Deck],
    now: datetime,
    new_left: Mapping[str, int] | None = None,
) -> tuple[DeckStats, ...]:
    """Per deck, over the questions (faces) the deck has now: seen, total, due now, new
    today and the best score. `new_left` is how many new items each deck may still start
    today (none given: no limit). A few small queries a deck, whatever the number of
    answers: the per-item summary (its learned faces among it), the faces due now (an index
    range), the best scores."""
    decks = list(decks)
    due = store.schedules.due_counts(now, (deck.id for deck in decks))
    best = store.scoreboard.best_scores()
    rows = []
    for deck in decks:
        shape = _shape(deck)
        started, seen, started_faces, learned = store.items.deck_summary(deck.id, shape.live)
        unstarted = len(shape.order) - started
        left = unstarted if new_left is None else min(new_left.get(deck.id, 0), unstarted)
        opening = store.items.first_unstarted(deck.id, shape.live, left)
        rows.append(
            DeckStats(
                id=deck.id,
                title=deck.title,
                seen=seen,
                total=len(shape.keys),
                due=sum(1 for k in due.get(deck.id, ()) if k in shape.keys),
                # Unanswered faces of items already started, and every face of the new items
                # today's limit still lets start.
                new=started_faces - seen + sum(n for _, n in opening),
                best=best.get(deck.id),
                new_items_left=left,
                unstarted=unstarted,
                learned=learned,
            )
        )
    return tuple(rows)


def seen_and_learned(store: Store, decks: Iterable[Deck]) -> tuple[int, int]:
    """The faces of these decks answered at least once and those learned, as `deck_progress`
    counts them (the per-item summary)."""
    seen = learned = 0
    for deck in decks:
        _, deck_seen, _, deck_learned = store.items.deck_summary(deck.id, _shape(deck).live)
        seen, learned = seen + deck_seen, learned + deck_learned
    return seen, learned


def streak_days(store: Store, today: date, day_of: DayOf) -> int:
    """Days in a row, up to today (or yesterday, if today has no round yet), with at least
    one finished round."""
    days = {day_of(at) for at in store.scoreboard.finished_times()}
    day = today if today in days else today - timedelta(days=1)
    streak = 0
    while day in days:
        streak += 1
        day -= timedelta(days=1)
    return streak


def collect(
    store: Store,
    decks: Iterable[Deck],
    now: datetime,
    day_of: DayOf,
    new_left: Mapping[str, int] | None = None,
) -> Stats:
    """Totals over the whole store, and per deck over the questions the deck has now."""
    return Stats(
        reviews=store.answers.count(),
        rounds=store.scoreboard.count(finished_only=True),
        streak_days=streak_days(store, day_of(now), day_of),
        decks=deck_progress(store, decks, now, new_left),
        overrides=store.answers.override_count(),
    )


@dataclass(frozen=True, slots=True)
class TopicStats:
    """One topic's coverage over the decks: its items, and of their questions (faces) how
    many there are, how many were answered, how many are learned (FSRS's review state) and
    how many are due now."""

    items: int
    total: int
    seen: int
    learned: int
    due: int


def topic_coverage(store: Store, decks: Iterable[Deck], now: datetime) -> dict[str, TopicStats]:
    """Per topic: every topic of the topic map in its order (an uncovered one with zeros),
    then any other topic a deck names, by id. Items without a topic are not counted. One
    read of the decks' schedules."""
    decks = list(decks)
    cards = store.schedules.cards([d.id for d in decks])
    tally: dict[str, list[int]] = {topic: [0, 0, 0, 0, 0] for topic in topic_ids()}
    for deck in decks:
        for item in deck.items():
            topic = deck.topics.get(item.id)
            if topic is None:
                continue
            row = tally.setdefault(topic, [0, 0, 0, 0, 0])
            row[0] += 1
            for face in item_faces(item):
                card = cards.get(FaceKey(deck.id, item.id, face))
                row[1] += 1
                if card is not None:
                    row[2] += 1
                    row[3] += card.state == State.Review
                    row[4] += card.due <= now
    known = dict.fromkeys(topic_ids())
    order = [*known, *sorted(t for t in tally if t not in known)]
    return {t: TopicStats(*tally[t]) for t in order}
