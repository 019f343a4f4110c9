"""The values a progress file may hold, checked one record at a time.

`vocabgame.store.rows` checks that each field of an entry has the right type; the functions
here check what the types let through: numbers that are not finite or do not fit the store's
64-bit integers, times outside the years a game can be played in, nesting no export writes,
text holding control characters (a deck id with a terminal escape would reach the screen of
every command that names it) and schedules no FSRS card can have. Each takes one parsed
record and raises `ProgressError`, one sentence naming the place in the file; none writes
anything, so a file is refused before the store is touched.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable, Mapping
from dataclasses import fields
from datetime import UTC, datetime
from typing import Any

from vocabgame.printable import printable
from vocabgame.store.rows import Row, is_time
from vocabgame.store.transfer import NO_NUMBER, UNSET

FORMAT = "vocabgame-progress"
# 2: JSON lines (a header, then each section's line and one line per row); 1: one JSON
# document with a list per section, still read.
VERSION = 2
VERSIONS = (1, 2)


class ProgressError(Exception):
    """A progress file that cannot be merged: one sentence naming the problem and its place."""


# SQLite keeps integers in 64 bits; a larger one stops the insert half way through a merge.
INT_LIMIT = 2**63 - 1
# A game is played between these years; year 9999 overflows the first interval added to it.
EARLIEST = datetime(1970, 1, 1, tzinfo=UTC)
LATEST = datetime(3000, 1, 1, tzinfo=UTC)
# A record is flat and a card one mapping deep: anything deeper is not from an export.
MAX_DEPTH = 4
# Characters in an id, a face or a mode: deck ids have no limit, but real ones are short.
MAX_ID = 1_000
MAX_TEXT = 10_000  # characters in an answer, a note or any other text
# Fields that hold what a player typed, where a tab or a line break is no harm.
FREE_TEXT = frozenset({"answer", "note"})
# Controls, bidirectional marks and lone surrogates (which SQLite cannot even encode).
_CONTROL = re.compile(
    "[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069\ud800-\udfff]"
)
_FREE_CONTROL = re.compile(
    "[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069\ud800-\udfff]"
)
CARD_FIELDS = ("card_id", "state", "step", "stability", "difficulty", "due", "last_review")
CARDS = frozenset({"card", "card_before"})
_DIGITS = re.compile(r"\d{4000,}")


def _shown(value: object) -> str:
    """A value for the sentence: short, and never able to drive the terminal."""
    if isinstance(value, int) and value.bit_length() > 200:  # repr of 4,300 digits raises
        return f"a number of about {round(value.bit_length() * 0.30103)} digits"
    text = repr(value)
    if len(text) > 60:
        text = text[:57] + "..."
    return printable(text)


def parse_json(text: str, where: str) -> object:
    """The file's JSON, or ProgressError for text that is not JSON, nesting too deep for any
    parser to follow, or an integer too long to read."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise ProgressError(
            f"{where}:{exc.lineno}:{exc.colno}: not valid JSON ({printable(exc.msg)})."
        ) from None
    except RecursionError:
        raise ProgressError(f"{where}: nested too deep to be a progress file.") from None
    except ValueError:  # Python's limit on the digits of an integer it converts
        found = _DIGITS.search(text)
        place = where
        if found is not None:
            line = text.count("\n", 0, found.start()) + 1
            column = found.start() - (text.rfind("\n", 0, found.start()) + 1) + 1
            place = f"{where}:{line}:{column}"
        raise ProgressError(
            f"{place}: a number thousands of digits long; a progress file's numbers fit in 64 bits."
        ) from None


def check_value(value: object, place: str, depth: int = 0, free: bool = False) -> None:
    """Any value of a progress file: finite numbers that fit in 64 bits, text without control
    characters and of sensible length, and no deeper nesting than an export writes."""
    if depth > MAX_DEPTH:
        raise ProgressError(f"{place} is nested deeper than a progress file ever is.")
    if isinstance(value, bool) or value is None:
        return
    if isinstance(value, int):
        if not -INT_LIMIT <= value <= INT_LIMIT:
            raise ProgressError(f"{place} {_shown(value)} does not fit in 64 bits.")
    elif isinstance(value, float):
        if not math.isfinite(value):
            raise ProgressError(f"{place} should be a finite number, not {value!r}.")
    elif isinstance(value, str):
        check_text(value, place, free)
    elif isinstance(value, list):
        for index, item in enumerate(value):
            check_value(item, f"{place}[{index}]", depth + 1)
    elif isinstance(value, dict):
        for key, item in value.items():
            check_text(key, f"{place} key", free=False)
            check_value(item, f"{place}.{key}", depth + 1)


def check_text(text: str, place: str, free: bool = False) -> None:
    """Text of a progress file: no control character (in typed text, tabs and line breaks are
    allowed) and no more than its length."""
    limit = MAX_TEXT if free else MAX_ID
    if len(text) > limit:
        raise ProgressError(f"{place} is {len(text)} characters long; at most {limit} are kept.")
    found = (_FREE_CONTROL if free else _CONTROL).search(text)
    if found is not None:
        raise ProgressError(
            f"{place} holds the unprintable character {printable(found.group())} at character "
            f"{found.start() + 1}."
        )


def check_time(value: object, place: str) -> None:
    """A time of a progress file: readable, and between 1970 and 2999."""
    if not isinstance(value, str):
        raise ProgressError(f"{place} should be a time, not {_shown(value)}.")
    try:
        moment = datetime.fromisoformat(value)
    except ValueError:
        raise ProgressError(f"{place} should be a time, not {_shown(value)}.") from None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    try:
        inside = EARLIEST <= moment < LATEST
    except OverflowError:  # a zone that moves year 1 or 9999 off the calendar
        inside = False
    if not inside:
        raise ProgressError(f"{place} {_shown(value)} is outside the years 1970 to 2999.")


def check_card(card: object, place: str) -> None:
    """An FSRS card as a progress file holds it: every field there, each in its range."""
    if not isinstance(card, dict):
        raise ProgressError(f"{place} is not an FSRS card ({_shown(card)}).")
    for name in CARD_FIELDS:
        if name not in card:
            raise ProgressError(f"{place} is not an FSRS card (it has no {name}).")
    card_id, state, step = card["card_id"], card["state"], card["step"]
    if isinstance(card_id, bool) or not isinstance(card_id, int):
        raise ProgressError(f"{place}.card_id should be a whole number, not {_shown(card_id)}.")
    if isinstance(state, bool) or state not in (1, 2, 3):
        raise ProgressError(f"{place}.state should be 1, 2 or 3, not {_shown(state)}.")
    if step is not None and (isinstance(step, bool) or not isinstance(step, int) or step < 0):
        raise ProgressError(f"{place}.step should be a step number or null, not {_shown(step)}.")
    for name, low, high in (("stability", 0.0, 1e6), ("difficulty", 1.0, 10.0)):
        value = card[name]
        if value is None:
            continue
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise ProgressError(f"{place}.{name} should be a number, not {_shown(value)}.")
        if not (math.isfinite(value) and low <= value <= high):
            raise ProgressError(
                f"{place}.{name} {_shown(value)} is outside {low:,.10g} to {high:,.10g}."
            )
    check_time(card["due"], f"{place}.due")
    if card["last_review"] is not None:
        check_time(card["last_review"], f"{place}.last_review")


_TIMES: dict[str, frozenset[str]] = {}


def _times(kind: type[Row]) -> frozenset[str]:
    """The fields of `kind` that hold a time: read once per kind, not once per record."""
    if kind.TABLE not in _TIMES:
        found = (f.name for f in fields(kind) if f.metadata["check"] is is_time)  # type: ignore[arg-type]
        _TIMES[kind.TABLE] = frozenset(found)
    return _TIMES[kind.TABLE]


def check_record(kind: type[Row], index: int, entry: Mapping[str, object], where: str) -> None:
    """Entry `index` of `kind`'s section (`reviews[3]`), whose fields already have their
    types (`kind.problem`): raises ProgressError naming the first value no store should
    take."""
    check_fields(kind, entry, f"{where}: {kind.TABLE}[{index}]")


def check_fields(kind: type[Row], entry: Mapping[str, object], place: str) -> None:
    """The fields of one record of `kind` named `place` ("p.json:12: reviews[3]"), whose types
    are already checked: raises ProgressError naming the first value no store should take."""
    times = _times(kind)
    for name, value in entry.items():
        check_text(name, f"{place} key")
        at = f"{place}.{name}"
        if name in CARDS and value is not None:
            check_card(value, at)
        elif name in times and value is not None:
            check_time(value, at)
        check_value(value, at, free=name in FREE_TEXT)


# -- the common answer line, checked and made into columns at once ----------------------------
#
# A line exactly as `export-progress` writes an answer (no spaces, every field in its order,
# no escapes in any text) is matched whole by one pattern whose every part takes only what
# `check_entry` takes; a line it does not match goes through `check_entry` (and gets its
# sentence there). What the pattern cannot say (a real day of a real month, a number's range)
# is checked after it, in the same spirit: in doubt, the full check.

_CHAR = '[^"\\\\\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069\ud800-\udfff]'
_ID = f'"({_CHAR}{{0,{MAX_ID}}})"'
_FREE = f'"({_CHAR}{{0,{MAX_TEXT}}})"'
_INT = "(-?(?:0|[1-9][0-9]{0,17}))"  # at most 18 digits: inside 64 bits
_NULL_INT = "(null|-?(?:0|[1-9][0-9]{0,17}))"
_NUMBER = "(null|-?(?:0|[1-9][0-9]*)(?:\\.[0-9]+)?(?:[eE][+-]?[0-9]+)?)"
# The years 1971 to 2998, so that no zone takes a time outside 1970 to 2999.
_TIME = (
    '"((?:197[1-9]|19[89][0-9]|2[0-8][0-9]{2}|29[0-8][0-9])-[0-9]{2}-[0-9]{2}'
    'T[0-9]{2}:[0-9]{2}:[0-9]{2}(?:\\.[0-9]{6})?[+-](?:[01][0-9]|2[0-3]):[0-5][0-9])"'
)
_BOOL = "(true|false)"
_CARD = (
    f'(null|\\{{"card_id":{_INT},"state":([123]),"step":(null|0|[1-9][0-9]{{0,17}}),'
    f'"stability":{_NUMBER},"difficulty":{_NUMBER},"due":{_TIME},'
    f'"last_review":(null|{_TIME})\\}})'
)
_ANSWER = re.compile(
    f'\\{{"round_id":{_NULL_INT},"deck_id":{_ID},"item_id":{_ID},"face":{_ID},'
    f'"reviewed_at":{_TIME},"rating":([1-4]),"correct":{_BOOL},"response_ms":{_NULL_INT},'
    f'"mode":{_ID},"answer":{_FREE},"points":{_INT},"scheduled":{_BOOL},'
    f'"overridden":{_BOOL},"card_before":{_CARD},"confidence":{_NUMBER}\\}}\n?'
)


NO_CARD, NO_CONFIDENCE = UNSET["card_before"], UNSET["confidence"]


def answer_columns(line: str) -> list[Any] | None:
    """The columns of an answer's line (`ReviewRow.names()` order, its round id the file's,
    as `add_answers` takes them: see `bound`), as `check_entry` then the import's conversion
    would give them, when the line is written
    as `export-progress` writes it and every value passes; None otherwise (the caller checks
    the line in full, which says what is wrong, if anything)."""
    match = _ANSWER.fullmatch(line)
    if match is None:
        return None
    (
        round_id, deck_id, item_id, face, at, rating, correct, response_ms, mode, answer,
        points, scheduled, overridden, card, _, _, _, stability, difficulty, due, _, last,
        confidence,
    ) = match.groups()  # fmt: skip
    try:
        _fromisoformat(at)
        if card != "null":
            _fromisoformat(due)
            if last is not None:
                _fromisoformat(last)
            if stability != "null" and not _kept_as_written(stability, 0.0, 1e6):
                return None
            if difficulty != "null" and not _kept_as_written(difficulty, 1.0, 10.0):
                return None
            # as the import keeps it: json.dumps of the parsed card
            card = card.replace('":', '": ').replace(',"', ', "')
        if confidence == "null":
            sure = None
        else:
            sure = (
                float(confidence)
                if "." in confidence or "e" in confidence.lower()
                else int(confidence)
            )
            if not 0 <= sure <= 1:
                return None
    except ValueError:  # not a day of the calendar, or an hour past 23
        return None
    return [
        NO_NUMBER if round_id == "null" else int(round_id),
        deck_id,
        item_id,
        face,
        at,
        int(rating),
        1 if correct == "true" else 0,
        NO_NUMBER if response_ms == "null" else int(response_ms),
        mode,
        answer,
        int(points),
        1 if scheduled == "true" else 0,
        1 if overridden == "true" else 0,
        NO_CARD if card == "null" else card,
        NO_CONFIDENCE if sure is None else sure,
    ]


# A schedule's line: its card as the store writes it (`dump_card`, times in UTC), so that its
# text is kept as it is.
_UTC = _TIME.replace("[+-](?:[01][0-9]|2[0-3]):[0-5][0-9]", "\\+00:00")
_SCHEDULE = re.compile(
    f'\\{{"deck_id":{_ID},"item_id":{_ID},"face":{_ID},"card":(\\{{"card_id":{_INT},'
    f'"state":([123]),"step":(null|0|[1-9][0-9]{{0,17}}),"stability":{_NUMBER},'
    f'"difficulty":{_NUMBER},"due":{_UTC},"last_review":(null|{_UTC})\\}})\\}}\n?'
)


def schedule_columns(line: str) -> tuple[tuple[str, str, str], int, str, str] | None:
    """A schedule's line as (face, card id, the card's text, its due time), what `check_entry`,
    the links' check and `dump_card(load_card(...))` would make of it, when the line is
    written as `export-progress` writes it and every value passes; None otherwise (the caller
    checks the line in full)."""
    match = _SCHEDULE.fullmatch(line)
    if match is None:
        return None
    deck_id, item_id, face, card, card_id, state, step, stability, difficulty, due, _, last = (
        match.groups()
    )
    # What reading the card would change: a learning card's missing step, a zero or whole
    # number where a float goes, a time written with no fraction of a second.
    if (state == "1" and step == "null") or ".000000+" in card:
        return None
    for number, low, high in ((stability, 0.0, 1e6), (difficulty, 1.0, 10.0)):
        if number != "null" and (
            not ("." in number or "e" in number or "E" in number)
            or not _kept_as_written(number, low, high)
            or float(number) == 0
        ):
            return None
    try:
        _fromisoformat(due)
        if last is not None:
            _fromisoformat(last)
    except ValueError:
        return None
    text = card.replace('":', '": ').replace(',"', ', "')
    return (deck_id, item_id, face), int(card_id), text, due


_fromisoformat = datetime.fromisoformat


def _kept_as_written(number: str, low: float, high: float) -> bool:
    """Whether a card's number is in its range and written as the import would write it again
    (Python's shortest form), so that the card's text can be kept as it is in the file."""
    value = float(number)
    if not low <= value <= high:
        return False
    return ("." not in number and "e" not in number and "E" not in number) or repr(value) == number


def check_setting(key: object, value: object, where: str) -> None:
    """One setting of the file: a setting this vocabgame knows must hold a value it allows
    (never NaN or an infinity); one it does not know is only checked as any value is."""
    from vocabgame.settings import SPEC, SettingError

    place = f"{where}: settings"
    if not isinstance(key, str):
        raise ProgressError(f"{place} has a key that is not text.")
    check_text(key, f"{place} key")
    check_value(value, f"{place}.{key}")
    spec = SPEC.get(key)
    if spec is not None:
        try:
            spec.check(value)
        except SettingError as exc:
            raise ProgressError(f"{place}.{key}: {printable(str(exc))}.") from None


def check_entry(kind: type[Row], entry: object, place: str) -> None:
    """One row of the file, checked alone (`place` names it, as "p.json: reviews[3]");
    raises ProgressError with the sentence that refuses it. Every row of either version
    passes here before anything uses it."""
    if not isinstance(entry, dict):
        raise ProgressError(f"{place} should be a mapping.")
    wrong = _problem(kind)(entry)
    if wrong is not None:
        raise ProgressError(place + printable(wrong))
    check_fields(kind, entry, place)  # the values no store should take


_PROBLEMS: dict[type[Row], Callable[[Mapping[str, object]], str | None]] = {}


def _problem(kind: type[Row]) -> Callable[[Mapping[str, object]], str | None]:
    """`kind.problem`, with its fields' metadata read once rather than once per row."""
    if kind in _PROBLEMS:
        return _PROBLEMS[kind]
    plan = [
        (f.name, f.metadata["check"], f.metadata["nullable"], f.metadata["what"])
        for f in fields(kind)  # type: ignore[arg-type]
    ]
    missing = object()

    def problem(entry: Mapping[str, object]) -> str | None:
        for name, check, nullable, what in plan:
            value = entry.get(name, missing)
            if value is missing:
                if nullable:
                    continue  # an optional field, or one older files do not have
                return f" has no {name}."
            if value is None and nullable:
                continue
            if not check(value):
                return f".{name} should be {what}, not {value!r}."
        return None

    _PROBLEMS[kind] = problem
    return problem


def check_header(data: object, where: str) -> int:
    """The file's version, once its header (format, version, settings) is checked; raises
    ProgressError naming `where` otherwise."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ProgressError(f"{where}: not a vocabgame progress file (no format: {FORMAT!r}).")
    version = data.get("version")
    if version not in VERSIONS or isinstance(version, bool):
        raise ProgressError(
            f"{where}: progress file version {version!r}; this vocabgame reads versions"
            f" {', '.join(map(str, VERSIONS))}."
        )
    if not isinstance(data.get("settings", {}), dict):
        raise ProgressError(f"{where}: settings should be a mapping of setting to value.")
    for key, value in data.get("settings", {}).items():
        check_setting(key, value, where)
    return int(version)


__all__ = [
    "ProgressError",
    "answer_columns",
    "check_card",
    "FORMAT",
    "VERSION",
    "VERSIONS",
    "check_entry",
    "check_header",
    "check_record",
    "check_setting",
    "check_text",
    "check_time",
    "check_value",
    "parse_json",
    "schedule_columns",
]
