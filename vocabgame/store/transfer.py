"""Progress that travels (`vocabgame export-progress` and `import-progress`): every row of the
tables a progress file holds, as the record types of `rows`, and the writes of a merge. The
merge itself (what is new, what is replayed) is `vocabgame.progress`'s; every write here runs
inside the one transaction it holds (`store.transaction()`)."""

from __future__ import annotations

import json
import re
import sqlite3
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import fields
from typing import Any, TypeVar

from fsrs import Card

from vocabgame.srs import dump_card
from vocabgame.store.part import Part, reads
from vocabgame.store.rows import FLAG, JSON, ROWS, FlagRow, RenameRow, ReviewRow, RoundRow, Row
from vocabgame.store.schema import SUMMARIES

Face = tuple[str, str, str]  # deck id, item id, face
RowT = TypeVar("RowT", bound=Row)


# What `add_answers` is given for a NULL, per nullable column: Python's sqlite3 binds None
# (and True or False) through its adapters' lookup, which costs as much as the insert itself.
# None of these is a value an answer can hold: its integers fit in 63 bits and a sign, a card
# is never empty text and a confidence is from 0 to 1 (`progress_checks`).
NO_NUMBER = -(2**63)
UNSET: dict[str, object] = {
    "round_id": NO_NUMBER,
    "response_ms": NO_NUMBER,
    "card_before": "",
    "confidence": -1.0,
}


def _literal(value: object) -> str:
    """`value` as SQL: -2**63 cannot be written as a literal (its digits overflow first)."""
    return f"({NO_NUMBER + 1} - 1)" if value == NO_NUMBER else repr(value)


_UNSET_AT = [(n, UNSET[name]) for n, name in enumerate(ReviewRow.names()) if name in UNSET]
_ADD_ANSWERS = (
    f"INSERT INTO reviews ({', '.join(ReviewRow.names())}) VALUES ("
    + ", ".join(
        f"NULLIF(?, {_literal(UNSET[name])})" if name in UNSET else "?"
        for name in ReviewRow.names()
    )
    + ")"
)


def bound(columns: list[Any]) -> list[Any]:
    """An answer's columns as `add_answers` takes them: each NULL as its column's `UNSET`,
    each flag as 0 or 1 (changed in place, and returned)."""
    for n, unset in _UNSET_AT:
        if columns[n] is None:
            columns[n] = unset
    for n, value in enumerate(columns):
        if value is True or value is False:
            columns[n] = int(value)
    return columns


class Transfer(Part):
    """Every row a progress file holds, read and written as `rows` records."""

    # -- export ---------------------------------------------------------------------------------

    @reads
    def rows(self, kind: type[RowT]) -> list[RowT]:
        """Every row of `kind`'s table, in export order."""
        return [kind.from_db(row) for row in self.conn.execute(kind.select())]

    def entries(self, kind: type[Row], batch: int = 2000) -> Iterator[list[dict[str, Any]]]:
        """Every row of `kind`'s table as the file's plain data (what `kind.from_db(row)
        .to_dict()` gives), in export order, a batch at a time: the rows are never all held
        at once. Run it inside a read transaction (`store.snapshot()`)."""
        names = kind.names()
        kept = [f.metadata["kept"] for f in fields(kind)]  # type: ignore[arg-type]
        flags = [name for name, how in zip(names, kept, strict=True) if how == FLAG]
        texts = [name for name, how in zip(names, kept, strict=True) if how == JSON]
        cursor = self.conn.execute(kind.select())
        loads = json.loads
        while rows := cursor.fetchmany(batch):
            out = []
            for row in rows:
                entry = dict(zip(names, row, strict=True))
                # The loop of `from_db`, over only the fields it changes.
                for name in flags:
                    if entry[name] is not None:
                        entry[name] = bool(entry[name])
                for name in texts:
                    if entry[name] is not None:
                        entry[name] = loads(entry[name])
                out.append(entry)
            yield out

    def lines(self, kind: type[Row], batch: int = 2000) -> Iterator[list[str]]:
        """Every row of `kind`'s table as one line of JSON text holding what `entries` gives
        (the same fields in the same order, written without spaces), in export order, a batch
        at a time. Run it inside a read transaction (`store.snapshot()`)."""
        select, reals = self._as_json(kind)
        cursor = self.conn.execute(select)
        if not reals:
            while rows := cursor.fetchmany(batch):
                yield [line for (line,) in rows]
            return
        # SQLite writes a REAL in 15 digits, which loses some doubles: those are set from Python.
        loads = json.loads
        encode = json.JSONEncoder(ensure_ascii=False, check_circular=False).encode
        while rows := cursor.fetchmany(batch):
            out = []
            for line, *values in rows:
                if any(value is not None for value in values):
                    entry = loads(line)
                    entry.update(zip(reals, values, strict=True))
                    line = encode(entry)
                out.append(line)
            yield out

    def _as_json(self, kind: type[Row]) -> tuple[str, list[str]]:
        """The query of `lines` for `kind`, and the REAL columns it selects after the JSON."""
        declared = {
            name: str(kind_of).upper()
            for _, name, kind_of, *_ in self.conn.execute(f"PRAGMA table_info({kind.TABLE})")
        }
        parts, reals = [], []
        for f in fields(kind):  # type: ignore[arg-type]
            name, kept = f.name, f.metadata["kept"]
            if kept == FLAG:
                value = f"json(CASE WHEN {name} IS NULL THEN NULL WHEN {name} THEN 'true' ELSE 'false' END)"
            elif kept == JSON:
                value = f"json({name})"
            elif any(real in declared.get(name, "") for real in ("REAL", "FLOA", "DOUB")):
                value = "NULL"
                reals.append(name)
            else:
                value = name
            parts.append(f"'{name}', {value}")
        order = f" ORDER BY {kind.ORDER}" if kind.ORDER else ""
        extra = "".join(f", {name}" for name in reals)
        return f"SELECT json_object({', '.join(parts)}){extra} FROM {kind.TABLE}{order}", reals

    def counts(self) -> dict[str, int]:
        """How many rows each table a progress file holds has."""
        return {
            kind.TABLE: int(self.conn.execute(f"SELECT COUNT(*) FROM {kind.TABLE}").fetchone()[0])
            for kind in ROWS
        }

    @reads
    def settings(self) -> dict[str, Any]:
        """Every stored setting, as its value."""
        return {k: json.loads(v) for k, v in self.conn.execute("SELECT key, value FROM settings")}

    # -- what is here already -------------------------------------------------------------------

    def round_ids(self) -> dict[tuple[str, str | None, str], int]:
        """Each round's id, by its start, deck and mode (`RoundRow.key`)."""
        rows = self.conn.execute("SELECT id, started_at, deck_id, mode FROM rounds")
        return {(s, d, m): i for i, s, d, m in rows}

    def answer_count(self) -> int:
        return int(self.conn.execute("SELECT COUNT(*) FROM reviews").fetchone()[0])

    def last_answer_id(self) -> int:
        """The highest answer id so far (0: none); answers added after have higher ones."""
        return int(self.conn.execute("SELECT COALESCE(MAX(id), 0) FROM reviews").fetchone()[0])

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

    def add_answers(self, rows: Iterable[Sequence[Any]]) -> None:
        """Add answers as their columns (`ReviewRow.to_db`; each round_id already one of
        this store's rounds), in order, each NULL given as its column's `UNSET` (`bound`)."""
        self.conn.executemany(_ADD_ANSWERS, rows)

    def drop_doubled_answers(self, after: int, many: bool = False) -> None:
        """Remove each answer with an id above `after` that repeats an earlier answer
        (`ReviewRow.key`): what a merge added that was here already, or twice in its file.
        One statement: nothing of it is held in Python. With `many` (most answers are new),
        every answer is sorted once by its key instead of each new one looked up."""
        if many:
            self.conn.execute(
                "DELETE FROM reviews WHERE id IN (SELECT id FROM (SELECT id, row_number() OVER"
                " (PARTITION BY deck_id, item_id, face, reviewed_at, mode, rating, answer"
                " ORDER BY id) AS n FROM reviews) WHERE n > 1 AND id > ?)",
                (after,),
            )
            return
        # By the time index: answers at one moment are one or two, a face's are hundreds.
        self.conn.execute(
            "DELETE FROM reviews WHERE id > ? AND EXISTS (SELECT 1 FROM reviews AS r"
            " INDEXED BY reviews_time WHERE r.deck_id = reviews.deck_id AND r.item_id = reviews.item_id"
            " AND r.face = reviews.face AND r.reviewed_at = reviews.reviewed_at"
            " AND r.mode = reviews.mode AND r.rating = reviews.rating"
            " AND r.answer = reviews.answer AND r.id < reviews.id)",
            (after,),
        )

    def answers_after(self, after: int) -> tuple[int, set[Face]]:
        """How many answers have an id above `after`, and the faces of the scheduled ones."""
        added = int(
            self.conn.execute("SELECT COUNT(*) FROM reviews WHERE id > ?", (after,)).fetchone()[0]
        )
        faces = self.conn.execute(
            "SELECT DISTINCT deck_id, item_id, face FROM reviews WHERE id > ? AND scheduled = 1",
            (after,),
        )
        return added, set(faces)

    def bulk(self) -> Bulk:
        """Set aside what each written answer costs (see `Bulk`)."""
        return Bulk(self.conn)

    def put_card(self, face: Face, card: Card) -> None:
        """Set the face's schedule."""
        self.conn.execute(
            "INSERT INTO cards (deck_id, item_id, face, card_id, card, due) VALUES (?,?,?,?,?,?)"
            " ON CONFLICT (deck_id, item_id, face) DO UPDATE SET card=excluded.card,"
            " due=excluded.due",
            (*face, card.card_id, dump_card(card), card.due.isoformat()),
        )

    def put_card_text(self, face: Face, card_id: int, card: str, due: str) -> None:
        """`put_card` with the card already as its text (`dump_card`) and its due time."""
        self.put_cards_text([(face, card_id, card, due)])

    def put_cards_text(self, cards: Iterable[tuple[Face, int, str, str]]) -> None:
        """`put_card_text` of each of `cards` (face, card id, text, due time), in order."""
        self.conn.executemany(
            "INSERT INTO cards (deck_id, item_id, face, card_id, card, due) VALUES (?,?,?,?,?,?)"
            " ON CONFLICT (deck_id, item_id, face) DO UPDATE SET card=excluded.card,"
            " due=excluded.due",
            ((*face, card_id, card, due) for face, card_id, card, due in cards),
        )

    def card_ids_taken(self, card_ids: Sequence[int]) -> set[int]:
        """Which of `card_ids` a schedule here has."""
        rows = self.conn.execute(
            "SELECT card_id FROM cards WHERE card_id IN (SELECT value FROM json_each(?))",
            (json.dumps(list(card_ids)),),
        )
        return {card_id for (card_id,) in rows}

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


CACHE_KIB = 32 * 1024  # a bulk merge's page cache (a sort may take as much again)


class Bulk:
    """Writes of many answers without the triggers that keep the summaries and without the
    answers' indexes: both are dropped now; `answers_done` makes the indexes again (one sort
    each, rather than a random write per answer), `done` the triggers, and rebuilds every
    summary from the answers and schedules (`SUMMARIES`) once. For a merge of many answers;
    inside its transaction, so that if it is rolled back everything is as it was."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn
        # A page cache that holds the indexes being made and sorted, for the merge only
        # (SQLite's default of 2 MB makes each sort and each random write go to the file).
        self.cache = int(conn.execute("PRAGMA cache_size").fetchone()[0])
        conn.execute(f"PRAGMA cache_size = -{CACHE_KIB}")
        # The cards' triggers that keep `items` go too (it is rebuilt), not those that keep
        # a card's own columns; and the cards' indexes but those SQLite made for its keys.
        self.triggers = self._drop("trigger", "reviews") + self._drop(
            "trigger", "cards", "items_card_%"
        )
        self.indexes: list[str] | None = self._drop("index", "reviews")
        self.card_indexes = self._drop("index", "cards")
        # A new card's own columns (stability, last review) are set by a trigger, an UPDATE
        # per insert: in bulk, by the same UPDATE once over every card, at the end.
        self.card_columns = self._once("cards_kept_added")

    def _once(self, trigger: str) -> str | None:
        """Drop `trigger` (an UPDATE of its row, `WHERE rowid = NEW.rowid`) and return its
        statement for every row at once; None, and the trigger kept, if it is not that."""
        row = self.conn.execute(
            "SELECT sql FROM sqlite_master WHERE type = 'trigger' AND name = ?", (trigger,)
        ).fetchone()
        if row is None:
            return None
        body = row[0].split(" BEGIN", 1)[-1].rsplit("END", 1)[0].strip().rstrip(";")
        statement = re.sub(r"\s+WHERE rowid = NEW\.rowid$", "", body).replace("NEW.", "")
        if statement == body.replace("NEW.", "") or ";" in statement:
            return None
        self.conn.execute(f'DROP TRIGGER "{trigger}"')
        self.triggers.append(row[0])
        return statement

    def _drop(self, kind: str, table: str, like: str = "%") -> list[str]:
        made = self.conn.execute(
            "SELECT name, sql FROM sqlite_master WHERE type = ? AND tbl_name = ?"
            " AND name LIKE ? AND sql IS NOT NULL"  # an index SQLite made itself has none
            # a partial index holds the few answers it names: kept as they come for less
            # than a scan of every answer would cost to make it again
            " AND (type = 'trigger' OR sql NOT LIKE '% WHERE %')",
            (kind, table, like),
        ).fetchall()
        for name, _ in made:
            self.conn.execute(f'DROP {kind.upper()} "{name}"')
        return [sql for _, sql in made]

    def answers_done(self) -> None:
        """The answers are all written: their indexes are made again."""
        if self.indexes is not None:
            for sql in self.indexes:
                self.conn.execute(sql)
            self.indexes = None

    def done(self) -> None:
        """Everything is written: the triggers are back and the summaries rebuilt."""
        self.answers_done()
        if self.card_columns is not None:
            self.conn.execute(self.card_columns)
        for sql in self.card_indexes + self.triggers:
            self.conn.execute(sql)
        for summary in SUMMARIES:
            for statement in summary.rebuild:
                self.conn.execute(statement)
        self.conn.execute(f"PRAGMA cache_size = {self.cache}")
