"""Scheduling on top of the `fsrs` package (FSRS-6). Nothing here is a hand-written algorithm:
this module only adapts fsrs to vocabgame's faces, clock and randomness."""

from __future__ import annotations

import random
import zlib
from collections.abc import Callable
from datetime import UTC, datetime

from fsrs import Card, Rating, Scheduler

from vocabgame.settings import SPEC

DEFAULT_RETENTION = float(SPEC["desired_retention"].default)
# A face is "learned" once its stability (the days until recall falls to 90%) reaches three
# weeks: Anki's threshold between a young and a mature card (an interval of 21 days).
LEARNED_DAYS = 21

Clock = Callable[[], datetime]


def utc_now() -> datetime:
    return datetime.now(UTC)


def as_utc(moment: datetime) -> datetime:
    """fsrs accepts only datetimes whose tzinfo is exactly timezone.utc."""
    if moment.tzinfo is None:
        raise ValueError("naive datetime: the clock must return timezone-aware times")
    return moment.astimezone(UTC)


class Srs:
    """Reviews cards with fsrs. Interval fuzzing is kept (it spreads reviews out) but made
    repeatable: fsrs draws its fuzz from the global `random`, so each review seeds it from the
    card and the review time, then puts the global state back."""

    def __init__(self, desired_retention: float = DEFAULT_RETENTION, fuzz: bool = True) -> None:
        SPEC["desired_retention"].check(desired_retention)
        self.fuzz = fuzz
        self.scheduler = Scheduler(desired_retention=desired_retention, enable_fuzzing=fuzz)

    @staticmethod
    def new_card(card_id: int, now: datetime) -> Card:
        """A card never reviewed, due now; every card starts here, so its times are UTC."""
        return Card(card_id=card_id, due=as_utc(now))

    def review(
        self, card: Card, rating: int, now: datetime, duration_ms: int | None = None
    ) -> Card:
        """The card after a review with an FSRS rating (1 Again, 2 Hard, 3 Good, 4 Easy)."""
        now = as_utc(now)
        saved = random.getstate()
        random.seed(zlib.crc32(f"{card.card_id}:{now.isoformat()}".encode()))
        try:
            updated, _ = self.scheduler.review_card(card, Rating(rating), now, duration_ms)
        finally:
            random.setstate(saved)
        return updated

    def retrievability(self, card: Card, now: datetime) -> float:
        return self.scheduler.get_card_retrievability(card, as_utc(now))

    def forgetting_curve(self) -> tuple[float, float]:
        """The factor and decay of fsrs's forgetting curve: a card's retrievability is
        `(1 + factor * days / stability) ** decay` (`Scheduler.get_card_retrievability`), for
        the store to order cards by it without loading each one. FSRS-6 learns the decay as
        its 21st parameter and derives the factor from it, as fsrs's scheduler does."""
        decay = -self.scheduler.parameters[20]
        return 0.9 ** (1 / decay) - 1, decay


def dump_card(card: Card) -> str:
    return card.to_json()


def load_card(text: str) -> Card:
    card = Card.from_json(text)
    card.due = as_utc(card.due)
    if card.last_review is not None:
        card.last_review = as_utc(card.last_review)
    return card
