"""A round's clock: the countdown of the question being asked and the limit of the whole
round, on the session's clock (so a test moves time by moving its clock)."""

from __future__ import annotations

from datetime import datetime, timedelta

from vocabgame.play.context import Limits
from vocabgame.srs import Clock


class RoundClock:
    def __init__(self, limits: Limits, started_at: datetime, now: Clock) -> None:
        self.limits = limits
        self.started_at = started_at
        self.now = now
        self._countdown: tuple[int, datetime] | None = None  # (position, when it ends)

    def deadline(self, position: int) -> datetime | None:
        """When the countdown of the question at `position` ends (None: no countdown); it
        starts the first time it is asked for."""
        seconds = self.limits.question_seconds
        if seconds is None:
            return None
        if self._countdown is None or self._countdown[0] != position:
            self._countdown = (position, self.now() + timedelta(seconds=seconds))
        return self._countdown[1]

    def question_left(self, position: int, answered: bool) -> float | None:
        """Seconds left on that question's countdown, never below 0; 0 once it is answered."""
        deadline = self.deadline(position)
        if deadline is None:
            return None
        if answered:
            return 0.0
        return max(0.0, (deadline - self.now()).total_seconds())

    def round_left(self) -> float | None:
        """Seconds left of the round's time limit, never below 0 (None: no limit)."""
        seconds = self.limits.round_seconds
        if seconds is None:
            return None
        end = self.started_at + timedelta(seconds=seconds)
        return max(0.0, (end - self.now()).total_seconds())
