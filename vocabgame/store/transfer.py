"""Progress that travels (`vocabgame export-progress` and `import-progress`): every row of the
tables a progress file holds, as the record types of `rows`, and the writes of a merge. The
merge itself (what is new, what is replayed) is `vocabgame.progress`'s; every write here runs
inside the one transaction it holds (`store.transaction()`)."""

from __future__ import annotations

import json
from typing import Any, TypeVar

from fsrs import Card

from vocabgame.srs import dump_card
from vocabgame.store.part import Part, reads
from vocabgame.store.rows import FlagRow, RenameRow, ReviewRow, RoundRow, Row

Face = tuple[str, str, str]  # deck id, item id, face
RowT = TypeVar("RowT", bound=Row)


class Transfer(Part):
    """Every row a progress file holds, read and written as `rows` records."""

    # -- export ---------------------------------------------------------------------------------

    @reads
    def rows(self, kind: type[RowT]) -> list[RowT]:
        """Every row of `kind`'s table, in export order."""
        return [kind.from_db(row) for row in self.conn.execute(kind.select())]

    @reads
    def settings(self) -> dict[str, Any]:
        """Every stored setting, as its value."""
        return {k: json.loads(v) for k, v in self.conn.execute("SELECT key, value FROM settings")}

    # -- what is here already -------------------------------------------------------------------

    def round_ids(self) -> dict[tuple[str, str | None, str], int]:
        """Each round's id, by its start, deck and mode (`RoundRow.key`)."""
        rows = self.conn.execute("SELECT id, started_at, deck_id, mode FROM rounds")
        return {(s, d, m): i for i, s, d, m in rows}

    def answer_keys(self) -> set[tuple[Any, ...]]:
        """Every answer, as `ReviewRow.key`."""
        return set(
            self.conn.execute(
                "SELECT deck_id, item_id, face, reviewed_at, mode, rating, answer FROM reviews"
            )
        )

    def faces_with_history(self) -> set[Face]:
        """The faces with a scheduled answer or a schedule."""
        answered = self.conn.execute(
            "SELECT DISTINCT deck_id, item_id, face FROM reviews WHERE scheduled=1"
        )
        scheduled = self.conn.execute("SELECT deck_id, item_id, face FROM cards")
        return set(answered) | set(scheduled)

    def flag_keys(self) -> set[tuple[str, str, str, str]]:
        """Every flag, as (deck id, item id, face, when)."""
        return set(self.conn.execute("SELECT deck_id, item_id, face, flagged_at FROM flags"))

    def setting_keys(self) -> set[str]:
        return {k for (k,) in self.conn.execute("SELECT key FROM settings")}

    def card_id_taken(self, card_id: int) -> bool:
        row = self.conn.execute("SELECT 1 FROM cards WHERE card_id=?", (card_id,)).fetchone()
        return row is not None

    def card_id(self, face: Face) -> int | None:
        """The card id of the face's schedule, if it has one."""
        row = self.conn.execute(
            "SELECT card_id FROM cards WHERE deck_id=? AND item_id=? AND face=?", face
        ).fetchone()
        return None if row is None else int(row[0])

    def scheduled_history(self, face: Face) -> list[tuple[int, str, int]]:
        """The face's scheduled answers in time order: (review id, time, rating)."""
        return self.conn.execute(
            "SELECT id, reviewed_at, rating FROM reviews WHERE deck_id=? AND item_id=? AND face=?"
            " AND scheduled=1 ORDER BY reviewed_at, id",
            face,
        ).fetchall()

    # -- writes ---------------------------------------------------------------------------------

    def add_round(self, row: RoundRow) -> int:
        """Add the round (under a new id); returns that id."""
        cur = self.conn.execute(
            "INSERT INTO rounds (deck_id, mode, started_at, ended_at, questions, correct, score,"
            " best_streak, finished) VALUES (?,?,?,?,?,?,?,?,?)",
            row.to_db()[1:],
        )
        return int(cur.lastrowid or 0)

    def add_answer(self, row: ReviewRow) -> None:
        """Add the answer (its round_id already one of this store's rounds)."""
        self.conn.execute(
            f"INSERT INTO reviews ({', '.join(ReviewRow.names())})"
            f" VALUES ({','.join('?' * len(ReviewRow.names()))})",
            row.to_db(),
        )

    def put_card(self, face: Face, card: Card) -> None:
        """Set the face's schedule."""
        self.conn.execute(
            "INSERT INTO cards (deck_id, item_id, face, card_id, card, due) VALUES (?,?,?,?,?,?)"
            " ON CONFLICT (deck_id, item_id, face) DO UPDATE SET card=excluded.card,"
            " due=excluded.due",
            (*face, card.card_id, dump_card(card), card.due.isoformat()),
        )

    def set_card_before(self, review_id: int, card: Card | None) -> None:
        self.conn.execute(
            "UPDATE reviews SET card_before=? WHERE id=?",
            (dump_card(card) if card is not None else None, review_id),
        )

    def add_flag(self, row: FlagRow) -> None:
        self.conn.execute(
            "INSERT INTO flags (deck_id, item_id, face, flagged_at, note) VALUES (?,?,?,?,?)",
            row.to_db(),
        )

    def add_rename(self, row: RenameRow) -> None:
        """Keep a carried rename, unless this store already carried it."""
        self.conn.execute(
            "INSERT OR IGNORE INTO renames (deck_id, old_deck, old_item, new_item, carried_at,"
            " moved) VALUES (?,?,?,?,?,?)",
            row.to_db(),
        )

    def add_setting(self, key: str, value: object) -> None:
        self.conn.execute(
            "INSERT INTO settings (key, value) VALUES (?, ?)", (key, json.dumps(value))
        )
