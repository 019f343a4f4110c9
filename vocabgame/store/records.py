"""What the store hands back: plain frozen records of the rows it keeps."""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from vocabgame.model import FaceKey


@dataclass(frozen=True, slots=True)
class Review:
    """One answer as stored: the face, when, the rating and whether it was right, how long it took,
    the mode, the answer given and its points."""

    key: FaceKey
    reviewed_at: datetime
    rating: int
    correct: bool
    response_ms: int | None
    mode: str
    answer: str
    points: int = 0


@dataclass(frozen=True, slots=True)
class RoundRecord:
    """One round as stored: its deck, when it started and ended, its counts and score, and whether
    every question was answered."""

    id: int
    deck_id: str | None
    started_at: datetime
    ended_at: datetime | None
    questions: int
    correct: int
    score: int
    best_streak: int
    finished: bool


@dataclass(frozen=True, slots=True)
class Confusion:
    """One wrong pick: where the term `answer` was right, the player picked `picked`."""

    review_id: int
    deck_id: str
    answer: str
    picked: str
    at: datetime


@dataclass(frozen=True, slots=True)
class ReportRecord:
    """A stored report of a mode (a mock interview's), with its summary figures and its whole body."""

    id: int
    mode: str
    made_at: datetime
    decks: tuple[str, ...]
    questions: int
    correct: int
    seconds: float
    body: dict[str, Any]


def report_from_row(row: tuple[Any, ...]) -> ReportRecord:
    i, mode, at, decks, questions, correct, seconds, body = row
    return ReportRecord(
        i,
        mode,
        datetime.fromisoformat(at),
        tuple(json.loads(decks)),
        questions,
        correct,
        float(seconds),
        json.loads(body),
    )
