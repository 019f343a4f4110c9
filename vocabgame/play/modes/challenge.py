"""The scenario challenge: scenarios and claims against a countdown per question, points with
a time bonus, and a local top-10 table per deck.

`ChallengeMode.start` returns a `Challenge` wrapping a `Round` whose clock is the countdown
setting per question. Each answer is saved by the round as usual (the schedule learns from
it); the challenge adds the time bonus, and `finish` keeps the run in the store's reports
(mode "challenge") and returns its place in the table. Only a finished run (every question
answered) is in the table; one ended early is kept as partial, for the record.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any

from vocabgame.kinds import sections_with
from vocabgame.model import FaceKey, levels_label
from vocabgame.play.context import Limits, RoundContext
from vocabgame.play.modes.base import (
    Mode,
    ModeId,
    PlanContext,
    Selection,
    Starter,
    one_per_item,
    register,
    round_robin,
)
from vocabgame.play.outcome import Outcome, RoundSummary
from vocabgame.play.round import Round
from vocabgame.quiz.question import Question
from vocabgame.settings import Settings
from vocabgame.store import Store

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
    summary: RoundSummary  # its score is the run's: the answers' points and the time bonus
    score: int
    table: tuple[HighScore, ...]  # the top 10 after this run, best first
    rank: int | None  # this run's place in it (1-based), None: not in the top 10 (or partial)
    previous_best: int | None
    timed_out: int  # questions the countdown ran out on
    questions: int = 0  # the questions of the run, answered or not

    @property
    def finished(self) -> bool:
        """Every question was answered: only such a run is in the table."""
        return self.summary.finished

    @property
    def new_high_score(self) -> bool:
        return (
            self.finished
            and self.score > 0
            and (self.previous_best is None or self.score > self.previous_best)
        )


class ChallengeMode(Mode):
    """Scenarios and claims against a countdown per question (the round's clock); its runner,
    `Challenge`, adds a time bonus and keeps a high-score table per deck."""

    id = ModeId.CHALLENGE
    rank = 60
    help = "scenarios and claims against a countdown per question, for a top-10 table"
    title = "Scenario challenge"
    description = (
        "Scenarios and claims against a countdown: points with a time bonus, and a top-10 "
        "table per deck."
    )
    banner = "scenario challenge"
    keeps_round = False  # its record is its place in the high-score table
    max_retries = 0  # a run: a miss does not come back
    asks = "challenge"  # the kinds fit for a countdown (`ItemKind.traits`)
    picker = True
    undo = False  # the clock has moved on
    nothing_to_play = "No scenarios or claims here: the challenge asks only those."
    results_note = (
        "Every answer is saved and the schedule learns from it; a run enters the top-10 table "
        "only when every question is answered."
    )

    def plan(self, ctx: PlanContext) -> list[FaceKey]:
        ours = list(round_robin(ctx.decks, sections_with(self.asks or "")))
        cards = ctx.cards_of(ours)
        new = [k for k in ours if k not in cards]
        seen = sorted(
            (k for k in ours if k in cards), key=lambda k: (ctx.retrievability(cards[k]), k)
        )
        return one_per_item([*new, *seen], ctx.size, set())

    def limits(self, settings: Settings, choice: Selection) -> Limits:
        return Limits(question_seconds=float(settings.countdown_seconds))

    def start(self, starter: Starter, choice: Selection) -> Challenge | None:
        """A run against the countdown setting, kept in the table of the decks (or tag)
        played."""
        limits = self.limits(starter.settings, choice)
        round_ = starter.open_round(self, choice, limits=limits)
        if round_ is None:
            return None
        key = "+".join(sorted(choice.deck_ids)) or "all decks"
        if choice.tag is not None:
            key += f" #{choice.tag}"
        if choice.levels:
            key += f" {levels_label(choice.levels)}"
        return Challenge(starter.round_context(), round_, key)

    def bests(self, store: Store, settings: Settings) -> dict[str, Any] | None:
        runs = store.saved_reports.all(self.id)
        return {
            "runs": len(runs),
            "best_score": max(
                (int(r.body.get("score", 0)) for r in runs if counts(r.body)), default=None
            ),
        }


def counts(body: dict[str, Any]) -> bool:
    """Whether a kept run is in the table: a finished one (runs kept before the table left
    out partial runs say nothing, and count as they did)."""
    return bool(body.get("finished", True))


@dataclass(slots=True)
class Challenge:
    context: RoundContext
    round: Round
    table_key: str  # which high-score table: the deck (or decks, or tag) played
    score: int = 0
    bonuses: list[int] = field(default_factory=list)

    @property
    def seconds(self) -> float:
        """Each question's countdown."""
        return self.round.limits.question_seconds or 0.0

    @property
    def timed_out(self) -> int:
        return self.round.timed_out

    def question(self) -> Question | None:
        """The question being asked (its countdown starts now, if it has not yet)."""
        self.round.question_deadline()
        return self.round.question()

    def time_left(self) -> float:
        return self.round.time_left() or 0.0

    def answer_choice(self, index: int) -> Outcome:
        """Answer; a right answer scores its points and the time bonus, if still in time
        (past the countdown the answer counts as the time running out). The outcome carries
        the bonus (`Outcome.time_bonus`), so the verdict can say what was given."""
        left = self.time_left()
        outcome = self.round.answer_choice(index)
        bonus = time_bonus(left, self.seconds) if outcome.grade.correct else 0
        self.score += outcome.points + bonus
        self.bonuses.append(bonus)
        return replace(outcome, time_bonus=bonus)

    def time_out(self) -> Outcome:
        outcome = self.round.time_out()
        self.bonuses.append(0)
        return outcome

    def advance(self) -> None:
        self.round.advance()

    def table(self) -> tuple[HighScore, ...]:
        runs = [
            HighScore(int(r.body.get("score", 0)), r.made_at, r.correct, r.questions, r.id)
            for r in self.context.store.saved_reports.all(ModeId.CHALLENGE)
            if r.body.get("table") == self.table_key and counts(r.body)
        ]
        return tuple(sorted(runs, key=lambda h: (-h.score, h.at, h.report_id))[:TOP])

    def finish(self) -> ChallengeResult:
        """End the run: keep it (when anything was answered), in the table when every question
        was answered, and say where it stands. The summary's score is the run's."""
        before = self.table()
        previous_best = before[0].score if before else None
        summary = self.round.finish()
        store = self.context.store
        report_id = None
        if summary.answered and store.read_only is None:
            report_id = store.saved_reports.save(
                ModeId.CHALLENGE,
                self.context.clock(),
                sorted({k.deck_id for k in self.round.queue}),
                summary.answered,
                summary.correct,
                summary.seconds,
                {
                    "table": self.table_key,
                    "title": self.round.title,
                    "score": self.score,
                    "timed_out": self.timed_out,
                    "finished": summary.finished,
                },
            )
        table = self.table()
        rank = next((n for n, h in enumerate(table, 1) if h.report_id == report_id), None)
        return ChallengeResult(
            replace(summary, score=self.score),
            self.score,
            table,
            rank,
            previous_best,
            self.timed_out,
            self.round.total,
        )


register(ChallengeMode())
