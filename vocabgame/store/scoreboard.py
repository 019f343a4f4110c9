"""The rounds: started, their running totals, finished; and their best scores."""

from __future__ import annotations

from datetime import datetime

from vocabgame.store.part import Part, reads
from vocabgame.store.records import RoundRecord


class Scoreboard(Part):
    """The rounds: started, their running totals, finished; and their best scores."""

    def start(self, deck_id: str | None, mode: str, now: datetime) -> int:
        with self.transaction() as conn:
            cur = conn.execute(
                "INSERT INTO rounds (deck_id, mode, started_at) VALUES (?,?,?)",
                (deck_id, mode, now.isoformat()),
            )
            return int(cur.lastrowid or 0)

    def update(
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
        with self.transaction() as conn:
            conn.execute(
                "UPDATE rounds SET questions=?, correct=?, score=?, best_streak=?, ended_at=?, finished=?"
                " WHERE id=?",
                (
                    questions,
                    correct,
                    score,
                    best_streak,
                    ended_at.isoformat() if ended_at else None,
                    int(finished),
                    round_id,
                ),
            )

    @reads
    def all(self, finished_only: bool = False) -> list[RoundRecord]:
        sql = "SELECT id, deck_id, started_at, ended_at, questions, correct, score, best_streak, finished FROM rounds"
        if finished_only:
            sql += " WHERE finished=1"
        return [
            RoundRecord(
                i,
                d,
                datetime.fromisoformat(s),
                datetime.fromisoformat(e) if e else None,
                q,
                c,
                sc,
                b,
                bool(f),
            )
            for i, d, s, e, q, c, sc, b, f in self.conn.execute(sql + " ORDER BY id")
        ]

    @reads
    def best_scores(self) -> dict[str | None, int]:
        """The best score of a finished round, per deck id (None: all decks together)."""
        rows = self.conn.execute(
            "SELECT deck_id, MAX(score) FROM rounds WHERE finished=1 GROUP BY deck_id"
        )
        return {deck_id: int(best) for deck_id, best in rows}

    @reads
    def finished_times(self, deck_id: str | None = None) -> list[datetime]:
        """When each finished round ended (or started, if it has no end), of one deck alone
        if given."""
        rows = self.conn.execute(
            "SELECT COALESCE(ended_at, started_at) FROM rounds WHERE finished=1"
            + (" AND deck_id = ?" if deck_id else "")
            + " ORDER BY id",
            (deck_id,) if deck_id else (),
        )
        return [datetime.fromisoformat(at) for (at,) in rows]

    @reads
    def count(self, finished_only: bool = False) -> int:
        sql = "SELECT COUNT(*) FROM rounds" + (" WHERE finished=1" if finished_only else "")
        return int(self.conn.execute(sql).fetchone()[0])

    @reads
    def best_score(self, deck_id: str | None, exclude_round: int | None = None) -> int | None:
        sql = "SELECT MAX(score) FROM rounds WHERE finished=1 AND deck_id IS ?"
        args: list[object] = [deck_id]
        if exclude_round is not None:
            sql += " AND id != ?"
            args.append(exclude_round)
        value = self.conn.execute(sql, args).fetchone()[0]
        return int(value) if value is not None else None

    @reads
    def best_by_mode(self, deck_id: str | None = None) -> dict[str, int]:
        """The best score of a finished round, per mode (as stored: learn is "review"), of
        one deck's rounds alone if given."""
        rows = self.conn.execute(
            "SELECT mode, MAX(score) FROM rounds WHERE finished=1"
            + (" AND deck_id = ?" if deck_id else "")
            + " GROUP BY mode",
            (deck_id,) if deck_id else (),
        )
        return {mode: int(best) for mode, best in rows}

    def set_totals(self, round_id: int, totals: tuple[int, int, int, int]) -> None:
        self.conn.execute(
            "UPDATE rounds SET questions=?, correct=?, score=?, best_streak=? WHERE id=?",
            (*totals, round_id),
        )
