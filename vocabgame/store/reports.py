"""A mode's saved reports (the interview's, the challenge's runs)."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from datetime import datetime

from vocabgame.store.part import Part, reads
from vocabgame.store.records import ReportRecord, report_from_row


class SavedReports(Part):
    """A mode's saved reports (the interview's, the challenge's runs)."""

    def save(
        self,
        mode: str,
        made_at: datetime,
        decks: Sequence[str],
        questions: int,
        correct: int,
        seconds: float,
        body: Mapping[str, object],
    ) -> int:
        """Keep a mode's report (its body as JSON); returns its id."""
        with self.transaction() as conn:
            cur = conn.execute(
                "INSERT INTO reports (mode, made_at, decks, questions, correct, seconds, body)"
                " VALUES (?,?,?,?,?,?,?)",
                (
                    mode,
                    made_at.isoformat(),
                    json.dumps(list(decks)),
                    questions,
                    correct,
                    seconds,
                    json.dumps(body),
                ),
            )
            return int(cur.lastrowid or 0)

    @reads
    def all(self, mode: str | None = None) -> list[ReportRecord]:
        """Saved reports, oldest first (with `mode`, only that mode's)."""
        sql = "SELECT id, mode, made_at, decks, questions, correct, seconds, body FROM reports"
        args: tuple[str, ...] = ()
        if mode is not None:
            sql += " WHERE mode=?"
            args = (mode,)
        return [report_from_row(row) for row in self.conn.execute(sql + " ORDER BY id", args)]

    @reads
    def get(self, report_id: int) -> ReportRecord | None:
        row = self.conn.execute(
            "SELECT id, mode, made_at, decks, questions, correct, seconds, body FROM reports"
            " WHERE id=?",
            (report_id,),
        ).fetchone()
        return None if row is None else report_from_row(row)
