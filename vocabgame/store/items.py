"""Per item, what the triggers keep from the answers (when it was first answered, its faces
scheduled) and each deck's kept order of new items: what the home screen and round planning
read instead of the answers.

An item is started once a face of it has a schedule: answers that move no schedule (cram,
a drill, misses again) leave it new, so practice moves no count of new or started items."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Mapping, Sequence
from datetime import datetime
from itertools import filterfalse, islice

from vocabgame.store.errors import StoreDamaged, StoreError
from vocabgame.store.part import Part, reads

# An item is started once a face of it has a schedule ({0}: the table's alias and a dot).
_STARTED = "{0}reviews > 0 AND {0}faces > 0"


class Items(Part):
    """Per item, what the triggers keep from its answers; each deck's kept order of new items."""

    @reads
    def first_seen(self) -> dict[tuple[str, str], datetime]:
        """When each started item (deck id, item id) was first answered."""
        rows = self.conn.execute(
            f"SELECT deck_id, item_id, first_at FROM items WHERE {_STARTED.format('')}"
        )
        return {(d, i): datetime.fromisoformat(at) for d, i, at in rows}

    @reads
    def deck_summary(self, deck_id: str, live: str) -> tuple[int, int, int, int]:
        """For one deck's live items (`live`: a JSON object of item id -> number of faces, in
        the order new items start): the items started, their faces with a schedule (at most
        the item's faces now), all their faces, and the faces of every live item learned
        (stable for weeks; at most the item's faces now). One indexed join, done by SQLite,
        whatever the number of items; done again only once a row of the store may have
        changed."""
        started = f"({_STARTED.format('i.')})"

        def summary() -> tuple[int, int, int, int]:
            row = self.conn.execute(
                f"SELECT TOTAL({started}), TOTAL({started} * MIN(i.faces, j.value)),"
                f" TOTAL({started} * j.value), TOTAL(MIN(i.learned, j.value))"
                " FROM json_each(?) AS j"  # CROSS JOIN: parse it once
                " CROSS JOIN items AS i ON i.deck_id = ? AND i.item_id = j.key",
                (live, deck_id),
            ).fetchone()
            return int(row[0]), int(row[1]), int(row[2]), int(row[3])

        return self._kept_read(("deck_summary", deck_id, live), summary)

    @reads
    def started_in(self, deck_id: str, live: str, since: datetime) -> tuple[int, int]:
        """Of one deck's items in `live` (a JSON object keyed by item id, as in
        `deck_summary`): the items started, and those of them first answered at or after
        `since`. One indexed join, whatever the history; kept until the store changes."""

        def count() -> tuple[int, int]:
            row = self.conn.execute(
                "SELECT COUNT(*), COALESCE(SUM(julianday(i.first_at) >= julianday(?)), 0)"
                " FROM json_each(?) AS j CROSS JOIN items AS i"
                f" ON i.deck_id = ? AND i.item_id = j.key WHERE {_STARTED.format('i.')}",
                (since.isoformat(), live, deck_id),
            ).fetchone()
            return int(row[0]), int(row[1])

        return self._kept_read(("started_in", deck_id, live, since), count)

    @reads
    def first_unstarted(self, deck_id: str, live: str, count: int) -> list[tuple[str, int]]:
        """The first `count` items of `live` (as in `deck_summary`) never answered, in order,
        with their number of faces (never started: answered, if at all, in practice only)."""
        if count <= 0:
            return []
        rows = self.conn.execute(
            "SELECT j.key, j.value FROM json_each(?) AS j WHERE NOT EXISTS (SELECT 1 FROM items"
            f" AS i WHERE i.deck_id = ? AND i.item_id = j.key AND {_STARTED.format('i.')})"
            " LIMIT ?",
            (live, deck_id, count),
        )
        return [(item, int(n)) for item, n in rows]

    @reads
    def first_short(self, deck_id: str, live: str, count: int) -> list[str]:
        """The first `count` items of `live` (as in `deck_summary`), in its order, with fewer
        faces scheduled than they have (never answered, or answered in part): one lookup in
        the per-item summary an item, until `count` are found."""
        rows = self.conn.execute(
            "SELECT j.key FROM json_each(?) AS j WHERE j.value > IFNULL((SELECT i.faces"
            " FROM items AS i WHERE i.deck_id = ? AND i.item_id = j.key), 0) LIMIT ?",
            (live, deck_id, count),
        )
        return [item_id for (item_id,) in rows]

    @reads
    def scheduled_below(self, deck_id: str, faces: int) -> list[tuple[str, int]]:
        """The deck's started items with fewer than `faces` faces scheduled, each with its
        number of scheduled faces."""
        rows = self.conn.execute(
            f"SELECT item_id, faces FROM items WHERE deck_id = ? AND {_STARTED.format('')}"
            " AND faces < ?",
            (deck_id, faces),
        )
        return [(item, int(n)) for item, n in rows]

    @reads
    def started_ids(self, deck_id: str) -> set[str]:
        """The ids of the deck's started items (one row: SQLite gathers them into a JSON array,
        quicker to read than a row per item)."""
        row = self.conn.execute(
            "SELECT json_group_array(item_id) FROM items WHERE deck_id = ?"
            f" AND {_STARTED.format('')}",
            (deck_id,),
        ).fetchone()
        return set(json.loads(row[0]))

    def keep_orders(self, orders: Mapping[str, tuple[Sequence[str], str]]) -> bool:
        """Keep each deck's items in the order new ones start (deck id -> (item ids, the
        digest naming that order)) where the store holds another order or none: one
        transaction for those, none when every order is kept already. False when the store
        cannot be written now (read-only, full, locked, an I/O error; nothing of it is kept):
        `next_new_items` then reads the slower way, and the next call tries again. A damaged
        store raises, as every read and write does."""
        if self._store.read_only is not None:
            return False
        kept = self._kept_digests()
        changed = {d: o for d, o in orders.items() if kept.get(d) != o[1]}
        if not changed:
            return True
        try:
            with self.transaction() as conn:
                for deck_id, (order, digest) in changed.items():
                    conn.execute("DELETE FROM item_order WHERE deck_id = ?", (deck_id,))
                    conn.execute(
                        "INSERT INTO item_order (deck_id, item_id, position, started)"
                        " SELECT ?1, j.value, j.key, EXISTS (SELECT 1 FROM items AS i"
                        " WHERE i.deck_id = ?1 AND i.item_id = j.value AND i.reviews > 0)"
                        " FROM json_each(?2) AS j WHERE true"
                        " ON CONFLICT (deck_id, item_id) DO NOTHING",
                        (deck_id, json.dumps(list(order))),
                    )
                    conn.execute(
                        "INSERT INTO item_orders VALUES (?, ?)"
                        " ON CONFLICT (deck_id) DO UPDATE SET digest = excluded.digest",
                        (deck_id, digest),
                    )
        except StoreDamaged:
            raise
        except StoreError:
            return False
        return True

    @reads
    def _kept_digests(self) -> dict[str, str]:
        return dict(self.conn.execute("SELECT deck_id, digest FROM item_orders"))

    def next_new(self, deck_id: str, order: Sequence[str], digest: str, count: int) -> list[str]:
        """The first `count` items of `order` (a deck's item ids in the order new ones start;
        `digest` names it) never answered. Where the store keeps that order (`keep_orders`),
        this reads `count` rows of an index at any history; where it cannot keep it (it
        cannot be written now), it reads the ids of every item started instead."""
        if count <= 0:
            return []
        found = self._unstarted_in_kept_order(deck_id, digest, count)
        if found is None and self.keep_orders({deck_id: (order, digest)}):
            found = self._unstarted_in_kept_order(deck_id, digest, count)
        if found is not None:
            return found
        started = self.started_ids(deck_id)
        return list(islice(filterfalse(started.__contains__, order), count))

    def _unstarted_in_kept_order(self, deck_id: str, digest: str, count: int) -> list[str] | None:
        """The first `count` items never started in the deck's kept order, or None when the
        order kept is not the one `digest` names. The kept order marks an item started at its
        first answer (its triggers); those answered in practice only are read apart (the
        deck's items, as `scheduled_below` reads them) and put back in their place."""
        with self.snapshot() as conn:
            row = conn.execute(
                "SELECT digest FROM item_orders WHERE deck_id = ?", (deck_id,)
            ).fetchone()
            if row is None or row[0] != digest:
                return None
            rows = conn.execute(
                "SELECT position, item_id FROM item_order WHERE deck_id = ? AND started = 0"
                " ORDER BY position LIMIT ?",
                (deck_id, count),
            ).fetchall()
            rows += conn.execute(
                "SELECT o.position, o.item_id FROM items AS i CROSS JOIN item_order AS o"
                " ON o.deck_id = i.deck_id AND o.item_id = i.item_id"
                " WHERE i.deck_id = ? AND i.reviews > 0 AND i.faces <= 0",
                (deck_id,),
            ).fetchall()
            return [item_id for _, item_id in sorted(rows)[:count]]

    @reads
    def started_since(self, moment: datetime) -> dict[str, int]:
        """Per deck, the started items first answered at or after `moment`: a range of the
        index items_first, counted here (grouped by SQLite, the count would walk every item in
        deck order instead)."""
        rows = self.conn.execute(
            "SELECT deck_id FROM items WHERE reviews > 0 AND julianday(first_at) >= julianday(?)"
            " AND faces > 0",
            (moment.isoformat(),),
        )
        return dict(Counter(deck_id for (deck_id,) in rows))
