"""Taking an answer back: undo (the store and the schedule go back to how they were) and "I
was right" (a typed answer marked wrong counted as right). A part of `Round`, kept apart
because both rewrite what the round has already recorded."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import replace
from datetime import datetime

from fsrs import Card

from vocabgame.model import FaceKey
from vocabgame.play.context import RoundContext, Rules
from vocabgame.play.outcome import Answered, Outcome
from vocabgame.quiz.question import Question

RIGHT_RATING = 3  # Good: what an answer graded right counts as in the schedule


class Corrections:
    """Undo and "I was right", over the round's record of answers (`Round` sets these)."""

    context: RoundContext
    rules: Rules
    round_id: int | None
    queue: list[FaceKey]
    position: int
    score: int
    streak: int
    best_streak: int
    ended: bool
    rng: random.Random
    _history: list[Answered]
    _first: dict[tuple[int, FaceKey], tuple[int, bool]]
    _retries: dict[FaceKey, int]
    _question: Question | None
    _asked_at: datetime
    _awaiting_next: bool

    @property
    def correct(self) -> int:
        return sum(a.outcome.grade.correct for a in self._history)

    @property
    def answered(self) -> int:
        return len(self._history)

    def _scheduler(self, rating: int, at: datetime) -> Callable[[Card | None, int], Card] | None:
        """How the store gets the face's new schedule from its old one (None: the mode leaves
        the schedule alone)."""
        if not self.rules.updates_schedule:
            return None
        srs = self.context.srs
        return lambda before, card_id: srs.review(before or srs.new_card(card_id, at), rating, at)

    def _scored(
        self, correct: bool, streak_before: int, first: tuple[int, bool] | None
    ) -> tuple[int, int]:
        """The points and the streak after an answer; an answer given again after an undo
        (`first`: what the first scored, and whether it was right) scores no more, nor mends
        the streak the first broke."""
        points = self.rules.points(correct, streak_before)
        streak = streak_before + 1 if correct else 0
        if first is not None:
            points = min(points, first[0])
            if not first[1]:
                streak = 0
        return points, streak

    # -- undo ------------------------------------------------------------------------------------

    def undo(self) -> Question | None:
        """Take back the last answer: the store and the schedule go back to how they were, and
        that question is asked again. Returns it, or None if there is nothing to undo."""
        if not self._history or self.ended:
            return None
        last = self._history[-1]
        answered = self._history[:-1]
        best_streak = last.best_streak_before
        totals = (
            len(answered),
            sum(a.outcome.grade.correct for a in answered),
            self.score - last.outcome.points,
            best_streak,
        )
        if last.review_id is not None:  # one transaction; the round changes only after it
            self.context.store.answers.undo(last.review_id, self.round_id, totals)
        self._history.pop()
        key = last.outcome.question.key
        if last.outcome.comes_back:
            self._take_back_retry(key)
        self.score -= last.outcome.points
        self.streak, self.best_streak = last.streak_before, last.best_streak_before
        if not self._awaiting_next:
            self.position -= 1
        self._awaiting_next = False
        self._question = last.outcome.question  # the same question, same choices
        self._asked_at = self.context.clock()
        return self._question

    def can_undo(self) -> bool:
        return bool(self._history) and not self.ended

    # -- "I was right" ---------------------------------------------------------------------------

    def can_override(self) -> bool:
        """The answer whose feedback is showing is a typed term or number marked wrong."""
        return (
            self._awaiting_next and bool(self._history) and self._history[-1].outcome.can_override
        )

    def override(self) -> Outcome | None:
        """Count the typed answer just marked wrong as right ("I was right"): it scores as a
        right answer would have, the face's schedule is recomputed as if answered right (from
        its schedule before the answer), it no longer comes back in this round, and the store
        keeps it marked as overridden. One store transaction; undo still takes it all back.
        None when there is no such answer."""
        if not self.can_override():
            return None
        last = self._history[-1]
        old = last.outcome
        key, schedule = old.question.key, self._scheduler(RIGHT_RATING, last.answered_at)
        first = self._first[last.slot] if old.first_points is not None else None
        points, streak = self._scored(True, last.streak_before, first)
        best_streak = max(last.best_streak_before, streak)
        score = self.score - old.points + points
        correct = self.correct + 1
        totals = (self.answered, correct, score, best_streak)
        store = self.context.store
        card: Card | None = None
        if last.review_id is not None:  # saved first: if the store refuses, nothing changes
            card = store.answers.override(
                last.review_id,
                rating=RIGHT_RATING,
                points=points,
                schedule=schedule,
                round_totals=totals,
            )
        elif schedule is not None:  # a read-only store: shown, not kept
            card = schedule(store.schedules.card(key), 0)
        if old.first_points is None:
            self._first[last.slot] = (points, True)
        if old.comes_back:
            self._take_back_retry(key)
        grade = replace(
            old.grade,
            correct=True,
            rating=RIGHT_RATING,
            note="Counted as right: you said you were right.",
            next_due=card.due if card is not None else None,
        )
        outcome = replace(
            old,
            grade=grade,
            points=points,
            score=score,
            streak=streak,
            correct=correct,
            comes_back=False,
            overridden=True,
        )
        self._history[-1] = replace(last, outcome=outcome)
        self.score, self.streak, self.best_streak = score, streak, best_streak
        return outcome

    def _take_back_retry(self, key: FaceKey) -> None:
        """Remove the later asking of `key` that a wrong answer put in the queue."""
        for index in range(len(self.queue) - 1, self.position, -1):
            if self.queue[index] == key:
                del self.queue[index]
                break
        self._retries[key] -= 1
