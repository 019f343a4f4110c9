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
from collections.abc import Mapping
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

from fsrs import Card

from vocabgame.printable import printable
from vocabgame.progress_checks import ProgressError, check_record, check_setting, parse_json
from vocabgame.srs import Srs, load_card
from vocabgame.store import SCHEMA_VERSION, Store
from vocabgame.store.rows import ROWS, CardRow, FlagRow, RenameRow, ReviewRow, RoundRow, Row
from vocabgame.store.transfer import Face, Transfer

FORMAT = "vocabgame-progress"
VERSION = 1


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
    with store.snapshot():
        data: dict[str, Any] = {
            "format": FORMAT,
            "version": VERSION,
            "schema": SCHEMA_VERSION,
            "exported_at": now.isoformat(),
            "settings": store.transfer.settings(),
        }
        for kind in ROWS:
            data[kind.TABLE] = [row.to_dict() for row in store.transfer.rows(kind)]
    return data


# -- checking a file -----------------------------------------------------------------------------


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
    for key, value in data.get("settings", {}).items():
        check_setting(key, value, where)
    for kind in ROWS:
        _check_section(data.get(kind.TABLE, []), kind, where)
    _check_links(data, where)
    return data


def _check_section(entries: object, kind: type[Row], where: str) -> None:
    section = kind.TABLE
    if not isinstance(entries, list):
        raise ProgressError(f"{where}: {section} should be a list.")
    for index, entry in enumerate(entries):
        place = f"{where}: {section}[{index}]"
        if not isinstance(entry, dict):
            raise ProgressError(f"{place} should be a mapping.")
        wrong = kind.problem(entry)
        if wrong is not None:
            raise ProgressError(place + printable(wrong))
        check_record(kind, index, entry, where)


def _check_links(data: Mapping[str, Any], where: str) -> None:
    """Each answer's round is in the file; each schedule is an FSRS card."""
    round_ids = {r["id"] for r in data.get("rounds", [])}
    for index, review in enumerate(data.get("reviews", [])):
        round_id = review.get("round_id")
        if round_id is not None and round_id not in round_ids:
            raise ProgressError(
                f"{where}: reviews[{index}].round_id {round_id} is not a round in the file."
            )
    for index, card in enumerate(data.get("cards", [])):
        try:
            load_card(json.dumps(card["card"]))
        except (KeyError, TypeError, ValueError) as exc:
            raise ProgressError(
                f"{where}: cards[{index}].card is not an FSRS card ({exc})."
            ) from None


# -- merging ---------------------------------------------------------------------------------------


def import_progress(store: Store, data: Mapping[str, Any], srs: Srs) -> Merged:
    """Merge checked progress data (see `check_progress`) into the store, in one transaction."""
    rounds = [RoundRow.from_dict(r) for r in data.get("rounds", [])]
    reviews = [ReviewRow.from_dict(r) for r in data.get("reviews", [])]
    cards = [CardRow.from_dict(c) for c in data.get("cards", [])]
    flags = [FlagRow.from_dict(f) for f in data.get("flags", [])]
    with store.transaction():
        transfer = store.transfer
        round_ids, added_rounds = _merge_rounds(transfer, rounds)
        history_here = transfer.faces_with_history()
        changed, added_reviews = _merge_answers(transfer, reviews, round_ids)
        rescheduled = _merge_schedules(store, cards, changed, history_here, srs)
        added_flags = _merge_flags(transfer, flags)
        for rename in data.get("renames", []):
            transfer.add_rename(RenameRow.from_dict(rename))
        added_settings = _merge_settings(transfer, data.get("settings", {}))
    return Merged(added_reviews, added_rounds, added_flags, added_settings, rescheduled)


def _merge_rounds(transfer: Transfer, rounds: list[RoundRow]) -> tuple[dict[int, int], int]:
    """Add the rounds not here; returns each file round's id here, and how many were added."""
    here = transfer.round_ids()
    ids: dict[int, int] = {}
    added = 0
    for row in rounds:
        if row.key not in here:
            here[row.key] = transfer.add_round(row)
            added += 1
        ids[row.id] = here[row.key]
    return ids, added


def _merge_answers(
    transfer: Transfer, reviews: list[ReviewRow], round_ids: Mapping[int, int]
) -> tuple[set[Face], int]:
    """Add the answers not here; returns the faces that gained a scheduled answer, and how
    many answers were added."""
    here = transfer.answer_keys()
    changed: set[Face] = set()
    added = 0
    for row in reviews:
        if row.key in here:
            continue
        here.add(row.key)
        round_id = None if row.round_id is None else round_ids[row.round_id]
        transfer.add_answer(replace(row, round_id=round_id))
        added += 1
        if row.scheduled:
            changed.add(row.face_key)
    return changed, added


def _merge_schedules(
    store: Store, cards: list[CardRow], changed: set[Face], history_here: set[Face], srs: Srs
) -> int:
    """A face with history on both sides is replayed; a face known only to the file takes
    the file's schedule as it is (its history there is its whole history). Returns how many
    were replayed."""
    file_cards = {c.face_key: c.card for c in cards}
    rescheduled = 0
    for face in sorted(changed | set(file_cards)):
        if face in history_here:
            if face in changed:
                rescheduled += _replay(store, face, srs)
        elif face in file_cards:
            card = load_card(json.dumps(file_cards[face]))
            if store.transfer.card_id_taken(card.card_id):
                # Its id is taken here: a new id, and the history replayed under it.
                rescheduled += _replay(store, face, srs)
            else:
                store.transfer.put_card(face, card)
        else:
            rescheduled += _replay(store, face, srs)
    return rescheduled


def _merge_flags(transfer: Transfer, flags: list[FlagRow]) -> int:
    """Add the flags of faces not flagged here; returns how many."""
    here = transfer.flag_keys()
    faces_flagged = {(d, i, f) for d, i, f, _ in here}
    added = 0
    for flag in flags:
        if (*flag.face_key, flag.flagged_at) in here or flag.face_key in faces_flagged:
            continue
        transfer.add_flag(flag)
        faces_flagged.add(flag.face_key)
        added += 1
    return added


def _merge_settings(transfer: Transfer, settings: Mapping[str, object]) -> int:
    """The settings here win; the file fills what is unset. Returns how many it filled."""
    here = transfer.setting_keys()
    added = 0
    for key, value in settings.items():
        if key not in here:
            transfer.add_setting(key, value)
            added += 1
    return added


def _replay(store: Store, face: Face, srs: Srs) -> int:
    """Recompute a face's schedule from its scheduled answers in time order, writing each
    answer's card-before as it goes (undo and `check` rely on it). Returns 1 if it ran."""
    transfer = store.transfer
    card_id = transfer.card_id(face)
    if card_id is None:
        card_id = store.schedules.next_card_id()
    history = transfer.scheduled_history(face)
    if not history:
        return 0
    card: Card | None = None
    for review_id, at, rating in history:
        moment = datetime.fromisoformat(at)
        before = card
        card = srs.review(card or srs.new_card(card_id, moment), rating, moment)
        transfer.set_card_before(review_id, before)
    assert card is not None
    transfer.put_card(face, card)
    return 1


def read_progress_file(text: str, where: str) -> dict[str, Any]:
    return check_progress(parse_json(text, where), where)


__all__ = [
    "Merged",
    "ProgressError",
    "check_progress",
    "export_progress",
    "import_progress",
    "read_progress_file",
]
