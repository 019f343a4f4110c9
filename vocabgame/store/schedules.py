"""Each face's schedule (its FSRS card) and the reads that plan a round from them: what is
due, in what order, the least remembered first."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable, Iterable, Iterator
from datetime import datetime
from typing import Any

from fsrs import Card

from vocabgame.model import FaceKey
from vocabgame.srs import as_utc, load_card
from vocabgame.store.errors import explain
from vocabgame.store.part import Connected, Part, reads
from vocabgame.store.recall import (
    FORGOTTEN,
    RECALL,
    bounded_first_page,
    curve_at,
    fading_by_day,
    many_cards,
    microseconds,
    python_pow,
)

# Rows of `_by_recall`'s first page (a round's worth and what is skipped), and the most per
# page after it (each page works out every card's recall again, so pages grow).
_FIRST_PAGE = 256
_LAST_PAGE = 16384


class Schedules(Part):
    """Each face's schedule and the reads that plan a round from it."""

    def __init__(self, store: Connected) -> None:
        super().__init__(store)
        self._has_pow = False  # whether the connection is known to have `pow` (`weakest`)

    @reads
    def cards(self, deck_ids: Iterable[str] | None = None) -> dict[FaceKey, Card]:
        sql = "SELECT deck_id, item_id, face, card FROM cards"
        args: list[str] = []
        if deck_ids is not None:
            ids = list(deck_ids)
            sql += f" WHERE deck_id IN ({','.join('?' * len(ids))})"
            args = ids
        return {FaceKey(d, i, f): load_card(c) for d, i, f, c in self.conn.execute(sql, args)}

    @reads
    def card(self, key: FaceKey) -> Card | None:
        row = self.conn.execute(
            "SELECT card FROM cards WHERE deck_id=? AND item_id=? AND face=?",
            (key.deck_id, key.item_id, key.face),
        ).fetchone()
        return load_card(row[0]) if row else None

    def _due_rows(self, now: datetime, deck_ids: Iterable[str] | None) -> sqlite3.Cursor:
        """(deck id, item id, face) of each card due at `now`, of `deck_ids` if given."""
        sql = "SELECT deck_id, item_id, face FROM cards WHERE due <= ?"
        args: list[str] = [as_utc(now).isoformat()]
        if deck_ids is not None:
            ids = list(deck_ids)
            sql += f" AND deck_id IN ({','.join('?' * len(ids))})"
            args += ids
        return self.conn.execute(sql, args)

    @reads
    def due_counts(
        self, now: datetime, deck_ids: Iterable[str] | None = None
    ) -> dict[str, dict[tuple[str, str], None]]:
        """Per deck (of `deck_ids`, if given: then one range of the index on deck and due per
        deck instead of a pass over every card), the (item id, face) pairs due at `now`:
        plain tuples, for counting at any size."""
        out: dict[str, dict[tuple[str, str], None]] = {}
        for d, i, f in self._due_rows(now, deck_ids):
            out.setdefault(d, {})[(i, f)] = None
        return out

    @reads
    def cards_for(self, keys: Iterable[FaceKey]) -> dict[FaceKey, Card]:
        """The schedules of these faces (those answered), reading only their items' cards."""
        wanted = set(keys)
        items: dict[str, set[str]] = {}
        for key in wanted:
            items.setdefault(key.deck_id, set()).add(key.item_id)
        found: dict[FaceKey, Card] = {}
        for deck_id, item_ids in items.items():
            rows = self.conn.execute(
                "SELECT item_id, face, card FROM cards WHERE deck_id = ?"
                " AND item_id IN (SELECT value FROM json_each(?))",
                (deck_id, json.dumps(sorted(item_ids))),
            )
            for item_id, face, card in rows:
                key = FaceKey(deck_id, item_id, face)
                if key in wanted:
                    found[key] = load_card(card)
        return found

    @reads
    def soonest_due(self, deck_id: str, keep: Callable[[str, str], bool]) -> datetime | None:
        """The soonest due time of this deck's cards whose (item id, face) `keep` accepts, or
        None: the cards are read in due order through the index on deck and due, and only
        until one is kept, so no card is decoded and a deck's whole schedule is not read."""
        rows = self.conn.execute(
            "SELECT item_id, face, due FROM cards WHERE deck_id = ? ORDER BY due", (deck_id,)
        )
        try:
            while batch := rows.fetchmany(64):
                for item_id, face, due in batch:
                    if keep(item_id, face):
                        return as_utc(datetime.fromisoformat(due))
        finally:
            rows.close()
        return None

    @reads
    def keys(self) -> set[FaceKey]:
        """Every face that has a schedule, that is, every face answered at least once."""
        return {
            FaceKey(d, i, f)
            for d, i, f in self.conn.execute("SELECT deck_id, item_id, face FROM cards")
        }

    @reads
    def next_card_id(self) -> int:
        row = self.conn.execute("SELECT COALESCE(MAX(card_id), 0) + 1 FROM cards").fetchone()
        return int(row[0])

    @reads
    def faces_of(self, deck_id: str, item_id: str) -> set[str]:
        rows = self.conn.execute(
            "SELECT face FROM cards WHERE deck_id = ? AND item_id = ?", (deck_id, item_id)
        )
        return {face for (face,) in rows}

    def weakest(
        self,
        deck_ids: Iterable[str],
        now: datetime,
        curve: tuple[float, float],
        due_by: datetime | None = None,
    ) -> Iterator[FaceKey]:
        """Every scheduled face of these decks (due by `due_by`, if given), least remembered
        first (then due soonest, then by key). SQLite works out each card's retrievability as
        fsrs does (`curve` is the factor and decay of `Srs.forgetting_curve`): whole days
        since the last review, to the microsecond as Python's `timedelta.days` counts them,
        then the same arithmetic in doubles, so the order is the one `Srs.retrievability`
        gives, with no card decoded."""
        then = "due, deck_id, item_id, face"
        for d, i, f in self._by_recall(deck_ids, now, curve, then, due_by):
            yield FaceKey(d, i, f)

    def least_remembered(
        self, deck_ids: Iterable[str], now: datetime, curve: tuple[float, float]
    ) -> Iterator[tuple[str, str, str]]:
        """Every scheduled face of these decks as (deck id, item id, face), least remembered
        first, then by key: the order of sorting by (`Srs.retrievability`, key), with the
        retrievability worked out by SQLite as in `weakest`, so no card is decoded."""
        return self._by_recall(deck_ids, now, curve, "deck_id, item_id, face")

    def _by_recall(
        self,
        deck_ids: Iterable[str],
        now: datetime,
        curve: tuple[float, float],
        then: str,
        due_by: datetime | None = None,
    ) -> Iterator[tuple[str, str, str]]:
        """The decks' scheduled faces (due by `due_by`, if given) ordered by retrievability at
        `now`, then by `then` (column names, ending with the key's), read a page at a time:
        SQLite keeps only a page's rows in its sorter (a top-k, not a sort of every card), and
        a caller that stops after a round's worth reads one page."""
        ids = list(deck_ids)
        factor, decay = curve
        columns = [c.strip() for c in then.split(",")]
        decks = f" FROM cards WHERE deck_id IN ({','.join('?' * len(ids))})"
        # NULL (a stability of 0) sorts first as in a plain ORDER BY: below any recall
        if factor > 0 > decay:  # the ratio's order (a third of the time: no pow per card)
            ranked = f"SELECT COALESCE({FORGOTTEN}, -2e300) AS r, {then}{decks}"
            args: tuple[object, ...] = (microseconds(now), *ids)
        else:
            self._ensure_pow()
            ranked = f"SELECT COALESCE({RECALL}, -1) AS r, {then}{decks}"
            args = (factor, microseconds(now), decay, *ids)
        due = None if due_by is None else as_utc(due_by).isoformat()
        if due is not None:  # the times as written, all in UTC, compare as text
            ranked += " AND due <= ?"
            args += (due,)
        order = f"r, {then}"
        after = f"({order}) > ({','.join('?' * (len(columns) + 1))})"
        size, last = _FIRST_PAGE, None
        while True:
            try:
                bounded = None
                if last is None and factor > 0 > decay:
                    bounded = bounded_first_page(self.conn, ids, microseconds(now), then, due, size)
                if bounded is not None:
                    page = bounded
                elif last is None:
                    sql = f"{ranked} ORDER BY {order} LIMIT ?"
                    page = self.conn.execute(sql, (*args, size)).fetchall()
                else:
                    sql = f"SELECT * FROM ({ranked}) WHERE {after} ORDER BY {order} LIMIT ?"
                    page = self.conn.execute(sql, (*args, *last, size)).fetchall()
            except sqlite3.Error as exc:
                raise explain(self.path, exc) from None
            for row in page:
                yield row[-3], row[-2], row[-1]
            if len(page) < size:
                return
            last = page[-1]
            size = min(size * 4, _LAST_PAGE)

    @reads
    def recall_sum(
        self,
        deck_id: str,
        moment: datetime,
        curve: tuple[float, float],
        target: float,
        live: tuple[str, str] | None = None,
    ) -> tuple[int, float, int]:
        """Over one deck's scheduled faces (with `live`, only those of its items and face
        names: two JSON arrays), (faces, their retrievability at `moment` summed, faces below
        `target` there); SQLite works it out as in `weakest` from the kept columns and sums
        it, so one row comes back; kept until the store changes (`moment` is given, not the
        clock's)."""
        key = ("recall_sum", deck_id, moment, curve, target, live)
        return self._kept_read(key, lambda: self._recall_sum(deck_id, moment, curve, target, live))

    def _recall_sum(
        self,
        deck_id: str,
        moment: datetime,
        curve: tuple[float, float],
        target: float,
        live: tuple[str, str] | None,
    ) -> tuple[int, float, int]:
        where, args = "", tuple[str, ...]()
        if live is not None:
            where = (
                " AND item_id IN (SELECT value FROM json_each(?))"
                " AND face IN (SELECT value FROM json_each(?))"
            )
            args = live
        row = self._recall_rows(
            f"SELECT COUNT(*), COALESCE(SUM(r), 0), COALESCE(SUM(r < ?), 0) FROM"
            f" (SELECT {RECALL} AS r FROM cards WHERE deck_id = ?{where})",
            (target, *curve_at(curve, moment), deck_id, *args),
        )[0]
        return int(row[0]), float(row[1]), int(row[2])

    def recall_by_group(
        self,
        deck_id: str,
        groups: str,
        faces: str,
        moment: datetime,
        curve: tuple[float, float],
    ) -> list[tuple[int, float]]:
        """Per group of one deck's items (`groups`: a JSON object of item id -> the ids of
        the groups it is in), the retrievability at `moment` of its scheduled faces named in
        `faces` (a JSON array), summed by SQLite as in `recall_sum`: a row per group."""
        return self._recall_rows(
            "SELECT g.value, SUM(c.r)"
            f" FROM (SELECT j.value AS groups, {RECALL} AS r FROM json_each(?) AS j"
            " CROSS JOIN cards AS k ON k.deck_id = ? AND k.item_id = j.key"
            " WHERE k.face IN (SELECT value FROM json_each(?))) AS c"
            " CROSS JOIN json_each(c.groups) AS g GROUP BY g.value",
            (*curve_at(curve, moment), groups, deck_id, faces),
        )

    @reads
    def fading_by(
        self,
        deck_id: str,
        day: datetime,
        now: datetime,
        curve: tuple[float, float],
        target: float,
        any_recall_now: bool,
    ) -> list[tuple[str, str, float]]:
        """(item id, face, retrievability now) of one deck's faces due after `day` whose
        retrievability at `day` is below `target`, and (unless `any_recall_now`) at `target`
        or below now: lowest retrievability now first, then by key. Retrievability falls as
        whole days pass, so each test is one of days against stability (no power worked out
        for a card that does not qualify); the order is by `weakest`'s expression."""
        factor, decay = curve
        ratio = (target ** (1 / decay) - 1) / factor  # below target once days > ratio * S
        if ratio > 0 and many_cards(self.conn, [deck_id]):
            return fading_by_day(
                self._recall_rows, self.conn, deck_id, day, now, curve, ratio, any_recall_now
            )
        days = "MAX(0, (? - last_review) / 86400000000)"
        return self._recall_rows(
            # +due: read through the covering index on the deck, not due's (then each card)
            f"SELECT item_id, face, {RECALL} AS r_now FROM cards WHERE deck_id = ? AND +due > ?"
            f" AND (last_review IS NULL OR stability IS NULL OR ({days} > ? * stability"
            f" AND (? OR {days} >= ? * stability)))"
            " ORDER BY r_now, item_id, face",
            (
                *curve_at(curve, now),
                deck_id,
                as_utc(day).isoformat(),
                microseconds(day),
                ratio,
                any_recall_now,
                microseconds(now),
                ratio,
            ),
        )

    def _recall_rows(self, sql: str, args: tuple[object, ...]) -> list[Any]:
        self._ensure_pow()
        try:
            return self.conn.execute(sql, args).fetchall()
        except sqlite3.Error as exc:
            raise explain(self.path, exc) from None

    @reads
    def scheduled_of(self, deck_id: str, item_ids: Iterable[str]) -> set[tuple[str, str]]:
        """(item id, face) of each scheduled face of these items of one deck."""
        rows = self.conn.execute(
            "SELECT item_id, face FROM cards WHERE deck_id = ?"
            " AND item_id IN (SELECT value FROM json_each(?))",
            (deck_id, json.dumps(sorted(item_ids))),
        )
        return set(rows)

    def connection_changed(self) -> None:
        """The store opened a new connection: what was known of the old one is not known."""
        self._has_pow = False

    def _ensure_pow(self) -> None:
        """SQLite's `pow`, or Python's where SQLite was built without its math functions;
        asked once per connection."""
        if self._has_pow:
            return
        try:
            self.conn.execute("SELECT pow(2.0, 0.5)")
        except sqlite3.OperationalError as exc:
            if "no such function" not in str(exc):  # a store that cannot be read, not no pow
                raise explain(self.path, exc) from None
            self.conn.create_function("pow", 2, python_pow, deterministic=True)
        self._has_pow = True

    def soonest(self, deck_ids: Iterable[str]) -> Iterator[FaceKey]:
        """Every scheduled face of these decks, the one due soonest first (then by key)."""
        ids = list(deck_ids)
        try:
            rows = self.conn.execute(
                f"SELECT deck_id, item_id, face FROM cards WHERE deck_id IN ({','.join('?' * len(ids))})"
                " ORDER BY due, deck_id, item_id, face",
                ids,
            )
            for d, i, f in rows:
                yield FaceKey(d, i, f)
        except sqlite3.Error as exc:
            raise explain(self.path, exc) from None
