"""The stats screen's figures, read from the summaries the triggers keep (and, where a scope
needs it, from the answers through the index on time)."""

from __future__ import annotations

from datetime import date, datetime, timedelta

from vocabgame.model import FaceKey
from vocabgame.srs import as_utc
from vocabgame.store.part import Part, reads
from vocabgame.store.schema import LEARNED


class Figures(Part):
    """The stats screen's figures, from the summaries the triggers keep."""

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
