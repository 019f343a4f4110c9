"""What a round returns and keeps: the frozen `Outcome` of each answer, the `Status` line, the
`RoundSummary` at the end with each `Missed` question, and what undoing an answer needs
(`Answered`)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from datetime import datetime

from vocabgame.model import FaceKey
from vocabgame.quiz.question import Grade, Kind, Question


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
    time_bonus: int = 0  # points on top of `points` for answering fast (the challenge's)

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
    mode: str  # the id of the mode played (its results' wording follows it)

    @property
    def accuracy(self) -> float:
        return self.correct / self.answered if self.answered else 0.0


@dataclass(frozen=True, slots=True)
class Answered:
    """What undoing an answer needs: its outcome, its stored review and the round's state before
    it."""

    outcome: Outcome
    review_id: int | None  # None: not saved (read-only store)
    streak_before: int
    best_streak_before: int
    slot: tuple[int, FaceKey]  # the question's place in the queue and its face
    answered_at: datetime


def missed_questions(answers: Iterable[Answered]) -> tuple[Missed, ...]:
    """Each question answered wrong, once, as first asked (a calculation draws new numbers
    when it comes back), with every wrong answer given to that same wording."""
    missed_at: dict[FaceKey, Missed] = {}
    for a in answers:
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
    return tuple(missed_at.values())
