"""Store methods kept for callers not yet moved to the parts.

Each is one line: the part method it names (`store.record(...)` is
`store.answers.record(...)`). Convert the callers, then delete this file and the base class
of `Store`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from datetime import datetime
from typing import TYPE_CHECKING

from fsrs import Card

from vocabgame.model import FaceKey
from vocabgame.settings import Settings
from vocabgame.store.records import Confusion, ReportRecord, Review, RoundRecord

if TYPE_CHECKING:
    from vocabgame.store.answers import Answers
    from vocabgame.store.confusables import Confusables
    from vocabgame.store.flags import FaceFlags
    from vocabgame.store.items import Items
    from vocabgame.store.preferences import Preferences
    from vocabgame.store.renames import Renames
    from vocabgame.store.reports import SavedReports
    from vocabgame.store.schedules import Schedules
    from vocabgame.store.scoreboard import Scoreboard


class Forwarders:
    """Store methods kept for callers not yet moved to the parts."""

    answers: Answers
    schedules: Schedules
    items: Items
    scoreboard: Scoreboard
    saved_reports: SavedReports
    confusables: Confusables
    face_flags: FaceFlags
    preferences: Preferences
    renames: Renames

    def cards(self, deck_ids: Iterable[str] | None = None) -> dict[FaceKey, Card]:
        return self.schedules.cards(deck_ids)

    def card(self, key: FaceKey) -> Card | None:
        return self.schedules.card(key)

    def cards_for(self, keys: Iterable[FaceKey]) -> dict[FaceKey, Card]:
        return self.schedules.cards_for(keys)

    def card_keys(self) -> set[FaceKey]:
        return self.schedules.keys()

    def scheduled_faces(self, deck_id: str, item_id: str) -> set[str]:
        return self.schedules.faces_of(deck_id, item_id)

    def due_order(
        self, now: datetime, deck_ids: Iterable[str]
    ) -> list[tuple[FaceKey, datetime, float | None, datetime | None]]:
        return self.schedules.due_order(now, deck_ids)

    def weakest(
        self, deck_ids: Iterable[str], now: datetime, curve: tuple[float, float]
    ) -> Iterator[FaceKey]:
        return self.schedules.weakest(deck_ids, now, curve)

    def soonest(self, deck_ids: Iterable[str]) -> Iterator[FaceKey]:
        return self.schedules.soonest(deck_ids)

    def record(
        self,
        review: Review,
        schedule: Callable[[Card | None, int], Card] | None,
        round_id: int | None,
        round_totals: tuple[int, int, int, int] | None = None,
        *,
        confusion: tuple[str, str] | None = None,
    ) -> tuple[int, Card | None]:
        return self.answers.record(review, schedule, round_id, round_totals, confusion=confusion)

    def undo(
        self,
        review_id: int,
        round_id: int | None = None,
        round_totals: tuple[int, int, int, int] | None = None,
    ) -> Review | None:
        return self.answers.undo(review_id, round_id, round_totals)

    def override(
        self,
        review_id: int,
        *,
        rating: int,
        points: int,
        schedule: Callable[[Card | None, int], Card] | None,
        round_totals: tuple[int, int, int, int] | None = None,
    ) -> Card | None:
        return self.answers.override(
            review_id, rating=rating, points=points, schedule=schedule, round_totals=round_totals
        )

    def reviews(self, deck_id: str | None = None) -> list[Review]:
        return self.answers.all(deck_id)

    def review_count(self) -> int:
        return self.answers.count()

    def overridden(self) -> list[int]:
        return self.answers.overridden_ids()

    def override_count(self) -> int:
        return self.answers.override_count()

    def answers_in_mode(self, mode: str) -> int:
        return self.answers.count_in_mode(mode)

    def first_seen(self) -> dict[tuple[str, str], datetime]:
        return self.items.first_seen()

    def items_scheduled_below(self, deck_id: str, faces: int) -> list[tuple[str, int]]:
        return self.items.scheduled_below(deck_id, faces)

    def started_item_ids(self, deck_id: str) -> set[str]:
        return self.items.started_ids(deck_id)

    def started_since(self, moment: datetime) -> dict[str, int]:
        return self.items.started_since(moment)

    def keep_orders(self, orders: Mapping[str, tuple[Sequence[str], str]]) -> bool:
        return self.items.keep_orders(orders)

    def next_new_items(
        self, deck_id: str, order: Sequence[str], digest: str, count: int
    ) -> list[str]:
        return self.items.next_new(deck_id, order, digest, count)

    def start_round(self, deck_id: str | None, mode: str, now: datetime) -> int:
        return self.scoreboard.start(deck_id, mode, now)

    def update_round(
        self,
        round_id: int,
        *,
        questions: int,
        correct: int,
        score: int,
        best_streak: int,
        ended_at: datetime | None = None,
        finished: bool = False,
    ) -> None:
        return self.scoreboard.update(
            round_id,
            questions=questions,
            correct=correct,
            score=score,
            best_streak=best_streak,
            ended_at=ended_at,
            finished=finished,
        )

    def rounds(self, finished_only: bool = False) -> list[RoundRecord]:
        return self.scoreboard.all(finished_only)

    def best_scores(self) -> dict[str | None, int]:
        return self.scoreboard.best_scores()

    def best_score(self, deck_id: str | None, exclude_round: int | None = None) -> int | None:
        return self.scoreboard.best_score(deck_id, exclude_round)

    def round_count(self, finished_only: bool = False) -> int:
        return self.scoreboard.count(finished_only)

    def best_round_scores_by_mode(self) -> dict[str, int]:
        return self.scoreboard.best_by_mode()

    def save_report(
        self,
        mode: str,
        made_at: datetime,
        decks: Sequence[str],
        questions: int,
        correct: int,
        seconds: float,
        body: Mapping[str, object],
    ) -> int:
        return self.saved_reports.save(mode, made_at, decks, questions, correct, seconds, body)

    def reports(self, mode: str | None = None) -> list[ReportRecord]:
        return self.saved_reports.all(mode)

    def report(self, report_id: int) -> ReportRecord | None:
        return self.saved_reports.get(report_id)

    def confusions(self) -> list[Confusion]:
        return self.confusables.all()

    def record_drill_answer(self, review_id: int, deck_id: str, a: str, b: str) -> None:
        return self.confusables.record_drill(review_id, deck_id, a, b)

    def drill_answers(self) -> list[tuple[int, str, str, str, bool]]:
        return self.confusables.drill_answers()

    def flag(self, key: FaceKey, now: datetime, note: str = "") -> None:
        return self.face_flags.add(key, now, note)

    def unflag(self, key: FaceKey) -> bool:
        return self.face_flags.remove(key)

    def is_flagged(self, key: FaceKey) -> bool:
        return self.face_flags.is_flagged(key)

    def flags(self) -> list[tuple[FaceKey, datetime, str]]:
        return self.face_flags.all()

    def settings(self) -> tuple[Settings, tuple[str, ...]]:
        return self.preferences.read()

    def save_settings(self, settings: Settings) -> None:
        return self.preferences.save(settings)

    def setting(self, key: str, default: object = None) -> object:
        return self.preferences.get(key, default)

    def set_setting(self, key: str, value: object) -> None:
        return self.preferences.set(key, value)

    def carry_renames(
        self, deck_id: str, old_decks: Sequence[str], items: Mapping[str, str], now: datetime
    ) -> list[str]:
        return self.renames.carry(deck_id, old_decks, items, now)
