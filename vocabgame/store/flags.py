"""Faces flagged for their deck's author, one flag per face, with a note."""

from __future__ import annotations

from datetime import datetime

from vocabgame.model import FaceKey
from vocabgame.store.part import Part, reads


class FaceFlags(Part):
    """Faces flagged for their deck's author, one flag per face, with a note."""

    def add(self, key: FaceKey, now: datetime, note: str = "") -> None:
        """Flag a face for its deck's author; a face is flagged once, so flagging it again
        only replaces its note (when one is given)."""
        with self.transaction() as conn:
            conn.execute(
                "INSERT INTO flags (deck_id, item_id, face, flagged_at, note) VALUES (?,?,?,?,?)"
                " ON CONFLICT (deck_id, item_id, face) DO UPDATE SET note=excluded.note"
                " WHERE excluded.note != ''",
                (key.deck_id, key.item_id, key.face, now.isoformat(), note),
            )

    def remove(self, key: FaceKey) -> bool:
        """Take a face's flag back; False if it had none."""
        with self.transaction() as conn:
            cur = conn.execute(
                "DELETE FROM flags WHERE deck_id=? AND item_id=? AND face=?",
                (key.deck_id, key.item_id, key.face),
            )
            return cur.rowcount > 0

    @reads
    def is_flagged(self, key: FaceKey) -> bool:
        row = self.conn.execute(
            "SELECT 1 FROM flags WHERE deck_id=? AND item_id=? AND face=?",
            (key.deck_id, key.item_id, key.face),
        ).fetchone()
        return row is not None

    @reads
    def all(self) -> list[tuple[FaceKey, datetime, str]]:
        rows = self.conn.execute(
            "SELECT deck_id, item_id, face, flagged_at, note FROM flags ORDER BY id"
        )
        return [(FaceKey(d, i, f), datetime.fromisoformat(at), n) for d, i, f, at, n in rows]
