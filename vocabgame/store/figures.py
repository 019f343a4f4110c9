"""The stats screen's figures, read from the summaries the triggers keep (and, where a scope
needs it, from the answers through the index on time)."""

from __future__ import annotations

from collections.abc import Container
from datetime import date, datetime, timedelta

from vocabgame.model import FaceKey
from vocabgame.srs import as_utc
from vocabgame.store.part import Part, reads
from vocabgame.store.schema import LEARNED

Face = tuple[str, str, str]  # deck id, item id, face: plain tuples, quick to hash at any size


class Figures(Part):
    """The stats screen's figures, from the summaries the triggers keep.

    `faces` limits a read to a scope's faces, as plain (deck id, item id, face) tuples: a
    tuple hashes and compares in C, a `FaceKey` through its dataclass methods (at 100k
    faces, a second and more)."""

    @reads
    def schedules_in(self, faces: Container[Face]) -> list[tuple[Face, datetime, float | None]]:
        """Each scheduled face of `faces`, with its due time and stability (read from the
        index that holds both: no card's JSON is read)."""
        return [
            ((d, i, f), datetime.fromisoformat(due), stability)
            for d, i, f, due, stability in self.conn.execute(
                "SELECT deck_id, item_id, face, due, stability FROM cards"
            )
            if (d, i, f) in faces
        ]

    @reads
    def face_totals(self) -> dict[Face, tuple[int, int, int]]:
        """Per face answered: its answers, right answers and lapses (wrong after it was
        learned), from the per-face summary: no pass over the whole history."""
        return {
            (d, i, f): (total, right, lapses)
            for d, i, f, total, right, lapses in self.conn.execute(
                "SELECT deck_id, item_id, face, reviews, right, lapses FROM face_stats"
            )
        }

    @reads
    def answers_per_quarter_in(
        self, faces: Container[Face], since: datetime
    ) -> list[tuple[datetime, int]]:
        """The answers to `faces` given in each quarter hour (UTC) from `since` on, per face:
        for a scope the per-deck summary cannot give (a tag's), read from the answers through
        the index on time."""
        bucket = (
            "strftime('%Y-%m-%dT%H', reviewed_at) || ':'"
            " || printf('%02d', CAST(strftime('%M', reviewed_at) AS INTEGER) / 15 * 15)"
        )
        return [
            (datetime.fromisoformat(at + ":00+00:00"), n)
            for d, i, f, at, n in self.conn.execute(
                f"SELECT deck_id, item_id, face, {bucket} AS b, COUNT(*) FROM reviews"
                " WHERE reviewed_at >= ? GROUP BY deck_id, item_id, face, b",
                (since.isoformat(),),
            )
            if (d, i, f) in faces
        ]

    @reads
    def wrong_answers_in(self, faces: Container[Face]) -> list[tuple[Face, str, int]]:
        """The wrong answers to `faces`, counted per face and text (the summary the triggers
        keep)."""
        return [
            ((d, i, f), given, n)
            for d, i, f, given, n in self.conn.execute(
                "SELECT deck_id, item_id, face, answer, times FROM wrong_answers"
            )
            if (d, i, f) in faces
        ]

    @reads
    def wrong_picks_in(self, faces: Container[Face]) -> list[tuple[Face, str, str, str, int]]:
        """The wrong answers to `faces` with a recorded pick, counted per face, text given and
        pick (the right term's id, the picked term's id)."""
        # CROSS JOIN keeps SQLite's join order: each confusion finds its answer by id,
        # rather than every answer ever given being read to find the few confused.
        return [
            ((d, i, f), given, right, picked, n)
            for d, i, f, given, right, picked, n in self.conn.execute(
                "SELECT r.deck_id, r.item_id, r.face, r.answer, c.answer_term, c.picked_term,"
                " COUNT(*) FROM confusions AS c CROSS JOIN reviews AS r ON r.id = c.review_id"
                " WHERE r.correct = 0 GROUP BY 1, 2, 3, 4, 5, 6"
            )
            if (d, i, f) in faces
        ]

    @reads
    def confidences_in(
        self, faces: Container[Face]
    ) -> list[tuple[datetime, int | None, float, bool]]:
        """The answers to `faces` the player said how sure they were of, oldest first: (when,
        round id, the chance of being right they gave, whether it was right), through the
        index on those few answers: no pass over the whole history."""
        return [
            (datetime.fromisoformat(at), round_id, float(said), bool(right))
            for d, i, f, at, round_id, said, right in self.conn.execute(
                "SELECT deck_id, item_id, face, reviewed_at, round_id, confidence, correct"
                " FROM reviews WHERE confidence IS NOT NULL ORDER BY reviewed_at, id"
            )
            if (d, i, f) in faces
        ]

    @reads
    def flags_in(self, faces: Container[Face]) -> int:
        """How many of `faces` are flagged."""
        rows = self.conn.execute("SELECT deck_id, item_id, face FROM flags")
        return sum(1 for d, i, f in rows if (d, i, f) in faces)

    @reads
    def answers_per_quarter(
        self, since: datetime, deck_id: str | None = None
    ) -> list[tuple[datetime, int]]:
        """The answers given in each quarter hour (UTC) from the one holding `since` on (of one
        deck, if given): from the per-quarter summary, a few thousand rows at any history."""
        start = as_utc(since)
        quarter = start.replace(minute=start.minute // 15 * 15).strftime("%Y-%m-%dT%H:%M")
        sql = "SELECT quarter, SUM(answers) FROM answer_quarters WHERE quarter >= ?"
        args: tuple[str, ...] = (quarter,)
        if deck_id is not None:
            sql += " AND deck_id = ?"
            args += (deck_id,)
        return [
            (datetime.fromisoformat(at + ":00+00:00"), int(n))
            for at, n in self.conn.execute(sql + " GROUP BY quarter", args)
        ]

    @reads
    def learned_answers(self, since: datetime) -> list[tuple[FaceKey, int, int]]:
        """Per face, the answers given at or after `since` to it once learned (FSRS's Review
        state when it was asked, a scheduled answer), and how many were right. Whole days
        come from the per-day summary; the answers of the day `since` falls in (its first ten
        characters, as the summary keys them: the same order as comparing the times written)
        from the reviews, through the index on time."""
        moment = since.isoformat()
        day = moment[:10]
        following = (date.fromisoformat(day) + timedelta(days=1)).isoformat()
        tally: dict[FaceKey, list[int]] = {}
        for d, i, f, n, right in self.conn.execute(
            "SELECT deck_id, item_id, face, SUM(answers), SUM(right) FROM learned_days"
            " WHERE day > ? GROUP BY deck_id, item_id, face",
            (day,),
        ):
            tally[FaceKey(d, i, f)] = [int(n), int(right)]
        for d, i, f, n, right in self.conn.execute(
            "SELECT deck_id, item_id, face, COUNT(*), SUM(correct) FROM reviews"
            f" WHERE reviewed_at >= ? AND reviewed_at < ? AND {LEARNED.format('')}"
            " GROUP BY deck_id, item_id, face",
            (moment, following),
        ):
            counts = tally.setdefault(FaceKey(d, i, f), [0, 0])
            counts[0] += int(n)
            counts[1] += int(right)
        return [(key, n, right) for key, (n, right) in tally.items()]
