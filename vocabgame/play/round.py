"""A round: a queue of faces asked one at a time under a mode's rules. Each answer is saved as
it is given, and the round changes only after the store has it.

Everything a screen shows comes back as frozen objects: the `Question`, an `Outcome` per
answer, the `Status` line and the `RoundSummary` at the end.
"""

from __future__ import annotations

import random
from contextlib import suppress
from dataclasses import replace
from datetime import datetime, timedelta

from fsrs import Card

from vocabgame.kinds import build_question, grade
from vocabgame.model import Deck, FaceKey
from vocabgame.play.clock import RoundClock
from vocabgame.play.context import NO_LIMITS, Limits, RoundContext, Rules
from vocabgame.play.corrections import Corrections
from vocabgame.play.outcome import (
    Answered,
    Outcome,
    RoundSummary,
    Status,
    missed_questions,
)
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


class Round(Corrections):
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
        self._history: list[Answered] = []
        self._retries: dict[FaceKey, int] = {}
        # What the first answer to each question scored (points, right): an answer given
        # again after an undo scores no more, so undo cannot farm points.
        self._first: dict[tuple[int, FaceKey], tuple[int, bool]] = {}
        self._decks: dict[str, Deck] = {d.id: d for d in context.decks}
        self._traits = traits_of(context.decks)
        self._question: Question | None = None
        self._asked_at = started_at
        self.clock = RoundClock(limits, started_at, context.clock)
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
        return None if self.question() is None else self.clock.deadline(self.position)

    def time_left(self) -> float | None:
        """Seconds left on the current question's countdown, never below 0 (None: no
        countdown; 0 while its feedback shows)."""
        if self.question() is None:
            return None
        return self.clock.question_left(self.position, self._awaiting_next)

    def round_time_left(self) -> float | None:
        """Seconds left of the round's time limit, never below 0 (None: no limit)."""
        return self.clock.round_left()

    @property
    def out_of_time(self) -> bool:
        """The round's time limit has run out."""
        return self.clock.round_left() == 0.0

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
        now, key, store = self.context.clock(), question.key, self.context.store
        schedule = self._scheduler(verdict.rating, now)
        slot = (self.position, key)
        first = self._first.get(slot)
        points, streak = self._scored(verdict.correct, self.streak, first)
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
                review_id, card = store.answers.record(
                    review, schedule, self.round_id, totals, confusion=confusion
                )
        if review_id is None and schedule is not None:
            card = schedule(store.schedules.card(key), 0)  # shown, not kept
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
        self._history.append(Answered(outcome, review_id, self.streak, self.best_streak, slot, now))
        self.score, self.streak, self.best_streak = outcome.score, streak, best_streak
        self._awaiting_next = True
        return outcome

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
            self.context.store.face_flags.add(key, self.context.clock(), note)
        return key

    def toggle_flag(self) -> tuple[FaceKey, bool] | None:
        """Flag the current (or just answered) question, or take its flag back if it has one.
        Returns the face and whether it is flagged now; None when there is no question."""
        key = self._flag_key()
        if key is None:
            return None
        store = self.context.store
        if store.face_flags.is_flagged(key):
            store.face_flags.remove(key)
            return key, False
        store.face_flags.add(key, self.context.clock())
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
        previous_best = store.scoreboard.best_score(self.deck_id, exclude_round=self.round_id)
        next_due = self.context.next_due(self.deck_id)
        if not self.ended and self.round_id is not None and store.read_only is None:
            store.scoreboard.update(
                self.round_id,
                questions=self.answered,
                correct=self.correct,
                score=self.score,
                best_streak=self.best_streak,
                ended_at=now,
                finished=finished,
            )
        self.position, self._awaiting_next, self.ended = position, False, True
        return RoundSummary(
            deck_title=self.title,
            answered=self.answered,
            correct=self.correct,
            score=self.score,
            best_streak=self.best_streak,
            seconds=(now - self.started_at).total_seconds(),
            finished=finished,
            missed=missed_questions(self._history),
            previous_best=previous_best,
            new_best=finished
            and self.round_id is not None  # a round not kept cannot be a best
            and self.score > 0
            and (previous_best is None or self.score > previous_best),
            next_due=next_due,
            mode=self.rules.id,
        )
