"""What a screen shows and what it sends back: a `Question` with its choices, the player's
`Response`, and the `Grade` with everything the feedback explains.

Plain frozen data that a test builds without a terminal. Which question an item yields, and how
an answer is graded, is each kind of item's (`vocabgame.kinds`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum

from vocabgame.model import FaceKey, Source, Tolerance

CHOICES_PER_QUESTION = 4


class Kind(StrEnum):
    CHOICE = "choice"  # pick one of the numbered choices
    TYPED = "typed"  # type a term
    NUMBER = "number"  # type a number
    RECALL = "recall"  # think, reveal, grade yourself


class Face(StrEnum):
    DEFINITION = "definition"  # term shown, pick its definition
    TERM = "term"  # definition shown, pick the term
    TYPED = "typed"  # definition shown, type the term
    SCENARIO = "scenario"
    CLAIM = "claim"
    RECALL = "recall"
    CALCULATION = "calculation"
    # confusable groups use "cue-1", "cue-2", ...


@dataclass(frozen=True, slots=True)
class Choice:
    """One choice of a question: the text shown and the value grading compares."""

    text: str  # what the player reads
    value: str  # what grading compares: a term id, literal text, "true"/"false"


@dataclass(frozen=True, slots=True)
class Question:
    """One face of an item as the player is asked it, with what grading needs to judge the
    answer."""

    key: FaceKey
    kind: Kind
    label: str  # what kind of question, in the player's words
    prompt: str
    choices: tuple[Choice, ...] = ()
    answer: str = ""  # the right choice's value, the expected term, or the model answer
    accepted: tuple[str, ...] = ()  # typed faces: every spelling that counts
    expected: float | None = None  # calculations
    unit: str | None = None
    tolerance: Tolerance | None = None
    key_points: tuple[str, ...] = ()
    deck_title: str = ""
    values: tuple[tuple[str, float], ...] = ()  # calculations: the numbers drawn
    labels: tuple[tuple[str, str], ...] = ()  # calculations: each number's label as shown
    version: str | None = None  # the release a version-sensitive fact describes
    mistake: str | None = None  # recall: what a weak answer says


@dataclass(frozen=True, slots=True)
class Grade:
    """The verdict on one answer, with everything the feedback screen shows."""

    correct: bool
    rating: int  # FSRS rating 1-4: Again, Hard, Good, Easy
    given: str  # the answer as the player gave it
    right_answer: str
    explanation: str = ""
    why_not: str | None = None
    distinction: str | None = None
    note: str | None = None  # e.g. a forgiven typo
    key_points: tuple[str, ...] = ()
    mistake: str | None = None  # recall: what a weak answer says, shown after the model answer
    sources: tuple[Source, ...] = ()
    explains_why: bool = False  # the explanation says why the answer fits (not a definition)
    next_due: datetime | None = field(default=None, compare=False)


RATING_NAMES = {1: "Again", 2: "Hard", 3: "Good", 4: "Easy"}


@dataclass(frozen=True, slots=True)
class Picked:
    """A numbered choice, 0-based."""

    index: int


@dataclass(frozen=True, slots=True)
class Typed:
    """Typed text: a term, or a number."""

    text: str


@dataclass(frozen=True, slots=True)
class SelfGraded:
    """A recall answer the player graded: 1 Again, 2 Hard, 3 Good, 4 Easy."""

    rating: int
    notes: str = ""


Response = Picked | Typed | SelfGraded


@dataclass(frozen=True, slots=True)
class Refused:
    """A response that is not an answer to the question: text where a number is asked, or a
    number in another unit. Nothing is recorded; `reason` is the one line telling why."""

    reason: str
