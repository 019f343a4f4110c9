"""The rows of the store's tables as they travel in a progress file (`vocabgame
export-progress`): one record type per table, which owns its conversion to and from the file's
plain data (`to_dict`, `from_dict`, `problem` to check an entry first) and to and from the
table's columns (`to_db`, `from_db`), as py-fsrs's `Card` and `ReviewLog` own theirs. Export,
import and the file's check all read the fields from here, so they cannot drift from the
schema.

Each field's metadata says what the file holds there: `check` and `what` (what it should be,
in the sentence that refuses it), whether it may be null or absent, and how it is kept: a
flag (true or false in the file, 0 or 1 in the table) or JSON (an object in the file, text
in the table).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields
from datetime import datetime
from typing import Any, ClassVar, Self

Check = Callable[[object], bool]
PLAIN, FLAG, JSON = "plain", "flag", "json"


def is_time(value: object) -> bool:
    """A time with its zone, as `datetime.isoformat` writes it."""
    if not isinstance(value, str):
        return False
    try:
        moment = datetime.fromisoformat(value)
    except ValueError:
        return False
    return moment.tzinfo is not None


def _text(value: object) -> bool:
    return isinstance(value, str)


def _whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _flag(value: object) -> bool:
    return isinstance(value, bool | int)


def _mapping(value: object) -> bool:
    return isinstance(value, dict)


def _rating(value: object) -> bool:
    return _whole(value) and 1 <= int(str(value)) <= 4


def _probability(value: object) -> bool:
    """A share from 0 to 1 (NaN fails both comparisons)."""
    return isinstance(value, int | float) and not isinstance(value, bool) and 0 <= value <= 1


def _anything(value: object) -> bool:
    return True


def _column(
    check: Check,
    what: str,
    nullable: bool = False,
    kept: str = PLAIN,
    read: Callable[[Any], Any] | None = None,
) -> Any:
    """A field: what the file may hold there (`read` turns a checked value of the file into
    the row's; by default a flag becomes true or false), and how the table keeps it."""
    if read is None:
        read = _as_flag if kept == FLAG else _same
    return field(
        metadata={"check": check, "what": what, "nullable": nullable, "kept": kept, "read": read}
    )


def _same(value: Any) -> Any:
    return value


def _as_flag(value: Any) -> Any:
    return None if value is None else bool(value)


DECK = (_text, "a deck id")
TIME = (is_time, "a time with its zone")


def _short(value: object) -> str:
    """A value for a sentence: a huge one would make a sentence of megabytes."""
    if isinstance(value, int) and value.bit_length() > 200:  # repr of 4,300 digits raises
        return f"a number of about {round(value.bit_length() * 0.30103)} digits"
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


class Row:
    """What every row type shares; `TABLE` is both its table and its section in the file,
    `ORDER` the order it is exported in."""

    TABLE: ClassVar[str]
    ORDER: ClassVar[str] = ""

    @classmethod
    def names(cls) -> tuple[str, ...]:
        return tuple(f.name for f in fields(cls))  # type: ignore[arg-type]

    @classmethod
    def problem(cls, entry: Mapping[str, object]) -> str | None:
        """What is wrong with one entry of the file, as the end of a sentence after the
        entry's place (" has no id." or ".rating should be ..., not 7."); None: nothing."""
        for f in fields(cls):  # type: ignore[arg-type]
            meta = f.metadata
            if f.name not in entry:
                if meta["nullable"]:
                    continue  # an optional field, or one older files do not have
                return f" has no {f.name}."
            value = entry[f.name]
            if value is None and meta["nullable"]:
                continue
            if not meta["check"](value):
                return f".{f.name} should be {meta['what']}, not {_short(value)}."
        return None

    @classmethod
    def from_dict(cls, entry: Mapping[str, Any]) -> Self:
        """The row of a checked entry (see `problem`); absent optional fields are null."""
        return cls(
            **{f.name: f.metadata["read"](entry.get(f.name)) for f in fields(cls)}  # type: ignore[arg-type]
        )

    def to_dict(self) -> dict[str, Any]:
        return {name: getattr(self, name) for name in self.names()}

    @classmethod
    def select(cls) -> str:
        """The query that reads every row of the table, in export order."""
        order = f" ORDER BY {cls.ORDER}" if cls.ORDER else ""
        return f"SELECT {', '.join(cls.names())} FROM {cls.TABLE}{order}"

    @classmethod
    def from_db(cls, row: tuple[Any, ...]) -> Self:
        values = []
        for f, value in zip(fields(cls), row, strict=True):  # type: ignore[arg-type]
            kept = f.metadata["kept"]
            if value is not None and kept == FLAG:
                value = bool(value)
            elif value is not None and kept == JSON:
                value = json.loads(value)
            values.append(value)
        return cls(*values)

    def to_db(self) -> tuple[Any, ...]:
        """The row's columns, in the order of its fields."""
        out = []
        for f in fields(self):  # type: ignore[arg-type]
            value, kept = getattr(self, f.name), f.metadata["kept"]
            if value is not None and kept == FLAG:
                value = int(bool(value))
            elif value is not None and kept == JSON:
                value = json.dumps(value)
            out.append(value)
        return tuple(out)


@dataclass(frozen=True, slots=True)
class RoundRow(Row):
    TABLE: ClassVar[str] = "rounds"
    ORDER: ClassVar[str] = "id"

    id: int = _column(_whole, "a whole number")
    deck_id: str | None = _column(*DECK, nullable=True)
    mode: str = _column(_text, "a mode id")
    started_at: str = _column(is_time, "a time with its zone, like 2026-11-30T12:00:00+00:00")
    ended_at: str | None = _column(*TIME, nullable=True)
    questions: int = _column(_whole, "a whole number")
    correct: int = _column(_whole, "a whole number")
    score: int = _column(_whole, "a whole number")
    best_streak: int = _column(_whole, "a whole number")
    finished: bool = _column(_flag, "true or false", kept=FLAG)

    @property
    def key(self) -> tuple[str, str | None, str]:
        """The same round on two machines: its start, deck and mode."""
        return (self.started_at, self.deck_id, self.mode)


@dataclass(frozen=True, slots=True)
class ReviewRow(Row):
    TABLE: ClassVar[str] = "reviews"
    ORDER: ClassVar[str] = "id"

    round_id: int | None = _column(_whole, "the id of a round in the file", nullable=True)
    deck_id: str = _column(*DECK)
    item_id: str = _column(_text, "an item id")
    face: str = _column(_text, "a face name")
    reviewed_at: str = _column(*TIME)
    rating: int = _column(_rating, "a rating from 1 to 4")
    correct: bool = _column(_flag, "true or false", kept=FLAG)
    response_ms: int | None = _column(_whole, "a whole number of milliseconds", nullable=True)
    mode: str = _column(_text, "a mode id")
    answer: str = _column(_text, "the answer as given")
    points: int = _column(_whole, "a whole number")
    scheduled: bool = _column(_flag, "true or false", kept=FLAG)
    # marked wrong, counted as right by the player; absent from older files
    # (only a true in the file counts, as files have always been read)
    overridden: bool = _column(
        _anything, "true or false", True, kept=FLAG, read=lambda v: v is True
    )
    # the face's schedule before this answer (undo and `check` use it)
    card_before: dict[str, Any] | None = _column(_mapping, "an FSRS card", True, kept=JSON)
    # how sure the player said they were (the chance of being right they gave); absent from
    # older files, null when not said (kept as REAL: a 1 in the file reads back as 1.0)
    confidence: float | None = _column(_probability, "a probability from 0 to 1", True)

    @property
    def key(self) -> tuple[str, str, str, str, str, int, str]:
        """The same answer on two machines: its face, time, mode, rating and given text."""
        return (
            self.deck_id,
            self.item_id,
            self.face,
            self.reviewed_at,
            self.mode,
            self.rating,
            self.answer,
        )

    @property
    def face_key(self) -> tuple[str, str, str]:
        return (self.deck_id, self.item_id, self.face)


@dataclass(frozen=True, slots=True)
class CardRow(Row):
    TABLE: ClassVar[str] = "cards"
    ORDER: ClassVar[str] = "deck_id, item_id, face"

    deck_id: str = _column(*DECK)
    item_id: str = _column(_text, "an item id")
    face: str = _column(_text, "a face name")
    card: dict[str, Any] = _column(_mapping, "an FSRS card", kept=JSON)

    @property
    def face_key(self) -> tuple[str, str, str]:
        return (self.deck_id, self.item_id, self.face)


@dataclass(frozen=True, slots=True)
class FlagRow(Row):
    TABLE: ClassVar[str] = "flags"
    ORDER: ClassVar[str] = "id"

    deck_id: str = _column(*DECK)
    item_id: str = _column(_text, "an item id")
    face: str = _column(_text, "a face name")
    flagged_at: str = _column(*TIME)
    note: str = _column(_text, "text")

    @property
    def face_key(self) -> tuple[str, str, str]:
        return (self.deck_id, self.item_id, self.face)


@dataclass(frozen=True, slots=True)
class RenameRow(Row):
    TABLE: ClassVar[str] = "renames"

    deck_id: str = _column(*DECK)
    old_deck: str = _column(*DECK)
    old_item: str = _column(_text, "an item id or empty")
    new_item: str = _column(_text, "an item id or empty")
    carried_at: str = _column(*TIME)
    # kept as the table keeps it (0 or 1), as files have always had it
    moved: int = _column(_flag, "true or false", read=lambda v: int(bool(v)))


# In the order a progress file lists them.
ROWS: tuple[type[Row], ...] = (RoundRow, ReviewRow, CardRow, FlagRow, RenameRow)
