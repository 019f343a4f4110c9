"""Scheduling on top of the `fsrs` package (FSRS-6). Nothing here is a hand-written algorithm:
this module only adapts fsrs to vocabgame's faces, clock and randomness."""

from __future__ import annotations

import bisect
import itertools
import math
import random
import zlib
from collections.abc import Callable, Sequence
from copy import copy
from datetime import UTC, datetime, timedelta, timezone, tzinfo

from fsrs import Card, Rating, Scheduler

from vocabgame.settings import SPEC

DEFAULT_RETENTION = float(SPEC["desired_retention"].default)
# A face is "learned" once its stability (the days until recall falls to 90%) reaches three
# weeks: Anki's threshold between a young and a mature card (an interval of 21 days).
LEARNED_DAYS = 21

Clock = Callable[[], datetime]

# FSRS-6's 21 parameters as the `fsrs` package ships them (fitted on many Anki users).
DEFAULT_PARAMETERS: tuple[float, ...] = tuple(Scheduler().parameters)
# The store's settings key holding the parameters fitted by `vocabgame optimize`, as JSON.
PARAMETERS_KEY = "fsrs_parameters"

# Parameters in force from a moment on: (since, the 21 parameters), oldest first.
ParameterHistory = tuple[tuple[datetime, tuple[float, ...]], ...]


def utc_now() -> datetime:
    return datetime.now(UTC)


def as_utc(moment: datetime) -> datetime:
    """fsrs accepts only datetimes whose tzinfo is exactly timezone.utc."""
    if moment.tzinfo is None:
        raise ValueError("naive datetime: the clock must return timezone-aware times")
    return moment.astimezone(UTC)


# The store's settings key holding the day rollover hours in force over time, as JSON.
ROLLOVER_KEY = "day_rollover"

# Rollover hours in force from a moment on: (since, hour), oldest first. Before the first,
# days are whole 24-hour periods (how every answer was counted before the setting existed).
RolloverHistory = tuple[tuple[datetime, int], ...]


def day_number(moment: datetime, rollover_hour: int, tz: tzinfo | None) -> int:
    """The number of the player's day that `moment` falls in: a day starts at `rollover_hour`
    on the clock of time zone `tz` (None: the machine's local zone, as `datetime.astimezone`)."""
    local = as_utc(moment).astimezone(tz)
    return (local - timedelta(hours=rollover_hour)).date().toordinal()


def elapsed_days(
    earlier: datetime, later: datetime, rollover_hour: int | None = None, tz: tzinfo | None = UTC
) -> int:
    """The days FSRS counts between two answers, never below 0. With a `rollover_hour`, as
    Anki counts them: the day boundaries (at that hour in zone `tz`) crossed between the two,
    so an answer at 23:00 and one at 07:00 the next morning are a day apart. Without one,
    whole 24-hour periods, as the `fsrs` package counts them (`(later - earlier).days`). Every
    day count of scheduling, fitting and checking comes from here."""
    if rollover_hour is None:
        return max(0, (as_utc(later) - as_utc(earlier)).days)
    return max(0, day_number(later, rollover_hour, tz) - day_number(earlier, rollover_hour, tz))


class DayCount:
    """How days are counted between two answers: with the rollover hour in force at the later
    one (`RolloverHistory`), in the player's time zone `tz` (None: the machine's local zone;
    the caller decides, tests fix it)."""

    def __init__(self, history: RolloverHistory = (), tz: tzinfo | None = UTC) -> None:
        self.history = history
        self.tz = tz
        self._since = [since for since, _ in history]

    def hour_at(self, moment: datetime) -> int | None:
        """The rollover hour in force at `moment`; None before the first (24-hour periods)."""
        index = bisect.bisect_right(self._since, as_utc(moment))
        return None if index == 0 else self.history[index - 1][1]

    def __call__(self, earlier: datetime, later: datetime) -> int:
        return elapsed_days(earlier, later, self.hour_at(later), self.tz)

    def gaps(self, moments: Sequence[datetime]) -> list[int]:
        """The days counted between each of `moments` (in time order) and the one before it
        (0 for the first), as calling this for each pair counts them. Without a rollover hour
        and with every moment at a fixed UTC offset (as the store's times are read), that is
        whole 24-hour periods from a plain subtraction: 100k answers' days in a few ms."""
        if not moments:
            return []
        if not self.history and all(isinstance(m.tzinfo, timezone) for m in moments):
            return [0, *(max(0, (b - a).days) for a, b in itertools.pairwise(moments))]
        return [0 if n == 0 else self(moments[n - 1], m) for n, m in enumerate(moments)]


def rollover_history(stored: object) -> tuple[RolloverHistory, str | None]:
    """The rollover hours in force over time, from the stored JSON value (see `ROLLOVER_KEY`):
    `{"history": [{"since": iso time, "hour": 0-23}, ...]}`. None stored means 24-hour periods
    throughout; a damaged value means the same, with one sentence saying so."""
    if stored is None:
        return (), None
    try:
        if not isinstance(stored, dict) or not isinstance(stored.get("history"), list):
            raise ValueError("it is not a list of rollover hours")
        history = []
        for entry in stored["history"]:
            hour = entry["hour"]
            if isinstance(hour, bool) or not isinstance(hour, int) or not 0 <= hour <= 23:
                raise ValueError(f"{hour!r} is not an hour from 0 to 23")
            history.append((as_utc(datetime.fromisoformat(entry["since"])), hour))
    except (ValueError, TypeError, KeyError) as exc:
        return (), (
            f"The stored day rollover history is damaged ({exc}); it starts again from now, "
            "and the days between earlier answers count as 24-hour periods."
        )
    return tuple(sorted(history, key=lambda entry: entry[0])), None


def check_parameters(values: object) -> tuple[float, ...]:
    """Twenty-one finite numbers as FSRS-6 parameters, or ValueError saying what is wrong."""
    if not isinstance(values, (list, tuple)) or len(values) != len(DEFAULT_PARAMETERS):
        raise ValueError(f"FSRS-6 takes {len(DEFAULT_PARAMETERS)} parameters")
    if not all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in values):
        raise ValueError("every FSRS parameter is a number")
    numbers = tuple(float(v) for v in values)
    if not all(math.isfinite(v) for v in numbers):
        raise ValueError("an FSRS parameter is not a finite number")
    Scheduler(parameters=numbers)  # fsrs refuses any outside its bounds, saying which
    return numbers


def parameter_history(stored: object) -> tuple[ParameterHistory, str | None]:
    """The parameters in force over time, from the stored JSON value (see `PARAMETERS_KEY`):
    `{"history": [{"since": iso time, "parameters": [21 numbers]}, ...], ...}`. None stored
    means the defaults throughout; a damaged value means the same, with one sentence saying so."""
    if stored is None:
        return (), None
    try:
        if not isinstance(stored, dict) or not isinstance(stored.get("history"), list):
            raise ValueError("it is not a list of parameter sets")
        history = tuple(
            (as_utc(datetime.fromisoformat(entry["since"])), check_parameters(entry["parameters"]))
            for entry in stored["history"]
        )
    except (ValueError, TypeError, KeyError) as exc:
        return (), (
            f"The stored scheduler parameters are damaged ({exc}); using the defaults "
            "(`vocabgame optimize` fits them again)."
        )
    return tuple(sorted(history, key=lambda entry: entry[0])), None


class Srs:
    """Reviews cards with fsrs. Interval fuzzing is kept (it spreads reviews out) but made
    repeatable: fsrs draws its fuzz from the global `random`, so each review seeds it from the
    card and the review time, then puts the global state back.

    `parameters` is the history of fitted parameters (`parameter_history`): each answer is
    scheduled with the parameters in force at its time (the defaults before the first fit),
    so replaying old answers (`vocabgame check`, a merge) remakes what play made. `days`
    counts the days between answers likewise with the rollover hour in force at each answer
    (none given: 24-hour periods, as the `fsrs` package counts them)."""

    def __init__(
        self,
        desired_retention: float = DEFAULT_RETENTION,
        fuzz: bool = True,
        parameters: ParameterHistory = (),
        days: DayCount | None = None,
    ) -> None:
        SPEC["desired_retention"].check(desired_retention)
        self.fuzz = fuzz
        self.history = parameters
        self.days = days or DayCount()
        self._since = [since for since, _ in parameters]
        self._schedulers = [self._scheduler(DEFAULT_PARAMETERS, desired_retention)] + [
            self._scheduler(values, desired_retention) for _, values in parameters
        ]
        # The parameters in force now (the latest): retrievability and due order use them.
        self.scheduler = self._schedulers[-1]

    def _scheduler(self, parameters: Sequence[float], retention: float) -> Scheduler:
        return Scheduler(
            parameters=tuple(parameters), desired_retention=retention, enable_fuzzing=self.fuzz
        )

    @property
    def parameters(self) -> tuple[float, ...]:
        """The 21 parameters in force now."""
        return tuple(self.scheduler.parameters)

    def scheduler_at(self, moment: datetime) -> Scheduler:
        """The scheduler with the parameters in force at `moment`."""
        return self._schedulers[bisect.bisect_right(self._since, as_utc(moment))]

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
            scheduler = self.scheduler_at(now)
            updated, _ = scheduler.review_card(
                self._as_counted(card, now), Rating(rating), now, duration_ms
            )
        finally:
            random.setstate(saved)
        return updated

    def _as_counted(self, card: Card, now: datetime) -> Card:
        """The card as fsrs must see it at `now` to count `self.days` since its last review:
        fsrs counts whole 24-hour periods, so its last review is put exactly that many days
        before `now` (a copy; fsrs sets the real time as the new last review)."""
        if card.last_review is None or self.days.hour_at(now) is None:
            return card
        shown = copy(card)
        shown.last_review = now - timedelta(days=self.days(card.last_review, now))
        return shown

    def retrievability(self, card: Card, now: datetime) -> float:
        """The predicted chance of recalling `card` at `now` over whole 24-hour periods since
        its last review: only the orders by recall read it, and the store's query
        (`Schedules.weakest`) must give the same order without decoding a card."""
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
