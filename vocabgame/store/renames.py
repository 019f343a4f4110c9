"""Progress carried from a deck's or an item's old ids (`formerly` in a deck) to its new ones."""

from __future__ import annotations

import sqlite3
from collections.abc import Mapping, Sequence
from datetime import datetime

from vocabgame.store.errors import explain
from vocabgame.store.part import Part


class Renames(Part):
    """Progress carried from a deck's or an item's old ids (`formerly` in a deck) to its new ones."""

    def carry(
        self, deck_id: str, old_decks: Sequence[str], items: Mapping[str, str], now: datetime
    ) -> list[str]:
        """Carry progress recorded under a deck's old ids (`old_decks`) and its items' old ids
        (`items`: old -> new) to the current ids, each rename once: a carried rename is
        remembered and never carried again. Progress is never merged: when the new id already
        has some, the old stays where it is. Returns one sentence per rename that moved or
        kept progress apart; nothing when there was nothing to do."""

        def pending() -> list[tuple[str, str, str]]:
            done = {
                (d, i)
                for d, i in self.conn.execute(
                    "SELECT old_deck, old_item FROM renames WHERE deck_id=?", (deck_id,)
                )
            }
            return [(old, "", "") for old in old_decks if (old, "") not in done] + [
                (deck_id, old, new) for old, new in items.items() if (deck_id, old) not in done
            ]

        try:  # a read first: once every rename is carried, starting the game writes nothing
            if not pending():
                return []
        except sqlite3.Error as exc:
            raise explain(self.path, exc) from None
        with self.transaction():
            said: list[str] = []
            for old_deck, old_item, new_item in pending():  # again, inside the write lock
                said += self._carry(deck_id, old_deck, old_item, new_item, now)
            return said

    def _carry(
        self, deck_id: str, old_deck: str, old_item: str, new_item: str, now: datetime
    ) -> list[str]:
        conn = self.conn
        whole_deck = not old_item
        where, args = (
            ("deck_id=?", (old_deck,))
            if whole_deck
            else (
                "deck_id=? AND item_id=?",
                (old_deck, old_item),
            )
        )
        target = (
            ("deck_id=?", (deck_id,))
            if whole_deck
            else (
                "deck_id=? AND item_id=?",
                (deck_id, new_item),
            )
        )
        has_old = conn.execute(f"SELECT 1 FROM reviews WHERE {where} LIMIT 1", args).fetchone()
        has_new = conn.execute(
            f"SELECT 1 FROM reviews WHERE {target[0]} LIMIT 1", target[1]
        ).fetchone()
        moved = bool(has_old) and not has_new
        said = []
        what = f"deck {old_deck!r}" if whole_deck else f"{old_item!r} in deck {deck_id!r}"
        new = f"{deck_id!r}" if whole_deck else f"{new_item!r}"
        if moved:
            setting = "deck_id=?" if whole_deck else "item_id=?"
            value = deck_id if whole_deck else new_item
            for table in ("cards", "reviews"):
                conn.execute(f"UPDATE {table} SET {setting} WHERE {where}", (value, *args))
            # One flag per face: a face flagged under both ids keeps the flag of its new id.
            conn.execute(f"UPDATE OR IGNORE flags SET {setting} WHERE {where}", (value, *args))
            conn.execute(f"DELETE FROM flags WHERE {where}", args)
            if whole_deck:
                conn.execute("UPDATE rounds SET deck_id=? WHERE deck_id=?", (deck_id, old_deck))
            said.append(f"Progress on {what} was carried to its new id {new}.")
        elif has_old:
            said.append(
                f"Progress on {what} was kept apart: its new id {new} already has progress of "
                "its own."
            )
        conn.execute(
            "INSERT INTO renames (deck_id, old_deck, old_item, new_item, carried_at, moved)"
            " VALUES (?,?,?,?,?,?)",
            (deck_id, old_deck, old_item, new_item, now.isoformat(), int(moved)),
        )
        return said
