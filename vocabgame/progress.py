"""Progress that travels: everything a player has (answers, schedules, rounds and scores,
flags, settings, carried renames) as one versioned JSON file, and a merge of such a file into
another data folder.

The merge never duplicates: an answer is the same answer when its face, time, mode, rating and
given text are the same, a round when its start, deck and mode are, a flag when its face and
time are. The whole file is checked before anything is written, and everything is written in
one transaction. Faces whose history gained answers get their schedule recomputed by replaying
the merged history through FSRS, in time order, so two machines' histories combine as if they
had been played on one; faces the file did not change keep their schedule exactly.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from fsrs import Card

from vocabgame.srs import Srs, dump_card, load_card
from vocabgame.store import SCHEMA_VERSION, Store

FORMAT = "vocabgame-progress"
VERSION = 1

ROUND_FIELDS = (
    "id",
    "deck_id",
    "mode",
    "started_at",
    "ended_at",
    "questions",
    "correct",
    "score",
    "best_streak",
    "finished",
)
REVIEW_FIELDS = (
    "round_id",
    "deck_id",
    "item_id",
    "face",
    "reviewed_at",
    "rating",
    "correct",
    "response_ms",
    "mode",
    "answer",
    "points",
    "scheduled",
    "overridden",  # marked wrong, counted as right by the player; absent from older files
    "card_before",  # the face's schedule before this answer (undo and `check` use it)
)
CARD_FIELDS = ("deck_id", "item_id", "face", "card")
FLAG_FIELDS = ("deck_id", "item_id", "face", "flagged_at", "note")
RENAME_FIELDS = ("deck_id", "old_deck", "old_item", "new_item", "carried_at", "moved")


class ProgressError(Exception):
    """A progress file that cannot be merged: one sentence naming the problem and its place."""


@dataclass(frozen=True, slots=True)
class Merged:
    """What an import added."""

    reviews: int
    rounds: int
    flags: int
    settings: int
    rescheduled: int  # faces whose schedule was recomputed from the merged history

    def __str__(self) -> str:
        if not (self.reviews or self.rounds or self.flags or self.settings):
            return "Nothing new: every answer, round and flag in the file was already here."
        return (
            f"Added {self.reviews} answers, {self.rounds} rounds, {self.flags} flags and "
            f"{self.settings} settings; {self.rescheduled} schedules recomputed from the merged "
            "history."
        )


# -- export --------------------------------------------------------------------------------------


def export_progress(store: Store, now: datetime) -> dict[str, Any]:
    """Everything in the store, as plain JSON-ready data."""
    conn = store.conn

    def rows(sql: str, names: tuple[str, ...]) -> list[dict[str, Any]]:
        return [dict(zip(names, row, strict=True)) for row in conn.execute(sql)]

    with store.snapshot():
        data: dict[str, Any] = {
            "format": FORMAT,
            "version": VERSION,
            "schema": SCHEMA_VERSION,
            "exported_at": now.isoformat(),
            "settings": {
                k: json.loads(v) for k, v in conn.execute("SELECT key, value FROM settings")
            },
            "rounds": rows(
                f"SELECT {', '.join(ROUND_FIELDS)} FROM rounds ORDER BY id", ROUND_FIELDS
            ),
            "reviews": rows(
                f"SELECT {', '.join(REVIEW_FIELDS)} FROM reviews ORDER BY id", REVIEW_FIELDS
            ),
            "cards": rows(
                f"SELECT {', '.join(CARD_FIELDS)} FROM cards ORDER BY deck_id, item_id, face",
                CARD_FIELDS,
            ),
            "flags": rows(f"SELECT {', '.join(FLAG_FIELDS)} FROM flags ORDER BY id", FLAG_FIELDS),
            "renames": rows(f"SELECT {', '.join(RENAME_FIELDS)} FROM renames", RENAME_FIELDS),
        }
    for card in data["cards"]:
        card["card"] = json.loads(card["card"])
    for round_ in data["rounds"]:
        round_["finished"] = bool(round_["finished"])
    for review in data["reviews"]:
        review["correct"], review["scheduled"] = bool(review["correct"]), bool(review["scheduled"])
        review["overridden"] = bool(review["overridden"])
        if review["card_before"] is not None:
            review["card_before"] = json.loads(review["card_before"])
    return data


# -- checking a file -----------------------------------------------------------------------------


def _is_time(value: object) -> bool:
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


Check = Callable[[object], bool]
SHAPES: dict[str, dict[str, tuple[Check, str, bool]]] = {
    # field: (check, what it should be, may be null)
    "rounds": {
        "id": (_whole, "a whole number", False),
        "deck_id": (_text, "a deck id", True),
        "mode": (_text, "a mode id", False),
        "started_at": (_is_time, "a time with its zone, like 2026-11-30T12:00:00+00:00", False),
        "ended_at": (_is_time, "a time with its zone", True),
        "questions": (_whole, "a whole number", False),
        "correct": (_whole, "a whole number", False),
        "score": (_whole, "a whole number", False),
        "best_streak": (_whole, "a whole number", False),
        "finished": (_flag, "true or false", False),
    },
    "reviews": {
        "round_id": (_whole, "the id of a round in the file", True),
        "deck_id": (_text, "a deck id", False),
        "item_id": (_text, "an item id", False),
        "face": (_text, "a face name", False),
        "reviewed_at": (_is_time, "a time with its zone", False),
        "rating": (lambda v: _whole(v) and 1 <= int(str(v)) <= 4, "a rating from 1 to 4", False),
        "correct": (_flag, "true or false", False),
        "response_ms": (_whole, "a whole number of milliseconds", True),
        "mode": (_text, "a mode id", False),
        "answer": (_text, "the answer as given", False),
        "points": (_whole, "a whole number", False),
        "scheduled": (_flag, "true or false", False),
        "card_before": (lambda v: isinstance(v, dict), "an FSRS card", True),
    },
    "cards": {
        "deck_id": (_text, "a deck id", False),
        "item_id": (_text, "an item id", False),
        "face": (_text, "a face name", False),
        "card": (lambda v: isinstance(v, dict), "an FSRS card", False),
    },
    "flags": {
        "deck_id": (_text, "a deck id", False),
        "item_id": (_text, "an item id", False),
        "face": (_text, "a face name", False),
        "flagged_at": (_is_time, "a time with its zone", False),
        "note": (_text, "text", False),
    },
    "renames": {
        "deck_id": (_text, "a deck id", False),
        "old_deck": (_text, "a deck id", False),
        "old_item": (_text, "an item id or empty", False),
        "new_item": (_text, "an item id or empty", False),
        "carried_at": (_is_time, "a time with its zone", False),
        "moved": (_flag, "true or false", False),
    },
}


def check_progress(data: object, where: str) -> dict[str, Any]:
    """The file's data, checked whole; raises ProgressError naming the first problem's place
    (`where` is the file name)."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ProgressError(f"{where}: not a vocabgame progress file (no format: {FORMAT!r}).")
    version = data.get("version")
    if version != VERSION:
        raise ProgressError(
            f"{where}: progress file version {version!r}; this vocabgame reads version {VERSION}."
        )
    if not isinstance(data.get("settings", {}), dict):
        raise ProgressError(f"{where}: settings should be a mapping of setting to value.")
    for section, fields in SHAPES.items():
        entries = data.get(section, [])
        if not isinstance(entries, list):
            raise ProgressError(f"{where}: {section} should be a list.")
        for index, entry in enumerate(entries):
            place = f"{where}: {section}[{index}]"
            if not isinstance(entry, dict):
                raise ProgressError(f"{place} should be a mapping.")
            for name, (check, what, nullable) in fields.items():
                if name not in entry:
                    if nullable:
                        continue  # an optional field, or one older files do not have
                    raise ProgressError(f"{place} has no {name}.")
                value = entry[name]
                if value is None and nullable:
                    continue
                if not check(value):
                    raise ProgressError(f"{place}.{name} should be {what}, not {value!r}.")
    round_ids = {r["id"] for r in data.get("rounds", [])}
    for index, review in enumerate(data.get("reviews", [])):
        if review["round_id"] is not None and review["round_id"] not in round_ids:
            raise ProgressError(
                f"{where}: reviews[{index}].round_id {review['round_id']} is not a round in the file."
            )
    for index, card in enumerate(data.get("cards", [])):
        try:
            load_card(json.dumps(card["card"]))
        except (KeyError, TypeError, ValueError) as exc:
            raise ProgressError(
                f"{where}: cards[{index}].card is not an FSRS card ({exc})."
            ) from None
    return data


# -- merging ---------------------------------------------------------------------------------------


def _review_key(r: Mapping[str, Any]) -> tuple[Any, ...]:
    return (
        r["deck_id"],
        r["item_id"],
        r["face"],
        r["reviewed_at"],
        r["mode"],
        r["rating"],
        r["answer"],
    )


def _round_key(r: Mapping[str, Any]) -> tuple[Any, ...]:
    return (r["started_at"], r["deck_id"], r["mode"])


def import_progress(store: Store, data: Mapping[str, Any], srs: Srs) -> Merged:
    """Merge checked progress data (see `check_progress`) into the store, in one transaction."""
    with store.transaction() as conn:
        rounds_here = {
            (s, d, m): i
            for i, s, d, m in conn.execute("SELECT id, started_at, deck_id, mode FROM rounds")
        }
        round_ids: dict[int, int] = {}
        added_rounds = 0
        for r in data.get("rounds", []):
            key = _round_key(r)
            if key in rounds_here:
                round_ids[r["id"]] = rounds_here[key]
                continue
            cur = conn.execute(
                "INSERT INTO rounds (deck_id, mode, started_at, ended_at, questions, correct, score,"
                " best_streak, finished) VALUES (?,?,?,?,?,?,?,?,?)",
                (
                    r["deck_id"],
                    r["mode"],
                    r["started_at"],
                    r["ended_at"],
                    r["questions"],
                    r["correct"],
                    r["score"],
                    r["best_streak"],
                    int(bool(r["finished"])),
                ),
            )
            round_ids[r["id"]] = int(cur.lastrowid or 0)
            rounds_here[key] = round_ids[r["id"]]
            added_rounds += 1

        history_here = {
            (d, i, f)
            for d, i, f in conn.execute(
                "SELECT DISTINCT deck_id, item_id, face FROM reviews WHERE scheduled=1"
            )
        } | {(d, i, f) for d, i, f in conn.execute("SELECT deck_id, item_id, face FROM cards")}
        reviews_here = {
            (d, i, f, at, m, rating, answer)
            for d, i, f, at, m, rating, answer in conn.execute(
                "SELECT deck_id, item_id, face, reviewed_at, mode, rating, answer FROM reviews"
            )
        }
        changed: set[tuple[str, str, str]] = set()
        added_reviews = 0
        for r in data.get("reviews", []):
            key = _review_key(r)
            if key in reviews_here:
                continue
            reviews_here.add(key)
            conn.execute(
                "INSERT INTO reviews (round_id, deck_id, item_id, face, reviewed_at, rating, correct,"
                " response_ms, mode, answer, points, scheduled, overridden, card_before)"
                " VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
                (
                    None if r["round_id"] is None else round_ids[r["round_id"]],
                    r["deck_id"],
                    r["item_id"],
                    r["face"],
                    r["reviewed_at"],
                    r["rating"],
                    int(bool(r["correct"])),
                    r["response_ms"],
                    r["mode"],
                    r["answer"],
                    r["points"],
                    int(bool(r["scheduled"])),
                    int(r.get("overridden") is True),
                    None if r.get("card_before") is None else json.dumps(r["card_before"]),
                ),
            )
            added_reviews += 1
            if r["scheduled"]:
                changed.add((r["deck_id"], r["item_id"], r["face"]))

        # A face with history on both sides is replayed; a face known only to the file takes
        # the file's schedule as it is (its history there is its whole history).
        file_cards = {
            (c["deck_id"], c["item_id"], c["face"]): c["card"] for c in data.get("cards", [])
        }
        rescheduled = 0
        for face in sorted(changed | set(file_cards)):
            if face in history_here:
                if face in changed:
                    rescheduled += _replay(store, face, srs)
            elif face in file_cards:
                card = load_card(json.dumps(file_cards[face]))
                if conn.execute("SELECT 1 FROM cards WHERE card_id=?", (card.card_id,)).fetchone():
                    # Its id is taken here: a new id, and the history replayed under it.
                    rescheduled += _replay(store, face, srs)
                else:
                    _put_card(store, face, card)
            else:
                rescheduled += _replay(store, face, srs)

        added_flags = 0
        flags_here = {
            (d, i, f, at)
            for d, i, f, at in conn.execute("SELECT deck_id, item_id, face, flagged_at FROM flags")
        }
        faces_flagged = {(d, i, f) for d, i, f, _ in flags_here}
        for flag in data.get("flags", []):
            face = (flag["deck_id"], flag["item_id"], flag["face"])
            if (*face, flag["flagged_at"]) in flags_here or face in faces_flagged:
                continue
            conn.execute(
                "INSERT INTO flags (deck_id, item_id, face, flagged_at, note) VALUES (?,?,?,?,?)",
                (*face, flag["flagged_at"], flag["note"]),
            )
            faces_flagged.add(face)
            added_flags += 1

        for rename in data.get("renames", []):
            conn.execute(
                "INSERT OR IGNORE INTO renames (deck_id, old_deck, old_item, new_item, carried_at,"
                " moved) VALUES (?,?,?,?,?,?)",
                tuple(rename[k] if k != "moved" else int(bool(rename[k])) for k in RENAME_FIELDS),
            )

        keys_here = {k for (k,) in conn.execute("SELECT key FROM settings")}
        added_settings = 0
        for key, value in data.get("settings", {}).items():
            if key not in keys_here:  # the settings here win; the file fills what is unset
                conn.execute(
                    "INSERT INTO settings (key, value) VALUES (?, ?)", (key, json.dumps(value))
                )
                added_settings += 1
    return Merged(added_reviews, added_rounds, added_flags, added_settings, rescheduled)


def _put_card(store: Store, face: tuple[str, str, str], card: Card) -> None:
    store.conn.execute(
        "INSERT INTO cards (deck_id, item_id, face, card_id, card, due) VALUES (?,?,?,?,?,?)"
        " ON CONFLICT (deck_id, item_id, face) DO UPDATE SET card=excluded.card, due=excluded.due",
        (*face, card.card_id, dump_card(card), card.due.isoformat()),
    )


def _replay(store: Store, face: tuple[str, str, str], srs: Srs) -> int:
    """Recompute a face's schedule from its scheduled answers in time order, writing each
    answer's card-before as it goes (undo and `check` rely on it). Returns 1 if it ran."""
    conn = store.conn
    row = conn.execute(
        "SELECT card_id FROM cards WHERE deck_id=? AND item_id=? AND face=?", face
    ).fetchone()
    card_id = int(row[0]) if row is not None else store.schedules.next_card_id()
    history = conn.execute(
        "SELECT id, reviewed_at, rating FROM reviews WHERE deck_id=? AND item_id=? AND face=?"
        " AND scheduled=1 ORDER BY reviewed_at, id",
        face,
    ).fetchall()
    if not history:
        return 0
    card: Card | None = None
    for review_id, at, rating in history:
        moment = datetime.fromisoformat(at)
        before = card
        card = srs.review(card or srs.new_card(card_id, moment), rating, moment)
        conn.execute(
            "UPDATE reviews SET card_before=? WHERE id=?",
            (dump_card(before) if before is not None else None, review_id),
        )
    assert card is not None
    _put_card(store, face, card)
    return 1


def read_progress_file(text: str, where: str) -> dict[str, Any]:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ProgressError(
            f"{where}:{exc.lineno}:{exc.colno}: not valid JSON ({exc.msg})."
        ) from None
    return check_progress(data, where)


__all__ = [
    "Merged",
    "ProgressError",
    "check_progress",
    "export_progress",
    "import_progress",
    "read_progress_file",
]
