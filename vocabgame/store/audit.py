"""Reading and repairing a database over a bare connection, with no `Store` opened on it (no
migration, no check at opening): for `vocabgame check`, which must read a damaged or old file
as it is, and for backups, which read another file than the store's."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Iterator, Sequence
from itertools import groupby

from vocabgame.store.schema import Summary

Face = tuple[str, str, str]  # deck id, item id, face
# One scheduled answer of a face, in the order saved: review id, time, rating, card before.
Link = tuple[int, str, int, str | None]


class Audit:
    """The queries and repairs of `vocabgame check` and of backups, on `conn` (autocommit:
    isolation_level=None; `begin` and `commit` make its one transaction)."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn

    # -- the transaction ----------------------------------------------------------------------

    def begin(self, write: bool) -> None:
        """A read transaction, or a write transaction from the start (nothing else writes
        until it ends)."""
        self.conn.execute("BEGIN IMMEDIATE" if write else "BEGIN")

    def commit(self) -> None:
        self.conn.execute("COMMIT")

    def rollback(self) -> None:
        """Roll back if a transaction is open (SQLite may have ended it already)."""
        if self.conn.in_transaction:
            self.conn.execute("ROLLBACK")

    # -- reads --------------------------------------------------------------------------------

    def integrity_problems(self) -> list[str]:
        """What SQLite's `PRAGMA integrity_check` finds (["ok"]: nothing)."""
        return [row[0] for row in self.conn.execute("PRAGMA integrity_check")]

    def orphan_answers(self) -> list[tuple[int, int]]:
        """(review id, round id) of each answer whose round is not there."""
        return self.conn.execute(
            "SELECT id, round_id FROM reviews WHERE round_id IS NOT NULL"
            " AND round_id NOT IN (SELECT id FROM rounds) ORDER BY id"
        ).fetchall()

    def cards(self) -> dict[Face, tuple[str, str]]:
        """Each schedule as stored: its card (JSON) and its `due` column."""
        return {
            (d, i, f): (card, due)
            for d, i, f, card, due in self.conn.execute(
                "SELECT deck_id, item_id, face, card, due FROM cards"
            )
        }

    def scheduled_chains(self) -> Iterator[tuple[Face, list[Link]]]:
        """Per face, its scheduled answers in the order they were saved."""
        rows = self.conn.execute(
            "SELECT deck_id, item_id, face, id, reviewed_at, rating, card_before FROM reviews"
            " WHERE scheduled=1 ORDER BY deck_id, item_id, face, id"
        )
        for face, group in groupby(rows, key=lambda r: (r[0], r[1], r[2])):
            yield face, [(rid, at, rating, before) for *_, rid, at, rating, before in group]

    def scheduled_chain(self, face: Face) -> list[Link]:
        """One face's scheduled answers in the order they were saved."""
        return self.conn.execute(
            "SELECT id, reviewed_at, rating, card_before FROM reviews"
            " WHERE deck_id = ? AND item_id = ? AND face = ? AND scheduled = 1 ORDER BY id",
            face,
        ).fetchall()

    def scheduled_count(self) -> int:
        """How many scheduled answers there are."""
        return int(
            self.conn.execute("SELECT COUNT(*) FROM reviews WHERE scheduled = 1").fetchone()[0]
        )

    def summary_differences(self, summary: Summary) -> tuple[int, int]:
        """How many rows a summary table keeps that the answers do not give, and how many
        they give that it lacks: counted by SQLite (EXCEPT), which holds neither side in
        memory, where a learned day per face makes a row for most answers."""
        kept, truth = summary.kept, summary.truth
        wrong = self.conn.execute(f"SELECT COUNT(*) FROM ({kept} EXCEPT {truth})").fetchone()[0]
        missing = self.conn.execute(f"SELECT COUNT(*) FROM ({truth} EXCEPT {kept})").fetchone()[0]
        return int(wrong), int(missing)

    def summary_rows(
        self, summary: Summary
    ) -> tuple[set[tuple[object, ...]], set[tuple[object, ...]]]:
        """A summary table's rows as kept, and as the answers give them."""
        return set(self.conn.execute(summary.kept)), set(self.conn.execute(summary.truth))

    def stored_settings(self) -> dict[str, str]:
        """The settings as stored (JSON text per key); none when they cannot be read."""
        try:
            return dict(self.conn.execute("SELECT key, value FROM settings").fetchall())
        except sqlite3.Error:
            return {}

    def has_progress(self) -> bool:
        """Whether anything worth a backup is kept: an answer, a round or a setting."""
        row = self.conn.execute(
            "SELECT EXISTS (SELECT 1 FROM reviews) OR EXISTS (SELECT 1 FROM rounds)"
            " OR EXISTS (SELECT 1 FROM settings)"
        ).fetchone()
        return bool(row[0])

    def contents(self) -> tuple[int, int, str | None]:
        """The answers, the rounds and the time of the last answer."""
        reviews, last = self.conn.execute(
            "SELECT COUNT(*), MAX(reviewed_at) FROM reviews"
        ).fetchone()
        rounds = self.conn.execute("SELECT COUNT(*) FROM rounds").fetchone()[0]
        return int(reviews), int(rounds), last

    # -- repairs ------------------------------------------------------------------------------

    def detach_answers(self, review_ids: Iterable[int]) -> None:
        """Keep these answers without a round."""
        self.conn.executemany(
            "UPDATE reviews SET round_id=NULL WHERE id=?", [(i,) for i in review_ids]
        )

    def delete_cards(self, faces: Iterable[Face]) -> None:
        self.conn.executemany(
            "DELETE FROM cards WHERE deck_id=? AND item_id=? AND face=?", list(faces)
        )

    def set_due(self, face: Face, due: str) -> None:
        self.conn.execute(
            "UPDATE cards SET due=? WHERE deck_id=? AND item_id=? AND face=?", (due, *face)
        )

    def rebuild_chain(
        self,
        face: Face,
        befores: Sequence[tuple[int, str | None]],
        card: tuple[int, str, str],
    ) -> None:
        """Write each answer's card-before (review id, card JSON or None) and the face's
        schedule (card id, card JSON, due)."""
        self.conn.executemany(
            "UPDATE reviews SET card_before=? WHERE id=?",
            [(before, rid) for rid, before in befores],
        )
        self.conn.execute(
            "INSERT INTO cards (deck_id, item_id, face, card_id, card, due) VALUES (?,?,?,?,?,?)"
            " ON CONFLICT (deck_id, item_id, face) DO UPDATE SET card_id=excluded.card_id,"
            " card=excluded.card, due=excluded.due",
            (*face, *card),
        )

    def rebuild_summary(self, summary: Summary) -> None:
        for statement in summary.rebuild:
            self.conn.execute(statement)
