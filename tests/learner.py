"""A simulated learner for the optimizer's tests: its true memory follows FSRS-6 with
parameters that are not the defaults, and it reviews when the default scheduler says.

Each day it sits once at 09:00 UTC, meets `new_per_day` new faces and answers every face due
by then, then the learning steps that fall due while it sits (the scheduler's 1- and 10-minute
steps); each answer takes 10 seconds. Whether it recalls is drawn from the true
retrievability at the days elapsed (counted as `srs.elapsed_days` counts them), with a fixed
seed; a recalled face is rated Hard, Good or Easy with fixed odds, a forgotten one Again.
"""

from __future__ import annotations

import heapq
import random
from datetime import UTC, datetime, timedelta

from fsrs import Card
from fsrs_rs_python import FSRS, MemoryState

from vocabgame.srs import Srs, elapsed_days

# A learner who forgets faster than the defaults assume (initial stabilities about a third
# of theirs), whose memory grows less with each success, and whose forgetting curve bends
# differently (decay 0.45 against 0.15): the default schedule asks it back too late.
TRUE_PARAMETERS = (
    0.15, 0.4, 1.0, 4.0, 6.8, 0.6, 2.4, 0.02, 0.8, 0.25, 1.1, 1.9, 0.08, 0.35, 1.9,
    0.4, 2.2, 0.5, 0.12, 0.08, 0.45,
)  # fmt: skip
START = datetime(2026, 1, 5, 9, 0, tzinfo=UTC)
FIRST_RATING = (0.25, 0.1, 0.55, 0.1)  # Again, Hard, Good, Easy at a face's first answer
RECALLED_RATING = (0.15, 0.75, 0.10)  # Hard, Good, Easy when recalled


def _retrievability(stability: float, days: int, parameters: tuple[float, ...]) -> float:
    decay = -parameters[20]
    factor = 0.9 ** (1 / decay) - 1
    return (1 + factor * days / stability) ** decay


def simulate(
    answers: int,
    seed: int = 7,
    new_per_day: int = 12,
    parameters: tuple[float, ...] = TRUE_PARAMETERS,
) -> list[list[tuple[datetime, int]]]:
    """About `answers` scheduled answers (no more), as one (time, rating) history per face."""
    rng = random.Random(seed)
    truth = FSRS(list(parameters))
    srs = Srs()
    cards: list[Card] = []
    memory: list[MemoryState | None] = []
    last: list[datetime | None] = []
    histories: list[list[tuple[datetime, int]]] = []
    given = 0
    day = 0
    while given < answers:
        sitting = START + timedelta(days=day)
        for _ in range(new_per_day):
            face = len(cards)
            cards.append(Srs.new_card(face + 1, sitting))
            memory.append(None)
            last.append(None)
            histories.append([])
        queue = [(c.due, f) for f, c in enumerate(cards) if c.due <= sitting]
        heapq.heapify(queue)
        now = sitting
        while queue and given < answers:
            due, face = heapq.heappop(queue)
            now = max(now, due)
            state, previous = memory[face], last[face]
            days = 0 if previous is None else elapsed_days(previous, now)
            if state is None:
                rating = rng.choices((1, 2, 3, 4), FIRST_RATING)[0]
            elif rng.random() < _retrievability(state.stability, days, parameters):
                rating = rng.choices((2, 3, 4), RECALLED_RATING)[0]
            else:
                rating = 1
            nexts = truth.next_states(state, 0.9, days)
            memory[face] = (nexts.again, nexts.hard, nexts.good, nexts.easy)[rating - 1].memory
            last[face] = now
            histories[face].append((now, rating))
            cards[face] = srs.review(cards[face], rating, now)
            given += 1
            if cards[face].due <= sitting + timedelta(hours=1):
                heapq.heappush(queue, (cards[face].due, face))
            now += timedelta(seconds=10)
        day += 1
    return [h for h in histories if h]


class Learner:
    """The same learner answering one face at a time, for tests that play through a session:
    its true memory of each face follows FSRS-6 with `parameters`, drawn with a fixed seed."""

    def __init__(self, seed: int = 7, parameters: tuple[float, ...] = TRUE_PARAMETERS) -> None:
        self.rng = random.Random(seed)
        self.parameters = parameters
        self.truth = FSRS(list(parameters))
        self.memory: dict[object, tuple[MemoryState, datetime]] = {}

    def rating(self, face: object, now: datetime) -> int:
        """The rating the learner gives `face` at `now` (1 Again to 4 Easy); its memory moves."""
        known = self.memory.get(face)
        state, days = (None, 0) if known is None else (known[0], elapsed_days(known[1], now))
        if state is None:
            rating = self.rng.choices((1, 2, 3, 4), FIRST_RATING)[0]
        elif self.rng.random() < _retrievability(state.stability, days, self.parameters):
            rating = self.rng.choices((2, 3, 4), RECALLED_RATING)[0]
        else:
            rating = 1
        nexts = self.truth.next_states(state, 0.9, days)
        self.memory[face] = (
            (nexts.again, nexts.hard, nexts.good, nexts.easy)[rating - 1].memory,
            now,
        )
        return rating

    def recall(self, face: object, moment: datetime) -> float:
        """The true chance that the learner recalls `face` at `moment` (0 if never seen)."""
        known = self.memory.get(face)
        if known is None:
            return 0.0
        days = elapsed_days(known[1], moment)
        return _retrievability(known[0].stability, days, self.parameters)
