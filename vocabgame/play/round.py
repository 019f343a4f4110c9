"""A round: a queue of faces asked one at a time under a mode's rules. Each answer is saved as
it is given, and the round changes only after the store has it.

Everything a screen shows comes back as frozen objects: the `Question`, an `Outcome` per
answer, the `Status` line and the `RoundSummary` at the end.
"""

from __future__ import annotations

import random
from contextlib import suppress
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import Protocol

from fsrs import Card

from vocabgame.kinds import build_question, grade
from vocabgame.model import Deck, FaceKey
from vocabgame.play.context import NO_LIMITS, Limits, RoundContext
from vocabgame.play.spacing import retry_slot, traits_of
from vocabgame.quiz.question import (
    Grade,
    Kind,
    Picked,
    Question,
    Refused,
    Response,
    SelfGraded,
    Typed,
)
from vocabgame.store import Review, StoreReadOnly

RIGHT_RATING = 3  # Good: what an answer graded right counts as in the schedule


class Rules(Protocol):
    """What a round asks of its mode (`play.modes.Mode` is one)."""

    @property
    def id(self) -> str: ...
    @property
    def banner(self) -> str | None: ...
    @property
    def updates_schedule(self) -> bool: ...
    @property
    def undo(self) -> bool: ...
    def points(self, correct: bool, streak: int) -> int: ...
    def retry_at(self, position: int, queue_length: int, retries: int) -> int | None: ...


@dataclass(frozen=True, slots=True)
class Outcome:
    """What one answer did: the verdict, the points, the round's running figures after it."""

    question: Question
    grade: Grade
    points: int
    score: int
    streak: int
    answered: int
    correct: int
    comes_back: bool  # the face is asked again later in this round
    saved: bool = True  # False: the store is read-only and the answer was not kept
    # The question was answered before in this round and that answer undone: this one scores at
    # most what that one did (None: a first answer).
    first_points: int | None = None
    overridden: bool = False  # marked wrong, then counted as right by the player ("I was right")

    @property
    def next_due(self) -> datetime | None:
        """When the face is next scheduled (None: the mode left the schedule alone)."""
        return self.grade.next_due

    @property
    def self_graded(self) -> bool:
        return self.question.kind == Kind.RECALL

    @property
    def can_override(self) -> bool:
        """A typed term or number marked wrong, which the player may count as right."""
        return (
            self.question.kind in (Kind.TYPED, Kind.NUMBER)
            and not self.grade.correct
            and not self.overridden
        )


@dataclass(frozen=True, slots=True)
class Status:
    """The round's header: where the player is and how they are doing."""

    title: str
    banner: str | None
    number: int  # the question being asked, 1-based
    total: int
    score: int
    streak: int
    done: int  # questions behind the player, for a progress bar


@dataclass(frozen=True, slots=True)
class Missed:
    """A question answered wrong at least once in the round, listed once."""

    key: FaceKey
    prompt: str
    right_answer: str
    given: tuple[str, ...]  # every wrong answer given to it, in order


@dataclass(frozen=True, slots=True)
class RoundSummary:
    """How a round went, for the results screen: counts, score, misses, the best before it and when
    the next review is due."""

    deck_title: str
    answered: int
    correct: int
    score: int
    best_streak: int
    seconds: float
    finished: bool
    missed: tuple[Missed, ...]
    previous_best: int | None
    new_best: bool
    next_due: datetime | None

    @property
    def accuracy(self) -> float:
        return self.correct / self.answered if self.answered else 0.0


@dataclass(frozen=True, slots=True)
class _Answered:
    """What undoing an answer needs: its outcome, its stored review and the round's state before
    it."""

    outcome: Outcome
    review_id: int | None  # None: not saved (read-only store)
    streak_before: int
    best_streak_before: int
    slot: tuple[int, FaceKey]  # the question's place in the queue and its face
    answered_at: datetime


class Round:
    """One round, started by its mode (`Mode.start`), which has already stored its row. It
    keeps the mode's clock: a countdown per question and a limit for the whole round."""

    def __init__(
        self,
        context: RoundContext,
        *,
        round_id: int | None,  # None: not stored (a read-only store)
        rules: Rules,
        deck_id: str | None,
        title: str,
        queue: list[FaceKey],
        rng: random.Random,
        started_at: datetime,
        limits: Limits = NO_LIMITS,
    ) -> None:
        self.context = context
        self.limits = limits
        self.round_id = round_id
        self.rules = rules
        self.deck_id = deck_id
        self.title = title
        self.queue = queue
        self.rng = rng
        self.started_at = started_at
        self.position = 0
        self.score = 0
        self.streak = 0
        self.best_streak = 0
        self.ended = False
        self._history: list[_Answered] = []
        self._retries: dict[FaceKey, int] = {}
        # What the first answer to each question scored (points, right): an answer given
        # again after an undo scores no more, so undo cannot farm points.
        self._first: dict[tuple[int, FaceKey], tuple[int, bool]] = {}
        self._decks: dict[str, Deck] = {d.id: d for d in context.decks}
        self._traits = traits_of(context.decks)
        self._question: Question | None = None
        self._asked_at = started_at
        self._deadline: tuple[int, datetime] | None = None  # the question countdown's end
        self.timed_out = 0  # questions the countdown ran out on
        self._awaiting_next = False  # an answer was given; its feedback is showing

    # -- figures --------------------------------------------------------------------------------

    @property
    def mode(self) -> str:
        """The mode's id, as stored with the round and each answer."""
        return self.rules.id

    @property
    def total(self) -> int:
        return len(self.queue)

    @property
    def answered(self) -> int:
        return len(self._history)

    @property
    def correct(self) -> int:
        return sum(a.outcome.grade.correct for a in self._history)

    @property
    def last_review_id(self) -> int | None:
        """The stored id of the last answer given (None: none, or it was not saved)."""
        return self._history[-1].review_id if self._history else None

    @property
    def awaiting_next(self) -> bool:
        """An answer was given and its feedback is showing; `advance` moves on."""
        return self._awaiting_next

    def status(self) -> Status:
        return Status(
            title=self.title,
            banner=self.rules.banner,
            number=min(self.position + 1, self.total),
            total=self.total,
            score=self.score,
            streak=self.streak,
            done=self.position + self._awaiting_next,
        )

    # -- the clock ------------------------------------------------------------------------------

    def question_deadline(self) -> datetime | None:
        """When the current question's countdown ends (None: the mode gives none). It starts
        when the question is first asked for."""
        seconds = self.limits.question_seconds
        if seconds is None or self.question() is None:
            return None
        if self._deadline is None or self._deadline[0] != self.position:
            self._deadline = (self.position, self.context.clock() + timedelta(seconds=seconds))
        return self._deadline[1]

    def time_left(self) -> float | None:
        """Seconds left on the current question's countdown, never below 0 (None: no
        countdown; 0 while its feedback shows)."""
        deadline = self.question_deadline()
        if deadline is None:
            return None
        if self._awaiting_next:
            return 0.0
        return max(0.0, (deadline - self.context.clock()).total_seconds())

    def round_time_left(self) -> float | None:
        """Seconds left of the round's time limit, never below 0 (None: no limit)."""
        seconds = self.limits.round_seconds
        if seconds is None:
            return None
        end = self.started_at + timedelta(seconds=seconds)
        return max(0.0, (end - self.context.clock()).total_seconds())

    @property
    def out_of_time(self) -> bool:
        """The round's time limit has run out."""
        return self.round_time_left() == 0.0

    # -- asking ---------------------------------------------------------------------------------

    def question(self) -> Question | None:
        """The question being asked, or None when the round is over."""
        if self.ended or self.position >= len(self.queue):
            return None
        if self._question is None or self._question.key != self.queue[self.position]:
            key = self.queue[self.position]
            self._question = build_question(self._decks[key.deck_id], key, self.rng)
            self._asked_at = self.context.clock()
        return self._question

    def advance(self) -> Question | None:
        """Move on after the feedback; returns the next question or None at the end."""
        if self._awaiting_next:
            self.position += 1
            self._awaiting_next = False
            self._question = None
            self._deadline = None
        return self.question()

    # -- answering ------------------------------------------------------------------------------

    def answer(self, response: Response) -> Outcome | Refused:
        """Grade and save an answer to the current question. Refused, with the reason, when
        the response is not an answer at all (a number was expected, or another unit): nothing
        is recorded and the question stays."""
        question = self.question()
        if question is None or self._awaiting_next:
            raise RuntimeError("no question is waiting for an answer")
        verdict = grade(self._decks[question.key.deck_id], question, response)
        if isinstance(verdict, Refused):
            return verdict
        confusion = None
        if isinstance(response, Picked) and not verdict.correct:
            confusion = self._confusion(question, question.choices[response.index].value)
        return self._record(question, verdict, confusion)

    def _confusion(self, question: Question, picked: str) -> tuple[str, str] | None:
        """A wrong pick of one of the deck's terms where another term was the answer (term,
        cue and scenario questions alike) is kept, with the answer, as a confusion of the two:
        (the answer, the term picked)."""
        deck = self._decks[question.key.deck_id]
        if picked == question.answer or deck.term(picked) is None:
            return None
        if deck.term(question.answer) is None:
            return None
        return question.answer, picked

    def answer_choice(self, index: int) -> Outcome:
        """Pick a choice; past the question's countdown the pick counts as the time running
        out."""
        question = self._require(Kind.CHOICE)
        if not 0 <= index < len(question.choices):
            raise IndexError(index)
        if self.time_left() == 0.0:
            return self.time_out()
        outcome = self.answer(Picked(index))
        assert isinstance(outcome, Outcome)
        return outcome

    def answer_text(self, text: str) -> Outcome | Refused:
        """A typed term or number. Refused when a number was expected and `text` is not one,
        or is in another unit than the one asked."""
        question = self.question()
        if question is not None and question.kind not in (Kind.TYPED, Kind.NUMBER):
            raise RuntimeError(f"a {question.kind} question does not take typed text")
        return self.answer(Typed(text))

    def answer_recall(self, rating: int, notes: str = "") -> Outcome:
        self._require(Kind.RECALL)
        outcome = self.answer(SelfGraded(rating, notes))
        assert isinstance(outcome, Outcome)
        return outcome

    def time_out(self) -> Outcome:
        """The countdown ran out on a choice question: it counts as wrong (no confusion is
        kept: nothing was picked) and the feedback shows the answer."""
        question = self._require(Kind.CHOICE)
        wrong = next(i for i, c in enumerate(question.choices) if c.value != question.answer)
        verdict = grade(self._decks[question.key.deck_id], question, Picked(wrong))
        if isinstance(verdict, Refused):  # pragma: no cover - a pick is always an answer
            raise ValueError(verdict.reason)
        verdict = replace(
            verdict, correct=False, rating=1, given="", why_not=None, note="Time ran out."
        )
        outcome = self._record(question, verdict)
        self.timed_out += 1
        return outcome

    def set_aside(self) -> Question:
        """Move past the current question unanswered, to be graded later with
        `answer_set_aside` (an interview's typed recall answers, graded by the key points the
        player ticks at the end). Nothing is recorded now."""
        question = self.question()
        if question is None or self._awaiting_next:
            raise RuntimeError("no question is waiting for an answer")
        self._awaiting_next = True
        return question

    def answer_set_aside(self, question: Question, response: Response, seconds: float) -> Outcome:
        """Grade and save the answer to a question set aside earlier, answered in `seconds`;
        the round's place stays where it is."""
        verdict = grade(self._decks[question.key.deck_id], question, response)
        if isinstance(verdict, Refused):
            raise ValueError(verdict.reason)
        awaiting, asked_at = self._awaiting_next, self._asked_at
        self._asked_at = self.context.clock() - timedelta(seconds=seconds)
        try:
            return self._record(question, verdict)
        finally:
            self._awaiting_next, self._asked_at = awaiting, asked_at

    def _require(self, kind: Kind) -> Question:
        question = self.question()
        if question is None or self._awaiting_next:
            raise RuntimeError("no question is waiting for an answer")
        if question.kind != kind:
            raise RuntimeError(f"the question is {question.kind}, not {kind}")
        return question

    def _record(
        self, question: Question, verdict: Grade, confusion: tuple[str, str] | None = None
    ) -> Outcome:
        context, now, key = self.context, self.context.clock(), question.key
        store = context.store
        schedule = None
        if self.rules.updates_schedule:

            def schedule(before: Card | None, new_id: int) -> Card:
                return context.srs.review(
                    before or context.srs.new_card(new_id, now), verdict.rating, now
                )

        slot = (self.position, key)
        points = self.rules.points(verdict.correct, self.streak)
        streak = self.streak + 1 if verdict.correct else 0
        first = self._first.get(slot)
        if first is not None:  # answered before, then undone
            points = min(points, first[0])
            if not first[1]:
                streak = 0  # nor does it mend the streak the first answer broke
        best_streak = max(self.best_streak, streak)
        correct = self.correct + verdict.correct
        response_ms = max(0, int((now - self._asked_at).total_seconds() * 1000))
        review = Review(
            key, now, verdict.rating, verdict.correct, response_ms, self.mode, verdict.given, points
        )
        totals = (self.answered + 1, correct, self.score + points, best_streak)
        # Saved first: if the store refuses, the round is left exactly as it was. Only a
        # read-only store lets play go on, unsaved (the player is told once).
        review_id: int | None = None
        card: Card | None = None
        if store.read_only is None:
            with suppress(StoreReadOnly):
                review_id, card = store.record(
                    review, schedule, self.round_id, totals, confusion=confusion
                )
        if review_id is None and schedule is not None:
            card = schedule(store.card(key), 0)  # shown, not kept
        comes_back = False
        if not verdict.correct:
            at = self.rules.retry_at(self.position, len(self.queue), self._retries.get(key, 0))
            if at is not None:
                at = retry_slot(self.queue, at, key, self._traits)
                self.queue.insert(at, key)
                self._retries[key] = self._retries.get(key, 0) + 1
                comes_back = True
        outcome = Outcome(
            question=question,
            grade=replace(verdict, next_due=card.due if card is not None else None),
            points=points,
            score=self.score + points,
            streak=streak,
            answered=self.answered + 1,
            correct=correct,
            comes_back=comes_back,
            saved=review_id is not None,
            first_points=None if first is None else first[0],
        )
        self._first.setdefault(slot, (points, verdict.correct))
        self._history.append(
            _Answered(outcome, review_id, self.streak, self.best_streak, slot, now)
        )
        self.score, self.streak, self.best_streak = outcome.score, streak, best_streak
        self._awaiting_next = True
        return outcome

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
            self.context.store.undo(last.review_id, self.round_id, totals)
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
        context, key, at = self.context, old.question.key, last.answered_at
        schedule = None
        if self.rules.updates_schedule:

            def schedule(before: Card | None, card_id: int) -> Card:
                return context.srs.review(
                    before or context.srs.new_card(card_id, at), RIGHT_RATING, at
                )

        points = self.rules.points(True, last.streak_before)
        streak = last.streak_before + 1
        if old.first_points is not None:  # an answer given again after an undo
            points = min(points, old.first_points)
            if not self._first[last.slot][1]:
                streak = 0
        best_streak = max(last.best_streak_before, streak)
        score = self.score - old.points + points
        correct = self.correct + 1
        totals = (self.answered, correct, score, best_streak)
        store = context.store
        card: Card | None = None
        if last.review_id is not None:  # saved first: if the store refuses, nothing changes
            card = store.override(
                last.review_id,
                rating=RIGHT_RATING,
                points=points,
                schedule=schedule,
                round_totals=totals,
            )
        elif schedule is not None:  # a read-only store: shown, not kept
            card = schedule(store.card(key), 0)
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

    # -- flags -----------------------------------------------------------------------------------

    def _flag_key(self) -> FaceKey | None:
        """The face a flag is about: the question just answered, or the one being asked."""
        if self._awaiting_next and self._history:
            return self._history[-1].outcome.question.key
        question = self.question()
        return question.key if question else None

    def flag(self, note: str = "") -> FaceKey | None:
        """Flag the current (or just answered) question as wrong or unclear, for its author;
        flagging a flagged question again only replaces its note (when one is given)."""
        key = self._flag_key()
        if key is not None:
            self.context.store.flag(key, self.context.clock(), note)
        return key

    def toggle_flag(self) -> tuple[FaceKey, bool] | None:
        """Flag the current (or just answered) question, or take its flag back if it has one.
        Returns the face and whether it is flagged now; None when there is no question."""
        key = self._flag_key()
        if key is None:
            return None
        store = self.context.store
        if store.is_flagged(key):
            store.unflag(key)
            return key, False
        store.flag(key, self.context.clock())
        return key, True

    # -- finish ----------------------------------------------------------------------------------

    def finish(self) -> RoundSummary:
        """End the round (early or not); every answer is already saved. A round counts for
        the day streak and the best score only when every question was answered."""
        now = self.context.clock()
        position = self.position + self._awaiting_next
        finished = position >= len(self.queue) and self.answered > 0
        store = self.context.store
        # Reads first: once the round's end is written, nothing after it can fail.
        previous_best = store.best_score(self.deck_id, exclude_round=self.round_id)
        next_due = self.context.next_due(self.deck_id)
        if not self.ended and self.round_id is not None and store.read_only is None:
            store.update_round(
                self.round_id,
                questions=self.answered,
                correct=self.correct,
                score=self.score,
                best_streak=self.best_streak,
                ended_at=now,
                finished=finished,
            )
        self.position, self._awaiting_next, self.ended = position, False, True
        # Each missed question once, as first asked (a calculation draws new numbers when it
        # comes back), with every wrong answer given to that same wording.
        missed_at: dict[FaceKey, Missed] = {}
        for a in self._history:
            question, verdict = a.outcome.question, a.outcome.grade
            if verdict.correct:
                continue
            first = missed_at.get(question.key)
            if first is None:
                given = (verdict.given,) if verdict.given else ()
                missed_at[question.key] = Missed(
                    question.key, question.prompt, verdict.right_answer, given
                )
            elif question.prompt == first.prompt and verdict.given not in ("", *first.given):
                missed_at[question.key] = replace(first, given=(*first.given, verdict.given))
        missed = tuple(missed_at.values())
        return RoundSummary(
            deck_title=self.title,
            answered=self.answered,
            correct=self.correct,
            score=self.score,
            best_streak=self.best_streak,
            seconds=(now - self.started_at).total_seconds(),
            finished=finished,
            missed=missed,
            previous_best=previous_best,
            new_best=finished
            and self.round_id is not None  # a round not kept cannot be a best
            and self.score > 0
            and (previous_best is None or self.score > previous_best),
            next_due=next_due,
        )
