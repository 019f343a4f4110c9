"""Progress that travels: everything a player has (answers, schedules, rounds and scores,
flags, settings, carried renames) as one versioned file, and a merge of such a file into
another data folder.

Version 2 (written since) is JSON lines: a header line (format, version, schema, export time,
settings), then for each section of `ROWS`, in that order, a line `{"section": ..., "count":
n}` and its n rows, one per line. It is written from one read transaction a batch of rows at
a time (SQLite writes each line) and merged a batch at a time, so neither holds the answers
in memory. Version 1 (one JSON document with a list per section) is still read, whole.

The merge never duplicates: an answer is the same answer when its face, time, mode, rating and
given text are the same, a round when its start, deck and mode are, a flag when its face and
time are. Every row is checked before it is used (`check_entry`; an answer or a schedule
written as the export writes it, by one pattern that takes only what `check_entry` takes:
`answer_columns`, `schedule_columns`), and everything is written in one transaction, rolled
back whole at the first bad row: a bad file changes nothing. Faces whose history gained
answers get their schedule recomputed by replaying the merged history through FSRS, in time
order, so two machines' histories combine as if they had been played on one; faces the file
did not change keep their schedule exactly.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, fields
from datetime import datetime
from itertools import chain, islice
from pathlib import Path
from typing import IO, Any

from fsrs import Card

from vocabgame.printable import printable
from vocabgame.progress_checks import (
    FORMAT,
    VERSION,
    ProgressError,
    answer_columns,
    check_entry,
    check_header,
    parse_json,
    schedule_columns,
)
from vocabgame.srs import Srs, load_card
from vocabgame.store import SCHEMA_VERSION, Store
from vocabgame.store.rows import (
    FLAG,
    JSON,
    PLAIN,
    ROWS,
    CardRow,
    FlagRow,
    RenameRow,
    ReviewRow,
    RoundRow,
    Row,
)
from vocabgame.store.transfer import NO_NUMBER, Bulk, Face, Transfer, bound

# Called now and then with how far a long export, import or check is, and how far it goes
# (rows, or bytes of the file), for a progress bar.
Tick = Callable[[int, int], None]
EVERY = 5000  # rows between ticks: often enough for a bar, too seldom to cost anything


@dataclass(frozen=True, slots=True)
class Batch:
    """Rows of one kind that the patterns took, each as they made it (`_FAST`)."""

    rows: list[Any]


# A row of the file as the merge is given it: the file's mapping, an answer's columns
# (`answer_columns`), a schedule's (`schedule_columns`), or a batch of either.
Entry = dict[str, Any] | list[Any] | tuple[Face, int, str, str] | Batch


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


def _header(store: Store, now: datetime, version: int) -> dict[str, Any]:
    return {
        "format": FORMAT,
        "version": version,
        "schema": SCHEMA_VERSION,
        "exported_at": now.isoformat(),
        "settings": store.transfer.settings(),
    }


def export_progress(store: Store, now: datetime) -> dict[str, Any]:
    """Everything in the store, as plain JSON-ready data in memory (the sections of a
    version 1 file; `write_progress` writes a file of any size without holding it)."""
    with store.snapshot():
        data = _header(store, now, 1)
        for kind in ROWS:
            data[kind.TABLE] = [e for batch in store.transfer.entries(kind) for e in batch]
    return data


def write_progress(
    store: Store, now: datetime, out: IO[str], tick: Tick | None = None
) -> dict[str, int]:
    """Write everything in the store to `out` as a version 2 file (JSON lines), one batch
    of rows at a time, from one read transaction; returns how many rows of each section."""
    # One encoder, made once: the C encoder, as `json.dumps` with its defaults uses.
    encode = json.JSONEncoder(ensure_ascii=False, check_circular=False).encode
    with store.snapshot():
        counts = store.transfer.counts()
        total, done = sum(counts.values()), 0
        out.write(encode(_header(store, now, VERSION)) + "\n")
        for kind in ROWS:
            out.write(encode({"section": kind.TABLE, "count": counts[kind.TABLE]}) + "\n")
            for batch in store.transfer.lines(kind):
                out.write("\n".join(batch) + "\n")
                done += len(batch)
                if tick is not None:
                    tick(done, total)
    return counts


# -- checking a file -----------------------------------------------------------------------------


def check_progress(data: object, where: str) -> dict[str, Any]:
    """The data of a whole version 1 file, checked whole; raises ProgressError naming the
    first problem's place (`where` is the file name)."""
    if check_header(data, where) != 1:
        raise ProgressError(
            f"{where}: a file of version {VERSION} has one row per line, but this one is a"
            " single JSON document."
        )
    assert isinstance(data, dict)
    links = _Links(where)
    for kind in ROWS:
        entries = data.get(kind.TABLE, [])
        if not isinstance(entries, list):
            raise ProgressError(f"{where}: {kind.TABLE} should be a list.")
        for index, entry in enumerate(entries):
            check_entry(kind, entry, f"{where}: {kind.TABLE}[{index}]")
            links.check(kind, entry, f"{where}: {kind.TABLE}[{index}]")
    return data


class _Links:
    """What ties rows together, checked as they come: each answer's round is a round of
    the file (rounds come first), each schedule an FSRS card. Holds the file's round ids,
    which grow with rounds, not answers."""

    def __init__(self, where: str) -> None:
        self.where = where
        self.rounds: set[int] = set()

    def check(self, kind: type[Row], entry: Mapping[str, Any], place: str) -> None:
        if kind is RoundRow:
            self.rounds.add(entry["id"])
        elif kind is ReviewRow:
            round_id = entry.get("round_id")
            if round_id is not None and round_id not in self.rounds:
                raise ProgressError(f"{place}.round_id {round_id} is not a round in the file.")
        elif kind is CardRow:
            try:
                load_card(json.dumps(entry["card"]))
            except (KeyError, TypeError, ValueError) as exc:
                raise ProgressError(f"{place}.card is not an FSRS card ({exc}).") from None


# -- reading a file ------------------------------------------------------------------------------


@dataclass(slots=True)
class ProgressFile:
    """A progress file opened for a merge: its header checked, its rows read as they are
    merged (`rows`), each checked then."""

    path: Path
    header: dict[str, Any]
    version: int
    size: int  # bytes, for the progress of a merge
    whole: dict[str, Any] | None = None  # a version 1 file, read and checked whole

    def rows(self, tick: Tick | None = None) -> Iterator[tuple[type[Row], dict[str, Any]]]:
        """Each row with its kind, in file order (the sections in the order of `ROWS`),
        checked (`check_entry` and the links); raises ProgressError at the first bad one."""
        for kind, entry in self.entries(tick, columns=False):
            assert isinstance(entry, dict)
            yield kind, entry

    def entries(self, tick: Tick | None, columns: bool) -> Iterator[tuple[type[Row], Entry]]:
        """Each row of the file with its kind: a version 2 file's checked as each line comes
        (`columns`: an answer or a schedule as the columns the merge writes, where its line
        takes the pattern), a version 1 file's as checked whole when it was opened."""
        if self.whole is not None:
            for kind in ROWS:
                for entry in self.whole.get(kind.TABLE, []):
                    yield kind, entry
            return
        yield from _lines(self.path, self.size, tick, columns)


def open_progress_file(path: Path) -> ProgressFile:
    """Open a progress file: a version 2 file has its first line checked now and its rows
    as they are read; a version 1 file (one JSON document) is read and checked whole.
    Raises ProgressError naming the problem, OSError when it cannot be read."""
    where = str(path)
    size = path.stat().st_size
    with path.open("rb") as f:
        first = f.readline()
    try:
        header = json.loads(first)
    except (ValueError, RecursionError):  # not JSON, not UTF-8, too deep or too long a number
        header = None  # read whole below, which says which
    if isinstance(header, dict) and header.get("version") != 1:
        version = check_header(header, where)
        return ProgressFile(path, header, version, size)
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise ProgressError(f"{where}: not UTF-8 text.") from None
    data = read_progress_file(text, where)
    return ProgressFile(path, data, 1, size, whole=data)


def _lines(
    path: Path, size: int, tick: Tick | None, columns: bool
) -> Iterator[tuple[type[Row], Entry]]:
    where = str(path)
    try:
        with path.open(encoding="utf-8") as f:
            f.readline()  # the header, checked when opened
            yield from _rows(f, where, size, tick, columns)
    except UnicodeDecodeError:
        raise ProgressError(f"{where}: not UTF-8 text.") from None


def _decoded(decode: Callable[[str], Any], line: str, place: str) -> Any:
    """One line's JSON, or ProgressError naming its place ("p.jsonl:12")."""
    try:
        return decode(line)
    except json.JSONDecodeError as exc:
        raise ProgressError(f"{place}: not valid JSON ({printable(exc.msg)}).") from None
    except RecursionError:
        raise ProgressError(f"{place}: nested too deep to be a progress file.") from None
    except ValueError:  # Python's limit on the digits of an integer it converts
        raise ProgressError(
            f"{place}: a number thousands of digits long; a progress file's numbers fit in 64 bits."
        ) from None


def _taken(kind: type[Row], made: list[Any], rounds: set[int]) -> bool:
    """Whether the patterns took every row of a batch (and its answers' rounds are the
    file's)."""
    if None in made:
        return False
    return kind is not ReviewRow or all(m[0] == NO_NUMBER or m[0] in rounds for m in made)


def _rows(
    lines: IO[str], where: str, size: int, tick: Tick | None, columns: bool = False
) -> Iterator[tuple[type[Row], Entry]]:
    """The rows after the header, each checked; the sections' lines checked and left out.
    With `columns`, an answer written as the export writes it comes as its columns
    (`answer_columns`), checked by the pattern that makes them, instead of as a mapping."""
    kinds = {kind.TABLE: kind for kind in ROWS}
    order = [kind.TABLE for kind in ROWS]
    links = _Links(where)
    decode = json.JSONDecoder().decode
    kind: type[Row] | None = None
    left = index = read = 0
    rest: Iterator[str] = iter(lines)
    number = 1  # the header's
    one_by_one = 0  # the last line of a batch the patterns did not all take
    while True:
        if left and columns and kind in _FAST and number >= one_by_one:
            # A batch of rows the patterns take whole goes on as one: no yield per row.
            chunk = list(islice(rest, min(left, EVERY)))
            made = list(map(_FAST[kind], chunk))
            if chunk and _taken(kind, made, links.rounds):
                yield kind, Batch(made)
                number += len(chunk)
                read += sum(map(len, chunk))
                left -= len(chunk)
                index += len(chunk)
                if tick is not None:
                    tick(read, size)
                continue
            one_by_one = number + len(chunk)
            rest = chain(chunk, rest)
        line = next(rest, None)
        if line is None:
            break
        number += 1
        read += len(line)  # characters: bytes, near enough for a progress bar
        if left and columns and kind in _FAST:
            found = _FAST[kind](line)
            # an answer's round is one of the file's; otherwise the full check says so
            if found is not None and (
                kind is not ReviewRow or found[0] == NO_NUMBER or found[0] in links.rounds
            ):
                yield kind, found
                left -= 1
                index += 1
                if tick is not None and index % EVERY == 0:
                    tick(read, size)
                continue
        entry = _decoded(decode, line, f"{where}:{number}")
        if left == 0:  # a section's line
            section = entry.get("section") if isinstance(entry, dict) else None
            count = entry.get("count") if isinstance(entry, dict) else None
            if section not in kinds or not isinstance(count, int) or count < 0:
                raise ProgressError(
                    f"{where}:{number}: a section's line should come here, like"
                    ' {"section": "reviews", "count": 10}.'
                )
            if section not in order:
                raise ProgressError(
                    f"{where}:{number}: the section {section} is out of place (the sections"
                    f" come in this order: {', '.join(kind.TABLE for kind in ROWS)})."
                )
            del order[: order.index(section) + 1]
            kind, left, index = kinds[section], count, 0
            continue
        assert kind is not None
        place = f"{where}:{number}: {kind.TABLE}[{index}]"
        # Each row is checked here, alone, before anything uses it.
        check_entry(kind, entry, place)
        links.check(kind, entry, place)
        yield kind, entry
        left -= 1
        index += 1
        if tick is not None and index % EVERY == 0:
            tick(read, size)
    if left:
        assert kind is not None
        raise ProgressError(
            f"{where}: the file ends {left} row(s) short of its {kind.TABLE} section's count;"
            " it was cut short."
        )
    if order:
        raise ProgressError(
            f"{where}: the file ends before its {order[0]} section; it was cut short."
        )


# -- merging ---------------------------------------------------------------------------------------


def import_progress(store: Store, data: Mapping[str, Any], srs: Srs) -> Merged:
    """Merge checked progress data of a whole version 1 file (see `check_progress`) into
    the store, in one transaction."""
    rows: Iterator[tuple[type[Row], Entry]] = (
        (kind, entry) for kind in ROWS for entry in data.get(kind.TABLE, [])
    )
    return _merge(store, rows, data.get("settings", {}), srs)


def import_progress_file(
    store: Store, file: ProgressFile, srs: Srs, tick: Tick | None = None
) -> Merged:
    """Merge an opened progress file into the store, in one transaction, reading its rows
    as it goes; a bad row (ProgressError) rolls the whole merge back: nothing is kept."""
    return _merge(store, file.entries(tick, columns=True), file.header.get("settings", {}), srs)


def _columns(kind: type[Row]) -> Callable[[Mapping[str, Any]], list[Any]]:
    """What `kind.from_dict(entry).to_db()` gives, without the record between."""
    names = kind.names()
    # Only the fields that are not copied as they are: (position, how it is read, kept).
    probe = object()  # a field read as it is gives this back unchanged
    special = [
        (n, f.metadata["read"], f.metadata["kept"])
        for n, f in enumerate(fields(kind))  # type: ignore[arg-type]
        if f.metadata["kept"] != PLAIN or f.metadata["read"](probe) is not probe
    ]
    dumps = json.dumps

    def columns(entry: Mapping[str, Any]) -> list[Any]:
        get = entry.get
        out = [get(name) for name in names]
        for n, read, kept in special:
            value = read(out[n])
            if value is not None and kept == FLAG:
                value = int(bool(value))
            elif value is not None and kept == JSON:
                value = dumps(value)
            out[n] = value
        return out

    return columns


ROUND_ID = ReviewRow.names().index("round_id")
# The rows read by a pattern when they are written as the export writes them.
_FAST: dict[type[Row], Callable[[str], Any]] = {
    ReviewRow: answer_columns,
    CardRow: schedule_columns,
}


class _Merger:
    """One merge, fed the file's rows in order: rounds, answers, schedules, flags, renames.
    What it holds grows with rounds and faces, never with answers: answers go to the table
    in batches, and those already here are dropped afterwards by one statement."""

    def __init__(self, store: Store, srs: Srs) -> None:
        self.store, self.srs = store, srs
        self.transfer = transfer = store.transfer
        self.here = transfer.round_ids()
        self.round_ids: dict[int, int] = {}
        self.rounds = 0
        self.history_here = transfer.faces_with_history()
        self.last_id = transfer.last_answer_id()
        self.review_columns = _columns(ReviewRow)
        self.batch: list[list[Any]] = []
        self.added = 0  # answers written so far, before the doubled ones are dropped
        self.answers_here = transfer.answer_count()
        self.bulk: Bulk | None = None
        self.changed: set[Face] | None = None  # once the answers are all in
        self.reviews = 0
        self.carded: set[Face] = set()
        self.rescheduled = 0
        self.flag_keys: set[tuple[str, str, str, str]] | None = None
        self.faces_flagged: set[Face] = set()
        self.flags = 0

    def add(self, kind: type[Row], entry: Entry) -> None:
        if isinstance(entry, Batch):
            if kind is ReviewRow:
                self.answers(entry.rows)
            else:
                self.end_answers()
                self.schedules(entry.rows)
            return
        if kind is ReviewRow:
            self.review(entry)
            return
        if kind is not RoundRow:
            self.end_answers()
        if isinstance(entry, tuple):
            self.schedule(*entry)
            return
        assert isinstance(entry, Mapping)
        if kind is RoundRow:
            self.round(RoundRow.from_dict(entry))
        elif kind is CardRow:
            self.card(CardRow.from_dict(entry))
        elif kind is FlagRow:
            self.flag(FlagRow.from_dict(entry))
        elif kind is RenameRow:
            self.transfer.add_rename(RenameRow.from_dict(entry))

    def round(self, row: RoundRow) -> None:
        """Add the round unless it is here; note its id here."""
        if row.key not in self.here:
            self.here[row.key] = self.transfer.add_round(row)
            self.rounds += 1
        self.round_ids[row.id] = self.here[row.key]

    def answers(self, rows: list[list[Any]]) -> None:
        """Answers as their columns (`answer_columns`), in file order."""
        here = self.round_ids
        for columns in rows:
            if columns[ROUND_ID] != NO_NUMBER:
                columns[ROUND_ID] = here[columns[ROUND_ID]]
        self.batch.extend(rows)
        if len(self.batch) >= EVERY:
            self.flush()

    def review(self, entry: Entry) -> None:
        """An answer, as the file's mapping or as its columns already (`answer_columns`)."""
        if isinstance(entry, list):
            columns = entry
        else:
            assert isinstance(entry, dict)
            columns = bound(self.review_columns(entry))
        if columns[ROUND_ID] != NO_NUMBER:
            columns[ROUND_ID] = self.round_ids[columns[ROUND_ID]]
        self.batch.append(columns)
        if len(self.batch) >= EVERY:
            self.flush()

    def flush(self) -> None:
        """Write the answers read so far. Once the merge has added many answers (a quarter
        of those here, and at least a batch), the summaries' triggers and the answers' indexes are
        set aside, and made again once (`Transfer.bulk`)."""
        if self.bulk is None and self.answers_here == 0 and self.batch:
            self.bulk = self.transfer.bulk()  # an empty store: nothing to keep in step
        self.transfer.add_answers(self.batch)
        self.added += len(self.batch)
        self.batch.clear()
        if self.bulk is None and (
            self.answers_here == 0 or self.added >= max(EVERY, self.answers_here // 4)
        ):
            self.bulk = self.transfer.bulk()

    def end_answers(self) -> None:
        """Once the last answer is in: drop the ones that were here (or twice in the file)
        and note the faces that gained a scheduled answer."""
        if self.changed is not None:
            return
        self.flush()
        if self.bulk is not None:
            self.bulk.answers_done()  # what follows reads the answers by face
        self.transfer.drop_doubled_answers(self.last_id, many=self.bulk is not None)
        self.reviews, self.changed = self.transfer.answers_after(self.last_id)

    def card(self, row: CardRow) -> None:
        """A face with history on both sides is replayed; a face known only to the file
        takes the file's schedule as it is (its history there is its whole history)."""
        assert self.changed is not None
        face = row.face_key
        self.carded.add(face)
        if face in self.history_here:
            if face in self.changed:
                self.rescheduled += _replay(self.store, face, self.srs)
            return
        card = load_card(json.dumps(row.card))
        if self.transfer.card_id_taken(card.card_id):
            # Its id is taken here: a new id, and the history replayed under it.
            self.rescheduled += _replay(self.store, face, self.srs)
        else:
            self.transfer.put_card(face, card)

    def schedule(self, face: Face, card_id: int, text: str, due: str) -> None:
        """`card`, for a schedule given as its card's text (`schedule_columns`)."""
        assert self.changed is not None
        self.carded.add(face)
        if face in self.history_here:
            if face in self.changed:
                self.rescheduled += _replay(self.store, face, self.srs)
        elif self.transfer.card_id_taken(card_id):
            self.rescheduled += _replay(self.store, face, self.srs)
        else:
            self.transfer.put_card_text(face, card_id, text, due)

    def schedules(self, rows: list[tuple[Face, int, str, str]]) -> None:
        """`schedule` for a batch: the ids taken looked up in one query and the new schedules
        written in one statement, in order (written before any replay, which takes the next
        id after every card written so far)."""
        assert self.changed is not None
        taken = self.transfer.card_ids_taken([card_id for _, card_id, _, _ in rows])
        plain: list[tuple[Face, int, str, str]] = []
        for face, card_id, text, due in rows:
            self.carded.add(face)
            replay = face in self.history_here and face in self.changed
            if not replay and face in self.history_here:
                continue
            if replay or card_id in taken:
                self.transfer.put_cards_text(plain)
                plain.clear()
                self.rescheduled += _replay(self.store, face, self.srs)
                given = self.transfer.card_id(face)
                if given is not None:
                    taken.add(given)
                continue
            plain.append((face, card_id, text, due))
            taken.add(card_id)
        self.transfer.put_cards_text(plain)

    def flag(self, flag: FlagRow) -> None:
        """Add the flag of a face not flagged here."""
        if self.flag_keys is None:
            self.flag_keys = self.transfer.flag_keys()
            self.faces_flagged = {(d, i, f) for d, i, f, _ in self.flag_keys}
        if (*flag.face_key, flag.flagged_at) in self.flag_keys or (
            flag.face_key in self.faces_flagged
        ):
            return
        self.transfer.add_flag(flag)
        self.faces_flagged.add(flag.face_key)
        self.flags += 1

    def finish(self, settings: Mapping[str, object]) -> Merged:
        self.end_answers()
        assert self.changed is not None
        # Faces that gained answers but whose schedule the file did not carry.
        for face in sorted(self.changed - self.carded):
            self.rescheduled += _replay(self.store, face, self.srs)
        added_settings = _merge_settings(self.transfer, settings)
        if self.bulk is not None:
            self.bulk.done()
        return Merged(self.reviews, self.rounds, self.flags, added_settings, self.rescheduled)


def _merge(
    store: Store,
    rows: Iterable[tuple[type[Row], Entry]],
    settings: Mapping[str, object],
    srs: Srs,
) -> Merged:
    with store.transaction():
        merger = _Merger(store, srs)
        for kind, entry in rows:
            merger.add(kind, entry)
        return merger.finish(settings)


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
    """The data of a whole version 1 file's text, checked (see `check_progress`)."""
    return check_progress(parse_json(text, where), where)


def read_whole(path: Path) -> dict[str, Any]:
    """A progress file of either version as the sections of a version 1 file, checked, in
    memory (for small files and tests: a merge reads a file with `open_progress_file`)."""
    file = open_progress_file(path)
    if file.whole is not None:
        return file.whole
    data = dict(file.header)
    for kind in ROWS:
        data[kind.TABLE] = []
    for kind, entry in file.rows():
        data[kind.TABLE].append(entry)
    return data


__all__ = [
    "Merged",
    "ProgressError",
    "ProgressFile",
    "check_entry",
    "check_progress",
    "export_progress",
    "import_progress",
    "import_progress_file",
    "open_progress_file",
    "read_progress_file",
    "read_whole",
    "write_progress",
]
