"""Progress in SQLite: every answer is committed the moment it is given.

One file, `<data dir>/vocabgame.db`, in WAL mode. The schema version lives in
`PRAGMA user_version`; `MIGRATIONS[n]` takes a database from version n to n + 1.
Progress is keyed by deck id + item id + face, so editing a deck's wording keeps it, and the
history of removed items stays.
"""

from __future__ import annotations

import functools
import json
import os
import sqlite3
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager, suppress
from datetime import UTC, date, datetime, timedelta
from itertools import filterfalse, islice
from pathlib import Path
from typing import ParamSpec, TypeVar

from fsrs import Card

from vocabgame.model import FaceKey
from vocabgame.settings import Settings
from vocabgame.srs import as_utc, dump_card, load_card
from vocabgame.store.errors import (
    StoreDamaged,
    StoreError,
    StoreReadOnly,
)
from vocabgame.store.errors import (
    check_path as _check_path,
)
from vocabgame.store.errors import (
    explain as _explain,
)
from vocabgame.store.errors import (
    read_only as _read_only,
)
from vocabgame.store.records import Confusion, ReportRecord, Review, RoundRecord, _report
from vocabgame.store.schema import LEARNED, MIGRATIONS, SCHEMA_VERSION
from vocabgame.store.schema import statements as _statements

DB_NAME = "vocabgame.db"
QUICK_CHECK_BYTES = 32 * 1024 * 1024  # stores up to this size are checked whole at opening

P = ParamSpec("P")
R = TypeVar("R")


# Microseconds since 1970 of an ISO time as `datetime.isoformat` writes it (seconds from
# SQLite, the six digits of a fraction from the text).
# (The fraction is cut out before SQLite reads the seconds: it would round .9995 up.)
_MICROSECONDS = (
    "(CASE WHEN substr({0}, 20, 1) = '.'"
    " THEN CAST(strftime('%s', substr({0}, 1, 19) || substr({0}, 27)) AS INTEGER) * 1000000"
    " + CAST(substr({0}, 21, 6) AS INTEGER)"
    " ELSE CAST(strftime('%s', {0}) AS INTEGER) * 1000000 END)"
)


def _microseconds(moment: datetime) -> int:
    delta = as_utc(moment) - datetime(1970, 1, 1, tzinfo=UTC)
    return (delta.days * 86400 + delta.seconds) * 1_000_000 + delta.microseconds


def _pow(base: float, exponent: float) -> float:
    return float(base) ** float(exponent)


def _reads(method: Callable[P, R]) -> Callable[P, R]:
    """A read that SQLite refuses (damage, an I/O error, a lock) raises the store's own
    one-sentence error, as writes do."""

    @functools.wraps(method)
    def read(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return method(*args, **kwargs)
        except sqlite3.Error as exc:
            store = args[0]
            assert isinstance(store, Store)
            raise _explain(store.path, exc) from None

    return read


class Store:
    """The SQLite store. Open with `Store.open(path)`; every write commits before returning."""

    def __init__(self, conn: sqlite3.Connection, path: Path) -> None:
        self.conn = conn
        self.path = path
        # Set when the database cannot be written: reading and playing go on, unsaved.
        self.read_only: StoreReadOnly | None = None
        self.notices: list[str] = []  # sentences to show once, e.g. an empty file set up anew
        self._has_pow = False  # whether the connection is known to have `pow` (`weakest`)

    @classmethod
    def open(
        cls,
        path: Path,
        timeout: float = 2.0,
        factory: type[sqlite3.Connection] = sqlite3.Connection,
    ) -> Store:
        """Open (creating or migrating) the database; raises StoreError with one clear sentence.

        A database that can be read but not written opens read-only (`read_only` says why).
        `factory` is the connection class (tests inject faults with it)."""
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise StoreError(
                f"Cannot create the data folder {path.parent} ({exc.strerror})."
            ) from None
        notice = _check_path(path)
        try:
            conn = sqlite3.connect(
                path,
                timeout=timeout,
                isolation_level=None,
                check_same_thread=False,
                factory=factory,
            )
        except sqlite3.Error as exc:
            raise _explain(path, exc) from None
        store = cls(conn, path)
        if notice:
            store.notices.append(notice)
        try:
            store.schema_version()  # a newer database is refused before anything is written
            # FULL: an acknowledged answer survives a power loss, not only a crash (about
            # 0.3 ms more per answer; see docs/reliability.md).
            conn.execute("PRAGMA synchronous=FULL")
            conn.execute("PRAGMA foreign_keys=ON")
            try:
                conn.execute("PRAGMA journal_mode=WAL")
                store.migrate()
            except (sqlite3.Error, StoreReadOnly) as exc:
                error = _explain(path, exc) if isinstance(exc, sqlite3.Error) else exc
                if not isinstance(error, StoreReadOnly):
                    raise error from None
                if store.schema_version() != SCHEMA_VERSION:
                    raise error from None  # an old schema that cannot be migrated
                store.read_only = error
            if store.read_only is None and not os.access(path, os.W_OK):
                store.read_only = _read_only(path, unsaved=False)
            # quick_check reads every page: at opening, only while that is quick. A larger
            # store's damage is reported, in one sentence, where a read or write meets it,
            # and `vocabgame check` (and every backup) checks the whole file.
            check = "ok"
            if path.exists() and path.stat().st_size <= QUICK_CHECK_BYTES:
                check = conn.execute("PRAGMA quick_check").fetchone()[0]
            else:  # the schema at least must read
                conn.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()
            if check != "ok":
                raise sqlite3.DatabaseError(f"database disk image is malformed: {check}")
        except sqlite3.Error as exc:
            conn.close()
            raise _explain(path, exc) from None
        except StoreError:
            conn.close()
            raise
        return store

    def schema_version(self) -> int:
        version = int(self.conn.execute("PRAGMA user_version").fetchone()[0])
        if version > SCHEMA_VERSION:
            raise StoreError(
                f"The progress database {self.path} was written by a newer vocabgame "
                f"(schema {version}); upgrade vocabgame to use it (nothing was changed)."
            )
        return version

    def migrate(self) -> None:
        version = self.schema_version()
        for number in range(version, SCHEMA_VERSION):
            with self.transaction():
                for statement in _statements(MIGRATIONS[number]):
                    self.conn.execute(statement)
                self.conn.execute(f"PRAGMA user_version = {number + 1}")

    def close(self) -> None:
        self.conn.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """One write transaction. Any SQLite error inside it becomes a StoreError with one
        sentence; the transaction is rolled back if SQLite has not already done so, so
        nothing of it is kept and the store stays usable."""
        try:
            self.conn.execute("BEGIN IMMEDIATE")
        except sqlite3.Error as exc:
            raise self._refused(exc) from None
        try:
            yield self.conn
            self.conn.execute("COMMIT")
        except BaseException as exc:
            if self.conn.in_transaction:  # SQLite rolls back by itself on a full disk
                with suppress(sqlite3.Error):  # the cause below is the one to report
                    self.conn.execute("ROLLBACK")
            if isinstance(exc, sqlite3.Error):
                raise self._refused(exc) from None
            raise

    @contextmanager
    def snapshot(self) -> Iterator[sqlite3.Connection]:
        """A read transaction: every read inside sees the same moment, even while another
        vocabgame writes. Errors become the store's own one sentence."""
        try:
            self.conn.execute("BEGIN")
            try:
                yield self.conn
            finally:
                if self.conn.in_transaction:
                    try:
                        self.conn.execute("COMMIT")
                    except sqlite3.Error:  # never leave the read transaction open
                        with suppress(sqlite3.Error):
                            self.conn.execute("ROLLBACK")
                        raise
        except sqlite3.Error as exc:
            raise _explain(self.path, exc) from None

    def _refused(self, exc: sqlite3.Error) -> StoreError:
        error = _explain(self.path, exc, unsaved=True)
        if isinstance(error, StoreReadOnly):
            self.read_only = error
        return error

    # -- cards ----------------------------------------------------------------------------

    @_reads
    def cards(self, deck_ids: Iterable[str] | None = None) -> dict[FaceKey, Card]:
        sql = "SELECT deck_id, item_id, face, card FROM cards"
        args: list[str] = []
        if deck_ids is not None:
            ids = list(deck_ids)
            sql += f" WHERE deck_id IN ({','.join('?' * len(ids))})"
            args = ids
        return {FaceKey(d, i, f): load_card(c) for d, i, f, c in self.conn.execute(sql, args)}

    @_reads
    def card(self, key: FaceKey) -> Card | None:
        row = self.conn.execute(
            "SELECT card FROM cards WHERE deck_id=? AND item_id=? AND face=?",
            (key.deck_id, key.item_id, key.face),
        ).fetchone()
        return load_card(row[0]) if row else None

    @_reads
    def due_keys(self, now: datetime, deck_ids: Iterable[str] | None = None) -> set[FaceKey]:
        """The faces due at `now` (uses the index on due)."""
        return {FaceKey(d, i, f) for d, i, f in self._due_rows(now, deck_ids)}

    def _due_rows(self, now: datetime, deck_ids: Iterable[str] | None) -> sqlite3.Cursor:
        """(deck id, item id, face) of each card due at `now`, of `deck_ids` if given."""
        sql = "SELECT deck_id, item_id, face FROM cards WHERE due <= ?"
        args: list[str] = [as_utc(now).isoformat()]
        if deck_ids is not None:
            ids = list(deck_ids)
            sql += f" AND deck_id IN ({','.join('?' * len(ids))})"
            args += ids
        return self.conn.execute(sql, args)

    @_reads
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

    @_reads
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

    @_reads
    def card_keys(self) -> set[FaceKey]:
        """Every face that has a schedule, that is, every face answered at least once."""
        return {
            FaceKey(d, i, f)
            for d, i, f in self.conn.execute("SELECT deck_id, item_id, face FROM cards")
        }

    @_reads
    def next_card_id(self) -> int:
        row = self.conn.execute("SELECT COALESCE(MAX(card_id), 0) + 1 FROM cards").fetchone()
        return int(row[0])

    # -- answers --------------------------------------------------------------------------

    def record(
        self,
        review: Review,
        schedule: Callable[[Card | None, int], Card] | None,
        round_id: int | None,
        round_totals: tuple[int, int, int, int] | None = None,
        *,
        confusion: tuple[str, str] | None = None,
    ) -> tuple[int, Card | None]:
        """Save an answer, its face's new schedule, the round's running totals (questions,
        correct, score, best streak) and the confusion the answer shows, (the right term, the
        term picked) if any, in one write transaction; returns the review id and the new card.

        `schedule(card, new_card_id)` computes the new card from the stored one (None: never
        answered; then `new_card_id` is free) inside the transaction, so two processes
        answering at once never schedule from a stale card or reuse a card id. `schedule`
        None: the mode leaves the schedule alone."""
        key = review.key
        with self.transaction() as conn:
            before = card = None
            if schedule is not None:
                before = self.card(key)
                card = schedule(before, self.next_card_id() if before is None else 0)
            cur = conn.execute(
                "INSERT INTO reviews (round_id, deck_id, item_id, face, reviewed_at, rating, correct,"
                " response_ms, mode, answer, points, card_before, scheduled)"
                " VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)",
                (
                    round_id,
                    key.deck_id,
                    key.item_id,
                    key.face,
                    review.reviewed_at.isoformat(),
                    review.rating,
                    int(review.correct),
                    review.response_ms,
                    review.mode,
                    review.answer,
                    review.points,
                    dump_card(before) if before is not None else None,
                    int(card is not None),
                ),
            )
            if card is not None:
                conn.execute(
                    "INSERT INTO cards (deck_id, item_id, face, card_id, card, due) VALUES (?,?,?,?,?,?)"
                    " ON CONFLICT (deck_id, item_id, face) DO UPDATE SET card=excluded.card, due=excluded.due",
                    (
                        key.deck_id,
                        key.item_id,
                        key.face,
                        card.card_id,
                        dump_card(card),
                        card.due.isoformat(),
                    ),
                )
            review_id = int(cur.lastrowid or 0)
            if confusion is not None:
                conn.execute(
                    "INSERT OR REPLACE INTO confusions"
                    " (review_id, deck_id, answer_term, picked_term) VALUES (?,?,?,?)",
                    (review_id, key.deck_id, *confusion),
                )
            if round_id is not None and round_totals is not None:
                self._set_totals(round_id, round_totals)
            return review_id, card

    def undo(
        self,
        review_id: int,
        round_id: int | None = None,
        round_totals: tuple[int, int, int, int] | None = None,
    ) -> Review | None:
        """Remove an answer, put its face's schedule back to how it was before it, and set the
        round's totals, all in one transaction. None: there was no such answer."""
        with self.transaction() as conn:
            row = conn.execute(
                "SELECT deck_id, item_id, face, reviewed_at, rating, correct, response_ms, mode,"
                " answer, points, card_before, scheduled FROM reviews WHERE id=?",
                (review_id,),
            ).fetchone()
            if row is None:
                return None
            deck_id, item_id, face, at, rating, correct, ms, mode, answer, points, before, sched = (
                row
            )
            conn.execute("DELETE FROM reviews WHERE id=?", (review_id,))
            if sched and before is None:
                conn.execute(
                    "DELETE FROM cards WHERE deck_id=? AND item_id=? AND face=?",
                    (deck_id, item_id, face),
                )
            elif sched:
                card = load_card(before)
                conn.execute(
                    "UPDATE cards SET card=?, due=? WHERE deck_id=? AND item_id=? AND face=?",
                    (before, card.due.isoformat(), deck_id, item_id, face),
                )
            if round_id is not None and round_totals is not None:
                self._set_totals(round_id, round_totals)
        return Review(
            FaceKey(deck_id, item_id, face),
            datetime.fromisoformat(at),
            rating,
            bool(correct),
            ms,
            mode,
            answer,
            points,
        )

    def _set_totals(self, round_id: int, totals: tuple[int, int, int, int]) -> None:
        self.conn.execute(
            "UPDATE rounds SET questions=?, correct=?, score=?, best_streak=? WHERE id=?",
            (*totals, round_id),
        )

    @_reads
    def reviews(self, deck_id: str | None = None) -> list[Review]:
        sql = "SELECT deck_id, item_id, face, reviewed_at, rating, correct, response_ms, mode, answer, points FROM reviews"
        args: tuple[str, ...] = ()
        if deck_id is not None:
            sql += " WHERE deck_id=?"
            args = (deck_id,)
        return [
            Review(FaceKey(d, i, f), datetime.fromisoformat(at), r, bool(c), ms, m, a, p)
            for d, i, f, at, r, c, ms, m, a, p in self.conn.execute(sql + " ORDER BY id", args)
        ]

    @_reads
    def review_count(self) -> int:
        """Every answer kept (from the per-item summary: no count over the reviews)."""
        row = self.conn.execute("SELECT COALESCE(SUM(reviews), 0) FROM items").fetchone()
        return int(row[0])

    @_reads
    def first_seen(self) -> dict[tuple[str, str], datetime]:
        """When each item (deck id, item id) was first answered."""
        rows = self.conn.execute("SELECT deck_id, item_id, first_at FROM items WHERE reviews > 0")
        return {(d, i): datetime.fromisoformat(at) for d, i, at in rows}

    @_reads
    def started_items(self) -> dict[tuple[str, str], int]:
        """Every item (deck id, item id) answered at least once, with how many of its faces
        have a schedule. One small row per item, kept by triggers: no scan of the reviews."""
        rows = self.conn.execute("SELECT deck_id, item_id, faces FROM items WHERE reviews > 0")
        return {(d, i): faces for d, i, faces in rows}

    @_reads
    def deck_summary(self, deck_id: str, live: str) -> tuple[int, int, int]:
        """For one deck's live items (`live`: a JSON object of item id -> number of faces, in
        the order new items start): the items answered at least once, their faces with a
        schedule (at most the item's faces now) and all their faces. One indexed join, done
        by SQLite, whatever the number of items."""
        row = self.conn.execute(
            "SELECT COUNT(*), COALESCE(SUM(MIN(i.faces, j.value)), 0),"
            " COALESCE(SUM(j.value), 0) FROM json_each(?) AS j"  # CROSS JOIN: parse it once
            " CROSS JOIN items AS i ON i.deck_id = ? AND i.item_id = j.key WHERE i.reviews > 0",
            (live, deck_id),
        ).fetchone()
        return int(row[0]), int(row[1]), int(row[2])

    @_reads
    def first_unstarted(self, deck_id: str, live: str, count: int) -> list[tuple[str, int]]:
        """The first `count` items of `live` (as in `deck_summary`) never answered, in order,
        with their number of faces."""
        if count <= 0:
            return []
        rows = self.conn.execute(
            "SELECT j.key, j.value FROM json_each(?) AS j WHERE NOT EXISTS (SELECT 1 FROM items"
            " AS i WHERE i.deck_id = ? AND i.item_id = j.key AND i.reviews > 0) LIMIT ?",
            (live, deck_id, count),
        )
        return [(item, int(n)) for item, n in rows]

    @_reads
    def partial_items(self, deck_id: str, live: str) -> list[str]:
        """Items of `live` (as in `deck_summary`) answered at least once with fewer faces
        scheduled than they have: their other faces are still new."""
        rows = self.conn.execute(
            "SELECT j.key FROM json_each(?) AS j CROSS JOIN items AS i"
            " ON i.deck_id = ? AND i.item_id = j.key WHERE i.reviews > 0 AND i.faces < j.value",
            (live, deck_id),
        )
        return [item for (item,) in rows]

    @_reads
    def items_scheduled_below(self, deck_id: str, faces: int) -> list[tuple[str, int]]:
        """The deck's items answered at least once with fewer than `faces` faces scheduled,
        each with its number of scheduled faces."""
        rows = self.conn.execute(
            "SELECT item_id, faces FROM items WHERE deck_id = ? AND reviews > 0 AND faces < ?",
            (deck_id, faces),
        )
        return [(item, int(n)) for item, n in rows]

    @_reads
    def started_item_ids(self, deck_id: str) -> set[str]:
        """The ids of the deck's items answered at least once (one row: SQLite gathers them
        into a JSON array, quicker to read than a row per item)."""
        row = self.conn.execute(
            "SELECT json_group_array(item_id) FROM items WHERE deck_id = ? AND reviews > 0",
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
        if self.read_only is not None:
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

    @_reads
    def _kept_digests(self) -> dict[str, str]:
        return dict(self.conn.execute("SELECT deck_id, digest FROM item_orders"))

    def next_new_items(
        self, deck_id: str, order: Sequence[str], digest: str, count: int
    ) -> list[str]:
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
        started = self.started_item_ids(deck_id)
        return list(islice(filterfalse(started.__contains__, order), count))

    def _unstarted_in_kept_order(self, deck_id: str, digest: str, count: int) -> list[str] | None:
        """The first `count` items never answered in the deck's kept order, or None when the
        order kept is not the one `digest` names."""
        with self.snapshot() as conn:
            row = conn.execute(
                "SELECT digest FROM item_orders WHERE deck_id = ?", (deck_id,)
            ).fetchone()
            if row is None or row[0] != digest:
                return None
            rows = conn.execute(
                "SELECT item_id FROM item_order WHERE deck_id = ? AND started = 0"
                " ORDER BY position LIMIT ?",
                (deck_id, count),
            )
            return [item_id for (item_id,) in rows]

    @_reads
    def scheduled_faces(self, deck_id: str, item_id: str) -> set[str]:
        rows = self.conn.execute(
            "SELECT face FROM cards WHERE deck_id = ? AND item_id = ?", (deck_id, item_id)
        )
        return {face for (face,) in rows}

    @_reads
    def due_order(
        self, now: datetime, deck_ids: Iterable[str]
    ) -> list[tuple[FaceKey, datetime, float | None, datetime | None]]:
        """The faces due at `now` in these decks, each with what a plan orders them by: its due
        time, stability and last review, as `load_card` reads them from the card. SQLite takes
        the three fields out of the JSON: no card is decoded whole."""
        ids = list(deck_ids)
        rows = self.conn.execute(
            "SELECT deck_id, item_id, face, json_extract(card, '$.due'),"
            " json_extract(card, '$.stability'), json_extract(card, '$.last_review') FROM cards"
            f" WHERE deck_id IN ({','.join('?' * len(ids))}) AND due <= ?",
            (*ids, as_utc(now).isoformat()),
        )
        return [
            (
                FaceKey(d, i, f),
                as_utc(datetime.fromisoformat(due)),
                float(stability) if stability else None,  # as fsrs's Card.from_dict
                as_utc(datetime.fromisoformat(last)) if last else None,
            )
            for d, i, f, due, stability, last in rows
        ]

    def weakest(
        self, deck_ids: Iterable[str], now: datetime, curve: tuple[float, float]
    ) -> Iterator[FaceKey]:
        """Every scheduled face of these decks, least remembered first (then due soonest, then
        by key). SQLite works out each card's retrievability as fsrs does (`curve` is the
        factor and decay of `Srs.forgetting_curve`): whole days since the last review, to the
        microsecond as Python's `timedelta.days` counts them, then the same arithmetic in
        doubles, so the order is the one `Srs.retrievability` gives, with no card decoded."""
        ids = list(deck_ids)
        factor, decay = curve
        self._ensure_pow()
        try:
            rows = self.conn.execute(
                "WITH c AS MATERIALIZED (SELECT deck_id, item_id, face, due,"
                " json_extract(card, '$.last_review') AS last,"
                " json_extract(card, '$.stability') AS stability FROM cards"
                f" WHERE deck_id IN ({','.join('?' * len(ids))}))"
                " SELECT deck_id, item_id, face FROM c ORDER BY"
                " CASE WHEN last IS NULL OR stability IS NULL THEN 0"
                f" ELSE pow(1 + ? * MAX(0, (? - {_MICROSECONDS.format('last')}) / 86400000000)"
                " / stability, ?) END, due, deck_id, item_id, face",
                (*ids, factor, _microseconds(now), decay),
            )
            for d, i, f in rows:
                yield FaceKey(d, i, f)
        except sqlite3.Error as exc:
            raise _explain(self.path, exc) from None

    def _ensure_pow(self) -> None:
        """SQLite's `pow`, or Python's where SQLite was built without its math functions;
        asked once per connection."""
        if self._has_pow:
            return
        try:
            self.conn.execute("SELECT pow(2.0, 0.5)")
        except sqlite3.OperationalError:
            self.conn.create_function("pow", 2, _pow, deterministic=True)
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
            raise _explain(self.path, exc) from None

    @_reads
    def started_since(self, moment: datetime) -> dict[str, int]:
        """Per deck, the items first answered at or after `moment`: a range of the index
        items_first, counted here (grouped by SQLite, the count would walk every item in
        deck order instead)."""
        rows = self.conn.execute(
            "SELECT deck_id FROM items WHERE reviews > 0 AND julianday(first_at) >= julianday(?)",
            (moment.isoformat(),),
        )
        return dict(Counter(deck_id for (deck_id,) in rows))

    @_reads
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

    @_reads
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

    # -- confusions -----------------------------------------------------------------------

    @_reads
    def confusions(self) -> list[Confusion]:
        """Every wrong pick of one term for another still on record, oldest first."""
        # CROSS JOIN: from the few confusions to their answers by id, never a scan of answers.
        rows = self.conn.execute(
            "SELECT c.review_id, c.deck_id, c.answer_term, c.picked_term, r.reviewed_at"
            " FROM confusions AS c CROSS JOIN reviews AS r ON r.id = c.review_id ORDER BY c.review_id"
        )
        return [Confusion(i, d, a, p, datetime.fromisoformat(at)) for i, d, a, p, at in rows]

    def record_drill_answer(self, review_id: int, deck_id: str, a: str, b: str) -> None:
        """Keep that the answer `review_id` was a drill question about the pair (a, b)."""
        with self.transaction() as conn:
            conn.execute(
                "INSERT OR REPLACE INTO drill_answers (review_id, deck_id, term_a, term_b)"
                " VALUES (?,?,?,?)",
                (review_id, deck_id, *sorted((a, b))),
            )

    @_reads
    def drill_answers(self) -> list[tuple[int, str, str, str, bool]]:
        """Every drill answer still on record: (review id, deck id, term a, term b, right),
        oldest first, each pair's terms in sorted order."""
        rows = self.conn.execute(
            "SELECT d.review_id, d.deck_id, d.term_a, d.term_b, r.correct FROM drill_answers AS d"
            " CROSS JOIN reviews AS r ON r.id = d.review_id ORDER BY d.review_id"
        )
        return [(int(i), d, a, b, bool(c)) for i, d, a, b, c in rows]

    @_reads
    def best_round_scores_by_mode(self) -> dict[str, int]:
        """The best score of a finished round, per mode (as stored: learn is "review")."""
        rows = self.conn.execute(
            "SELECT mode, MAX(score) FROM rounds WHERE finished=1 GROUP BY mode"
        )
        return {mode: int(best) for mode, best in rows}

    @_reads
    def answers_in_mode(self, mode: str) -> int:
        return int(
            self.conn.execute("SELECT COUNT(*) FROM reviews WHERE mode=?", (mode,)).fetchone()[0]
        )

    # -- reports --------------------------------------------------------------------------

    def save_report(
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

    @_reads
    def reports(self, mode: str | None = None) -> list[ReportRecord]:
        """Saved reports, oldest first (with `mode`, only that mode's)."""
        sql = "SELECT id, mode, made_at, decks, questions, correct, seconds, body FROM reports"
        args: tuple[str, ...] = ()
        if mode is not None:
            sql += " WHERE mode=?"
            args = (mode,)
        return [_report(row) for row in self.conn.execute(sql + " ORDER BY id", args)]

    @_reads
    def report(self, report_id: int) -> ReportRecord | None:
        row = self.conn.execute(
            "SELECT id, mode, made_at, decks, questions, correct, seconds, body FROM reports"
            " WHERE id=?",
            (report_id,),
        ).fetchone()
        return None if row is None else _report(row)

    # -- rounds ---------------------------------------------------------------------------

    def start_round(self, deck_id: str | None, mode: str, now: datetime) -> int:
        with self.transaction() as conn:
            cur = conn.execute(
                "INSERT INTO rounds (deck_id, mode, started_at) VALUES (?,?,?)",
                (deck_id, mode, now.isoformat()),
            )
            return int(cur.lastrowid or 0)

    def update_round(
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

    @_reads
    def rounds(self, finished_only: bool = False) -> list[RoundRecord]:
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

    @_reads
    def best_scores(self) -> dict[str | None, int]:
        """The best score of a finished round, per deck id (None: all decks together)."""
        rows = self.conn.execute(
            "SELECT deck_id, MAX(score) FROM rounds WHERE finished=1 GROUP BY deck_id"
        )
        return {deck_id: int(best) for deck_id, best in rows}

    @_reads
    def finished_round_times(self) -> list[datetime]:
        """When each finished round ended (or started, if it has no end)."""
        rows = self.conn.execute(
            "SELECT COALESCE(ended_at, started_at) FROM rounds WHERE finished=1 ORDER BY id"
        )
        return [datetime.fromisoformat(at) for (at,) in rows]

    @_reads
    def round_count(self, finished_only: bool = False) -> int:
        sql = "SELECT COUNT(*) FROM rounds" + (" WHERE finished=1" if finished_only else "")
        return int(self.conn.execute(sql).fetchone()[0])

    @_reads
    def best_score(self, deck_id: str | None, exclude_round: int | None = None) -> int | None:
        sql = "SELECT MAX(score) FROM rounds WHERE finished=1 AND deck_id IS ?"
        args: list[object] = [deck_id]
        if exclude_round is not None:
            sql += " AND id != ?"
            args.append(exclude_round)
        value = self.conn.execute(sql, args).fetchone()[0]
        return int(value) if value is not None else None

    # -- renames --------------------------------------------------------------------------------

    def carry_renames(
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
            raise _explain(self.path, exc) from None
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

    # -- flags and settings -----------------------------------------------------------------

    def flag(self, key: FaceKey, now: datetime, note: str = "") -> None:
        """Flag a face for its deck's author; a face is flagged once, so flagging it again
        only replaces its note (when one is given)."""
        with self.transaction() as conn:
            conn.execute(
                "INSERT INTO flags (deck_id, item_id, face, flagged_at, note) VALUES (?,?,?,?,?)"
                " ON CONFLICT (deck_id, item_id, face) DO UPDATE SET note=excluded.note"
                " WHERE excluded.note != ''",
                (key.deck_id, key.item_id, key.face, now.isoformat(), note),
            )

    def unflag(self, key: FaceKey) -> bool:
        """Take a face's flag back; False if it had none."""
        with self.transaction() as conn:
            cur = conn.execute(
                "DELETE FROM flags WHERE deck_id=? AND item_id=? AND face=?",
                (key.deck_id, key.item_id, key.face),
            )
            return cur.rowcount > 0

    @_reads
    def is_flagged(self, key: FaceKey) -> bool:
        row = self.conn.execute(
            "SELECT 1 FROM flags WHERE deck_id=? AND item_id=? AND face=?",
            (key.deck_id, key.item_id, key.face),
        ).fetchone()
        return row is not None

    @_reads
    def flags(self) -> list[tuple[FaceKey, datetime, str]]:
        rows = self.conn.execute(
            "SELECT deck_id, item_id, face, flagged_at, note FROM flags ORDER BY id"
        )
        return [(FaceKey(d, i, f), datetime.fromisoformat(at), n) for d, i, f, at, n in rows]

    # -- overrides ("I was right") ----------------------------------------------------------

    def override(
        self,
        review_id: int,
        *,
        rating: int,
        points: int,
        schedule: Callable[[Card | None, int], Card] | None,
        round_totals: tuple[int, int, int, int] | None = None,
    ) -> Card | None:
        """Count an answer marked wrong as right, in one write transaction: the review becomes
        right with `rating` and `points` and is marked overridden; its face's schedule is
        recomputed by `schedule(card_before, card_id)` from the schedule the review started
        from (None: never answered before; the face keeps its card id); the review's round
        gets its new running totals. Returns the new card (None: the schedule stays, as for
        an unscheduled answer). Undo still puts back the card_before."""
        with self.transaction() as conn:
            row = conn.execute(
                "SELECT deck_id, item_id, face, round_id, card_before, scheduled FROM reviews"
                " WHERE id=?",
                (review_id,),
            ).fetchone()
            if row is None:
                raise StoreError(
                    f"That answer is no longer in {self.path}, so it cannot be counted as "
                    "right (nothing was changed)."
                )
            deck_id, item_id, face, round_id, before, scheduled = row
            key = FaceKey(deck_id, item_id, face)
            conn.execute(
                "UPDATE reviews SET correct=1, rating=?, points=?, overridden=1 WHERE id=?",
                (rating, points, review_id),
            )
            card = None
            if scheduled and schedule is not None:
                current = self.card(key)
                card_id = current.card_id if current is not None else self.next_card_id()
                card = schedule(load_card(before) if before is not None else None, card_id)
                conn.execute(
                    "INSERT INTO cards (deck_id, item_id, face, card_id, card, due) VALUES (?,?,?,?,?,?)"
                    " ON CONFLICT (deck_id, item_id, face) DO UPDATE SET card=excluded.card, due=excluded.due",
                    (deck_id, item_id, face, card.card_id, dump_card(card), card.due.isoformat()),
                )
            if round_id is not None and round_totals is not None:
                self._set_totals(round_id, round_totals)
            return card

    @_reads
    def overridden(self) -> list[int]:
        """The ids of the answers the player overrode as right, oldest first."""
        rows = self.conn.execute("SELECT id FROM reviews WHERE overridden=1 ORDER BY id")
        return [int(review_id) for (review_id,) in rows]

    @_reads
    def override_count(self) -> int:
        return int(
            self.conn.execute("SELECT COUNT(*) FROM reviews WHERE overridden=1").fetchone()[0]
        )

    # -- settings ---------------------------------------------------------------------------

    @_reads
    def settings(self) -> tuple[Settings, tuple[str, ...]]:
        """The settings, and one sentence for each damaged value that fell back to its default."""
        rows = self.conn.execute("SELECT key, value FROM settings")
        return Settings.from_stored(dict(rows))

    def save_settings(self, settings: Settings) -> None:
        """Store every setting in one transaction."""
        with self.transaction() as conn:
            conn.executemany(
                "INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value=excluded.value",
                [(key, json.dumps(value)) for key, value in settings.as_dict().items()],
            )

    @_reads
    def setting(self, key: str, default: object = None) -> object:
        """One stored value as it was saved, without checking it (`settings()` checks)."""
        row = self.conn.execute("SELECT value FROM settings WHERE key=?", (key,)).fetchone()
        return json.loads(row[0]) if row else default

    def set_setting(self, key: str, value: object) -> None:
        with self.transaction() as conn:
            conn.execute(
                "INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value=excluded.value",
                (key, json.dumps(value)),
            )
