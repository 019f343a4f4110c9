"""Progress figures, as pure queries over the store and the decks: one source for the home
screen, `vocabgame stats` and anything else that shows progress. Nothing here prints or writes.

`day_of` turns a moment into the player's calendar day (their time zone decides what "today"
is); `now` comes from the caller's clock.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import date, datetime, timedelta

from vocabgame.kinds import faces
from vocabgame.model import Deck
from vocabgame.store import Store

DayOf = Callable[[datetime], date]


@dataclass(frozen=True, slots=True)
class DeckStats:
    id: str
    title: str
    seen: int  # faces answered at least once
    total: int  # faces in the deck
    due: int  # faces due now
    best: int | None  # best score of a finished round on this deck alone


@dataclass(frozen=True, slots=True)
class Stats:
    reviews: int
    rounds: int  # finished rounds
    streak_days: int
    decks: tuple[DeckStats, ...]
    overrides: int = 0  # answers marked wrong that the player counted as right ("I was right")


def deck_progress(store: Store, decks: Iterable[Deck], now: datetime) -> tuple[DeckStats, ...]:
    """Per deck, over the faces the deck has now: seen, total, due now and the best score.
    Three queries in all, whatever the number of decks."""
    seen_keys = store.card_keys()
    due_keys = store.due_keys(now)
    best = store.best_scores()
    rows = []
    for deck in decks:
        keys = faces(deck)
        rows.append(
            DeckStats(
                id=deck.id,
                title=deck.title,
                seen=sum(1 for k in keys if k in seen_keys),
                total=len(keys),
                due=sum(1 for k in keys if k in due_keys),
                best=best.get(deck.id),
            )
        )
    return tuple(rows)


def streak_days(store: Store, today: date, day_of: DayOf) -> int:
    """Days in a row, up to today (or yesterday, if today has no round yet), with at least
    one finished round."""
    days = {day_of(at) for at in store.finished_round_times()}
    day = today if today in days else today - timedelta(days=1)
    streak = 0
    while day in days:
        streak += 1
        day -= timedelta(days=1)
    return streak


def collect(store: Store, decks: Iterable[Deck], now: datetime, day_of: DayOf) -> Stats:
    """Totals over the whole store, and per deck over the faces the deck has now."""
    return Stats(
        reviews=store.review_count(),
        rounds=store.round_count(finished_only=True),
        streak_days=streak_days(store, day_of(now), day_of),
        decks=deck_progress(store, decks, now),
        overrides=store.override_count(),
    )
