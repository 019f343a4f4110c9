"""The scenario challenge: scenarios and claims against a countdown per question, points with
a time bonus, and a local top-10 table per deck.

`Session.start_challenge` returns a `Challenge` wrapping a `Round` in `ChallengeMode`. Each
answer is saved by the round as usual (the schedule learns from it); the challenge adds the
time bonus, and `finish` keeps the run in the store's reports (mode "challenge") and returns
its place in the table.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from vocabgame.play.round import Outcome, Round, RoundSummary
from vocabgame.quiz.question import Question

if TYPE_CHECKING:
    from vocabgame.play.session import Session

TOP = 10
TIME_BONUS = 10  # at most, for an answer given at once; nothing at the last second


def time_bonus(seconds_left: float, limit: float) -> int:
    """The bonus for a right answer with `seconds_left` of `limit` on its countdown."""
    if limit <= 0:
        return 0
    return math.ceil(TIME_BONUS * max(0.0, min(seconds_left, limit)) / limit)


@dataclass(frozen=True, slots=True)
class HighScore:
    score: int
    at: datetime
    right: int
    questions: int
    report_id: int


@dataclass(frozen=True, slots=True)
class ChallengeResult:
    summary: RoundSummary
    score: int
    table: tuple[HighScore, ...]  # the top 10 after this run, best first
    rank: int | None  # this run's place in it (1-based), None: not in the top 10
    previous_best: int | None
    timed_out: int  # questions the countdown ran out on

    @property
    def new_high_score(self) -> bool:
        return self.score > 0 and (self.previous_best is None or self.score > self.previous_best)


@dataclass(slots=True)
class Challenge:
    session: Session
    round: Round
    seconds: float  # on each question's countdown
    table_key: str  # which high-score table: the deck (or decks, or tag) played
    score: int = 0
    timed_out: int = 0
    bonuses: list[int] = field(default_factory=list)
    _deadline: tuple[int, datetime] | None = None  # (position, when) the countdown ends

    def question(self) -> Question | None:
        """The question being asked (its countdown starts now, if it has not yet)."""
        self.question_deadline()
        return self.round.question()

    def question_deadline(self) -> datetime | None:
        """When the current question's countdown ends (it starts when first asked)."""
        if self.round.question() is None:
            return None
        if self._deadline is None or self._deadline[0] != self.round.position:
            at = self.session.clock() + timedelta(seconds=self.seconds)
            self._deadline = (self.round.position, at)
        return self._deadline[1]

    def time_left(self) -> float:
        deadline = self.question_deadline()
        if deadline is None or self.round.awaiting_next:
            return 0.0
        return max(0.0, (deadline - self.session.clock()).total_seconds())

    def answer_choice(self, index: int) -> Outcome:
        """Answer; a right answer scores its points and the time bonus, if still in time
        (past the countdown the answer counts as the time running out)."""
        left = self.time_left()
        if left <= 0:
            return self.time_out()
        outcome = self.round.answer_choice(index)
        bonus = time_bonus(left, self.seconds) if outcome.grade.correct else 0
        self.score += outcome.points + bonus
        self.bonuses.append(bonus)
        return outcome

    def time_out(self) -> Outcome:
        outcome = self.round.time_out()
        self.timed_out += 1
        self.bonuses.append(0)
        return outcome

    def advance(self) -> None:
        self.round.advance()
        self._deadline = None

    def table(self) -> tuple[HighScore, ...]:
        runs = [
            HighScore(int(r.body.get("score", 0)), r.made_at, r.correct, r.questions, r.id)
            for r in self.session.store.reports("challenge")
            if r.body.get("table") == self.table_key
        ]
        return tuple(sorted(runs, key=lambda h: (-h.score, h.at, h.report_id))[:TOP])

    def finish(self) -> ChallengeResult:
        """End the run: keep it in the table (when anything was answered) and say where it
        stands."""
        before = self.table()
        previous_best = before[0].score if before else None
        summary = self.round.finish()
        store = self.session.store
        report_id = None
        if summary.answered and store.read_only is None:
            report_id = store.save_report(
                "challenge",
                self.session.clock(),
                sorted({k.deck_id for k in self.round.queue}),
                summary.answered,
                summary.correct,
                summary.seconds,
                {
                    "table": self.table_key,
                    "title": self.round.title,
                    "score": self.score,
                    "timed_out": self.timed_out,
                },
            )
        table = self.table()
        rank = next((n for n, h in enumerate(table, 1) if h.report_id == report_id), None)
        return ChallengeResult(summary, self.score, table, rank, previous_best, self.timed_out)
