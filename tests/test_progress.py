"""Progress that travels: export everything to one file, import it into another data folder,
merge two machines' histories, and refuse a bad file whole."""

from __future__ import annotations

import json
import sqlite3
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from vocabgame.cli import main
from vocabgame.deck import load_catalog
from vocabgame.play import Session
from vocabgame.progress import read_whole
from vocabgame.srs import Srs
from vocabgame.store import DB_NAME, Store

from .conftest import DATA
from .faults import answer_right, contents, items_problems, replay_problems

START = datetime(2026, 11, 1, 9, 0, tzinfo=UTC)
CATALOG = load_catalog([DATA / "ui"])


def play_days(data_dir: Path, first_day: int, days: int, seed: int = 1, hour: int = 0) -> None:
    """A round a day (`hour` hours after the usual time), every fourth answer wrong."""
    for day in range(first_day, first_day + days):
        now = START + timedelta(days=day, hours=hour)
        session = Session(Store.open(data_dir / DB_NAME), CATALOG, clock=lambda now=now: now)
        round_ = session.start_round("serving", size=6, seed=seed + day)
        assert round_ is not None
        n = 0
        while round_.question() is not None:
            n += 1
            question = round_.question()
            assert question is not None
            if n % 4 == 0 and question.kind == "choice":
                wrong = next(
                    i for i, c in enumerate(question.choices) if c.value != question.answer
                )
                round_.answer_choice(wrong)
            else:
                answer_right(round_)
            round_.advance()
        round_.finish()
        session.close()


def stats_json(data_dir: Path, capsys: pytest.CaptureFixture[str]) -> dict[str, object]:
    capsys.readouterr()
    assert main(["stats", "--json", "--data-dir", str(data_dir), "--decks", str(DATA / "ui")]) == 0
    return json.loads(capsys.readouterr().out)


def export(data_dir: Path, file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["export-progress", str(file), "--data-dir", str(data_dir)]) == 0
    assert "Wrote" in capsys.readouterr().out


def test_export_then_import_into_an_empty_folder_reproduces_stats_exactly(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    home, laptop, file = tmp_path / "home", tmp_path / "laptop", tmp_path / "progress.json"
    play_days(home, 0, 14)
    assert main(["settings", "--data-dir", str(home), "--round-size", "12"]) == 0
    export(home, file, capsys)
    assert main(["import-progress", str(file), "--data-dir", str(laptop)]) == 0
    assert "Added" in capsys.readouterr().out
    assert stats_json(laptop, capsys) == stats_json(home, capsys)
    mine, theirs = contents(home / DB_NAME), contents(laptop / DB_NAME)
    for table in ("cards", "rounds", "settings", "flags"):
        assert mine[table] == theirs[table], table
    assert len(theirs["reviews"]) == len(mine["reviews"]) > 50


def test_importing_the_same_file_twice_changes_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    home, laptop, file = tmp_path / "home", tmp_path / "laptop", tmp_path / "p.json"
    play_days(home, 0, 3)
    play_days(laptop, 1, 2, seed=9)
    export(home, file, capsys)
    assert main(["import-progress", str(file), "--data-dir", str(laptop)]) == 0
    # The laptop had progress of its own: it was backed up before the merge.
    assert "Backed up the progress here to" in capsys.readouterr().out
    assert list((laptop / "backups").glob("vocabgame-*.db"))
    once = contents(laptop / DB_NAME)
    capsys.readouterr()
    assert main(["import-progress", str(file), "--data-dir", str(laptop)]) == 0
    assert "Nothing new" in capsys.readouterr().out
    assert contents(laptop / DB_NAME) == once


def test_two_machines_histories_merge_as_if_played_on_one(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    home, laptop, file = tmp_path / "home", tmp_path / "laptop", tmp_path / "p.json"
    play_days(home, 0, 5)
    play_days(laptop, 3, 5, seed=7, hour=5)  # overlapping days, the same faces
    before = {t: len(rows) for t, rows in contents(home / DB_NAME).items()}
    laptop_rows = {t: len(rows) for t, rows in contents(laptop / DB_NAME).items()}
    export(laptop, file, capsys)
    assert main(["import-progress", str(file), "--data-dir", str(home)]) == 0
    merged = contents(home / DB_NAME)
    assert len(merged["reviews"]) == before["reviews"] + laptop_rows["reviews"]
    assert len(merged["rounds"]) == before["rounds"] + laptop_rows["rounds"]
    # Every schedule is the merged history replayed in the order the answers were given.
    assert replay_problems(home / DB_NAME, Srs(), order="time") == []
    assert items_problems(home / DB_NAME) == []
    with Store.open(home / DB_NAME) as store:
        ids = [r[0] for r in store.conn.execute("SELECT card_id FROM cards")]
    assert len(ids) == len(set(ids))


def good_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> dict[str, object]:
    source, file = tmp_path / "source", tmp_path / "good.json"
    play_days(source, 0, 1)
    export(source, file, capsys)
    return read_whole(file)


def as_lines(data: dict[str, object]) -> str:
    """The data as a version 2 file: its header, then each section's line and rows."""
    from vocabgame.store.rows import ROWS

    header = {k: v for k, v in data.items() if k not in {kind.TABLE for kind in ROWS}}
    lines = [json.dumps(header)]
    for kind in ROWS:
        rows = data.get(kind.TABLE, [])
        assert isinstance(rows, list)
        lines.append(json.dumps({"section": kind.TABLE, "count": len(rows)}))
        lines.extend(json.dumps(row) for row in rows)
    return "\n".join(lines) + "\n"


def broken(data: dict[str, object], how: str, version: int) -> str:
    data = json.loads(json.dumps(data)) | {"version": version}
    reviews = data["reviews"]
    assert isinstance(reviews, list)
    match how:
        case "rating":
            reviews[2]["rating"] = 7
        case "time":
            reviews[1]["reviewed_at"] = "yesterday"
        case "missing":
            del reviews[0]["face"]
        case "round":
            reviews[0]["round_id"] = 999
        case "version":
            data["version"] = 3
        case "format":
            data["format"] = "anki"
        case "card":
            data["cards"][0]["card"] = {"due": "soon"}  # type: ignore[index]
    return as_lines(data) if version == 2 else json.dumps(data)


@pytest.mark.parametrize(
    ("how", "message"),
    [
        ("rating", "reviews[2].rating should be a rating from 1 to 4, not 7."),
        ("time", "reviews[1].reviewed_at should be a time with its zone, not 'yesterday'."),
        ("missing", "reviews[0] has no face."),
        ("round", "reviews[0].round_id 999 is not a round in the file."),
        ("version", "progress file version 3; this vocabgame reads versions 1, 2."),
        ("format", "not a vocabgame progress file"),
        ("card", "cards[0].card is not an FSRS card"),
    ],
)
@pytest.mark.parametrize("version", [1, 2])
def test_a_bad_file_is_refused_whole_with_its_place(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], how: str, message: str, version: int
) -> None:
    data = good_file(tmp_path, capsys)
    target = tmp_path / "target"
    play_days(target, 0, 1, seed=3)
    before = contents(target / DB_NAME)
    file = tmp_path / f"{how}.json"
    file.write_text(broken(data, how, version), encoding="utf-8")
    capsys.readouterr()
    assert main(["import-progress", str(file), "--data-dir", str(target)]) == 1
    err = capsys.readouterr().err.strip()
    assert message in err and str(file) in err and "\n" not in err, err
    assert contents(target / DB_NAME) == before  # nothing written


def test_not_json_names_the_line_and_column(tmp_path: Path, capsys) -> None:
    file = tmp_path / "p.json"
    file.write_text('{\n  "format": "vocabgame-progress",\n  oops\n}', encoding="utf-8")
    assert main(["import-progress", str(file), "--data-dir", str(tmp_path / "d")]) == 1
    assert f"{file}:3:3: not valid JSON" in capsys.readouterr().err
    assert not (tmp_path / "d" / DB_NAME).exists()  # refused before opening the store


def test_export_does_not_replace_a_file_unless_forced(tmp_path: Path, capsys) -> None:
    file = tmp_path / "p.json"
    file.write_text("keep me", encoding="utf-8")
    assert main(["export-progress", str(file), "--data-dir", str(tmp_path / "d")]) == 2
    assert "--force" in capsys.readouterr().err and file.read_text() == "keep me"
    assert main(["export-progress", str(file), "--force", "--data-dir", str(tmp_path / "d")]) == 0
    assert read_whole(file)["format"] == "vocabgame-progress"


def test_an_override_travels_and_an_older_file_without_the_mark_still_imports(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from vocabgame.model import FaceKey

    home, laptop, older = tmp_path / "home", tmp_path / "laptop", tmp_path / "older"
    session = Session(Store.open(home / DB_NAME), CATALOG, clock=lambda: START)
    round_ = session.start_round("serving", seed=1)
    assert round_ is not None
    round_.queue[0] = FaceKey("serving", "ttft", "typed")
    round_.answer_text("time to last token")
    assert round_.override() is not None
    session.close()
    file = tmp_path / "p.json"
    export(home, file, capsys)
    data = read_whole(file)
    assert [r["overridden"] for r in data["reviews"]] == [True]
    assert main(["import-progress", str(file), "--data-dir", str(laptop)]) == 0
    assert stats_json(laptop, capsys)["overrides"] == 1
    for review in data["reviews"]:
        del review["overridden"]  # as a file from before overrides existed
    file.write_text(json.dumps(data | {"version": 1}), encoding="utf-8")
    assert main(["import-progress", str(file), "--data-dir", str(older)]) == 0
    assert stats_json(older, capsys)["overrides"] == 0


def test_each_row_record_names_columns_of_its_table_and_round_trips(tmp_path: Path) -> None:
    """The records a progress file is read and written through (vocabgame.store.rows) cannot
    drift from the schema: every field is a column of its table, and a row read from a played
    store goes to a dict and back, and to its columns and back, unchanged."""
    from dataclasses import fields

    from vocabgame.store.rows import ROWS

    play_days(tmp_path, 0, 2)
    with Store.open(tmp_path / DB_NAME) as store:
        session = Session(store, CATALOG, clock=lambda: START + timedelta(days=2))
        round_ = session.start_round("serving", seed=3)
        assert round_ is not None
        store.face_flags.add(round_.queue[0], START, "a note")
        for kind in ROWS:
            columns = {row[1] for row in store.conn.execute(f"PRAGMA table_info({kind.TABLE})")}
            assert {f.name for f in fields(kind)} <= columns, kind.TABLE  # type: ignore[arg-type]
            if kind.TABLE == "renames":
                continue  # none carried in this store
            rows = store.transfer.rows(kind)
            assert rows, kind.TABLE
            for row in rows:
                assert kind.from_dict(row.to_dict()) == row
                assert kind.from_db(row.to_db()) == row
                assert kind.problem(row.to_dict()) is None


def test_a_bad_entry_is_refused_with_its_place_and_field(tmp_path: Path) -> None:
    from vocabgame.progress import FORMAT, ProgressError, check_progress

    review = {
        "deck_id": "d",
        "item_id": "i",
        "face": "f",
        "reviewed_at": "2026-01-01T00:00:00+00:00",
    }
    bad = {"format": FORMAT, "version": 1, "reviews": [review | {"rating": 7}]}
    with pytest.raises(ProgressError) as refused:
        check_progress(bad, "p.json")
    assert str(refused.value) == "p.json: reviews[0].rating should be a rating from 1 to 4, not 7."
    with pytest.raises(ProgressError) as refused:
        check_progress({"format": FORMAT, "version": 1, "rounds": [{"id": 1}]}, "p.json")
    assert str(refused.value) == "p.json: rounds[0] has no mode."


def schema_objects(path: Path, kind: str) -> list[tuple[str, str]]:
    """The store's triggers or indexes (`kind`), each with its SQL, by name."""
    conn = sqlite3.connect(path)
    try:
        return conn.execute(
            "SELECT name, sql FROM sqlite_master WHERE type = ? ORDER BY name", (kind,)
        ).fetchall()
    finally:
        conn.close()


def check_findings(path: Path) -> list[str]:
    from vocabgame.check import run, srs_for

    conn = sqlite3.connect(path, isolation_level=None)
    try:
        return [f"{f.kind}: {f.message}" for f in run(conn, srs_for(conn))[0]]
    finally:
        conn.close()


def test_a_merge_of_many_answers_rebuilds_the_summaries_and_keeps_the_triggers(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Batches of 4: the merge sets the triggers aside after its first batches (into an
    empty folder at once, into a played one part of the way) and rebuilds the summaries."""
    monkeypatch.setattr("vocabgame.progress.EVERY", 4)
    home, laptop, empty = tmp_path / "home", tmp_path / "laptop", tmp_path / "empty"
    play_days(home, 0, 5)
    play_days(laptop, 3, 5, seed=7, hour=5)
    kept = schema_objects(home / DB_NAME, "trigger")
    file = tmp_path / "p.json"
    export(laptop, file, capsys)
    made = schema_objects(home / DB_NAME, "index")
    for target in (home, empty):
        assert main(["import-progress", str(file), "--data-dir", str(target)]) == 0
        assert schema_objects(target / DB_NAME, "trigger") == kept
        assert schema_objects(target / DB_NAME, "index") == made
        assert items_problems(target / DB_NAME) == []
        assert check_findings(target / DB_NAME) == []
        assert card_columns_problems(target / DB_NAME) == []
    assert stats_json(empty, capsys) == stats_json(laptop, capsys)


def card_columns_problems(path: Path) -> list[tuple[object, ...]]:
    """The cards whose own columns (stability, last review in microseconds) are not their
    JSON's, as the trigger that keeps them would set them."""
    conn = sqlite3.connect(path)
    try:
        rows = conn.execute("SELECT card, stability, last_review FROM cards").fetchall()
    finally:
        conn.close()
    assert rows
    wrong = []
    for card, stability, last in rows:
        data = json.loads(card)
        at = data["last_review"]
        micros = None
        if at is not None:
            moment = datetime.fromisoformat(at) - datetime(1970, 1, 1, tzinfo=UTC)
            micros = (moment.days * 86400 + moment.seconds) * 1_000_000 + moment.microseconds
        if (stability, last) != (data["stability"], micros):
            wrong.append((card, stability, last))
    return wrong


def test_a_cut_short_or_disordered_file_is_refused_with_its_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source, file = tmp_path / "source", tmp_path / "p.json"
    play_days(source, 0, 1)
    export(source, file, capsys)
    lines = file.read_text(encoding="utf-8").splitlines(keepends=True)
    target = tmp_path / "target"
    play_days(target, 0, 1, seed=3)
    before = contents(target / DB_NAME)
    reviews = next(n for n, line in enumerate(lines) if '"section": "reviews"' in line)
    cases = {
        "cut": (lines[: reviews + 3], "row(s) short of its reviews section's count"),
        "no-sections": (lines[:1], "the file ends before its rounds section"),
        "disordered": (
            lines + lines[1:reviews],  # the rounds again, after the last section
            "the section rounds is out of place",
        ),
        "bad-line": (
            lines[:reviews] + ["{oops\n"] + lines[reviews:],
            f":{reviews + 1}: not valid JSON",
        ),
    }
    for name, (text, message) in cases.items():
        bad = tmp_path / f"{name}.json"
        bad.write_text("".join(text), encoding="utf-8")
        capsys.readouterr()
        assert main(["import-progress", str(bad), "--data-dir", str(target)]) == 1, name
        err = capsys.readouterr().err.strip()
        assert message in err and str(bad) in err and "\n" not in err, (name, err)
        assert "Nothing was imported." in err
        assert contents(target / DB_NAME) == before, name


def test_the_fast_row_check_says_what_the_records_own_check_says() -> None:
    """`check_entry` reads each field's metadata once per kind rather than once per row; it
    must refuse and accept exactly what `Row.problem` does, with the same sentence."""
    from vocabgame.progress_checks import _problem
    from vocabgame.store.rows import ReviewRow, RoundRow

    review: dict[str, object] = {
        "round_id": 1,
        "deck_id": "d",
        "item_id": "i",
        "face": "f",
        "reviewed_at": "2026-01-01T00:00:00+00:00",
        "rating": 3,
        "correct": True,
        "response_ms": None,
        "mode": "review",
        "answer": "x",
        "points": 10,
        "scheduled": True,
        "card_before": None,
    }
    cases: list[tuple[type, dict[str, object]]] = [(ReviewRow, review)]
    for name in list(review):
        cases.append((ReviewRow, {k: v for k, v in review.items() if k != name}))
        for bad in (None, "x", 7, True, 1.5, {}, []):
            cases.append((ReviewRow, review | {name: bad}))
    cases += [(RoundRow, {"id": 1}), (RoundRow, {"id": "1", "mode": "m"})]
    for kind, entry in cases:
        assert _problem(kind)(entry) == kind.problem(entry), (kind, entry)
    assert any(kind.problem(entry) is not None for kind, entry in cases)


def test_the_lines_sqlite_writes_hold_what_the_records_give(tmp_path: Path) -> None:
    """The export's lines, which SQLite writes as JSON, parse to exactly the rows read through
    the records: the same fields in the same order, flags as true or false, JSON columns as
    objects, and a REAL that needs all 17 digits kept to its last bit."""
    from vocabgame.progress import write_progress

    play_days(tmp_path, 0, 2)
    with Store.open(tmp_path / DB_NAME) as store:
        store.conn.execute(
            "INSERT INTO renames (deck_id, old_deck, old_item, new_item, carried_at, moved)"
            " VALUES ('serving', 'old', 'a\u00e9\"\\\n', '', '2026-11-02T09:00:00+00:00', 1)"
        )
        awkward = [0.1 + 0.2, 1 / 3, 0.75, 1.0, 5e-324]
        ids = [i for (i,) in store.conn.execute("SELECT id FROM reviews ORDER BY id LIMIT 5")]
        for review_id, value in zip(ids, awkward, strict=True):
            store.conn.execute("UPDATE reviews SET confidence=? WHERE id=?", (value, review_id))
        store.conn.commit()
        path = tmp_path / "p.jsonl"
        with path.open("w", encoding="utf-8") as out:
            write_progress(store, START, out)
        written: dict[str, list[dict[str, object]]] = {}
        section = ""
        for line in path.read_text("utf-8").splitlines()[1:]:
            entry = json.loads(line)
            if set(entry) == {"section", "count"}:
                section = entry["section"]
                written[section] = []
            else:
                written[section].append(entry)
        from vocabgame.store.rows import ROWS

        with store.snapshot():
            for kind in ROWS:
                expected = [e for batch in store.transfer.entries(kind) for e in batch]
                assert written[kind.TABLE] == expected, kind.TABLE
                assert [list(e) for e in written[kind.TABLE]] == [list(e) for e in expected]
        assert [r["confidence"] for r in written["reviews"][:5]] == awkward
        assert written["renames"] and written["reviews"][0]["correct"] in (True, False)


ANSWER_LINE = (
    '{"round_id":7,"deck_id":"serving","item_id":"kv-cache","face":"definition",'
    '"reviewed_at":"2026-11-02T09:00:00.250000+01:00","rating":3,"correct":true,'
    '"response_ms":2500,"mode":"review","answer":"x","points":10,"scheduled":true,'
    '"overridden":false,"card_before":{"card_id":5,"state":2,"step":null,'
    '"stability":2.3065,"difficulty":2.118103970459016,"due":"2026-11-03T09:00:00+00:00",'
    '"last_review":"2026-11-01T09:00:00+00:00"},"confidence":0.75}'
)
# (what the line holds, what to put there instead): each a value the full check may or may
# not take; the pattern must never take one it refuses, nor read one differently.
ODD_VALUES = [
    ('"round_id":7', ['"round_id":null', '"round_id":-7', '"round_id":1234567890123456789']),
    (
        '"deck_id":"serving"',
        [
            '"deck_id":""',
            '"deck_id":"a\u202eb"',
            '"deck_id":"a\x7fb"',
            '"deck_id":"a\\u001bb"',
            '"deck_id":"' + "d" * 1001 + '"',
            '"deck_id":"' + "d" * 1000 + '"',
            '"deck_id":7',
            '"deck_id":"caf\u00e9 \u00fc\u4e2d"',
        ],
    ),
    (
        '"reviewed_at":"2026-11-02T09:00:00.250000+01:00"',
        [
            '"reviewed_at":"2026-02-30T09:00:00+00:00"',
            '"reviewed_at":"2026-11-02T24:00:00+00:00"',
            '"reviewed_at":"1970-01-01T00:30:00+01:00"',
            '"reviewed_at":"2999-12-31T23:00:00-02:00"',
            '"reviewed_at":"2026-11-02T09:00:00"',
            '"reviewed_at":"2024-02-29T09:00:00+00:00"',
            '"reviewed_at":"2023-02-29T09:00:00+00:00"',
            '"reviewed_at":"2026-13-02T09:00:00+00:00"',
            '"reviewed_at":"2026-11-02T09:00:00+24:00"',
        ],
    ),
    ('"rating":3', ['"rating":0', '"rating":5', '"rating":3.0', '"rating":true']),
    ('"correct":true', ['"correct":false', '"correct":1', '"correct":null']),
    ('"response_ms":2500', ['"response_ms":null', '"response_ms":-1', '"response_ms":2.5']),
    (
        '"answer":"x"',
        ['"answer":"a\\tb"', '"answer":"a\\"b"', '"answer":""', '"answer":"' + "a" * 10001 + '"'],
    ),
    ('"points":10', ['"points":-10', '"points":99999999999999999999']),
    ('"overridden":false', ['"overridden":true', '"overridden":1']),
    ('"state":2', ['"state":4', '"state":0']),
    ('"step":null', ['"step":0', '"step":3', '"step":-1']),
    (
        '"stability":2.3065',
        [
            '"stability":null',
            '"stability":0',
            '"stability":1e6',
            '"stability":1e7',
            '"stability":-0.5',
            '"stability":1e999',
        ],
    ),
    (
        '"difficulty":2.118103970459016',
        ['"difficulty":1', '"difficulty":10.0', '"difficulty":0.5', '"difficulty":10.5'],
    ),
    ('"due":"2026-11-03T09:00:00+00:00"', ['"due":"2026-04-31T09:00:00+00:00"']),
    (
        '"last_review":"2026-11-01T09:00:00+00:00"',
        ['"last_review":null', '"last_review":"3000-01-01T00:00:00+00:00"'],
    ),
    (
        '"confidence":0.75',
        [
            '"confidence":null',
            '"confidence":1',
            '"confidence":0',
            '"confidence":1.5',
            '"confidence":0.30000000000000004',
            '"confidence":1e-5',
            '"confidence":-0.0',
            '"confidence":NaN',
        ],
    ),
    ('"card_before":{', ['"card_before":null,"x":{']),
    ('{"round_id"', [' {"round_id"', '{ "round_id"']),
]


def test_the_pattern_for_answers_takes_only_what_the_full_check_takes() -> None:
    """`answer_columns` (the import's one pattern for the lines the export writes) gives, for
    each line it takes, the columns the full check and conversion give; a line it leaves is
    one it cannot vouch for, and the common lines are all taken."""
    from vocabgame.progress import ProgressError, _columns, check_entry
    from vocabgame.progress_checks import answer_columns
    from vocabgame.store.rows import ReviewRow
    from vocabgame.store.transfer import bound

    full = _columns(ReviewRow)
    card_null = ANSWER_LINE.split(',"card_before"')[0] + ',"card_before":null,"confidence":null}'
    lines = [ANSWER_LINE, ANSWER_LINE + "\n", card_null]
    for held, odd in ODD_VALUES:
        assert held in ANSWER_LINE, held
        lines += [ANSWER_LINE.replace(held, value, 1) for value in odd]
    taken = 0
    for line in lines:
        fast = answer_columns(line)
        if fast is None:
            continue
        taken += 1
        entry = json.loads(line)
        check_entry(ReviewRow, entry, "p.jsonl:2: reviews[0]")  # raises if it should not pass
        assert fast == bound(full(entry)), line
        assert [type(v) for v in fast] == [type(v) for v in bound(full(entry))], line
    assert answer_columns(ANSWER_LINE) is not None and answer_columns(card_null) is not None
    refused = 0
    for line in lines:
        try:
            check_entry(ReviewRow, json.loads(line), "p.jsonl:2: reviews[0]")
        except (ProgressError, ValueError):
            refused += 1
            assert answer_columns(line) is None, line
    assert refused > 20 and taken > 20


SCHEDULE_LINE = (
    '{"deck_id":"serving","item_id":"kv-cache","face":"definition","card":{"card_id":5,'
    '"state":2,"step":null,"stability":2.3065,"difficulty":2.118103970459016,'
    '"due":"2026-11-03T09:00:00.250000+00:00","last_review":"2026-11-01T09:00:00+00:00"}}'
)
ODD_SCHEDULES = [
    (
        '"state":2,"step":null',
        [
            '"state":1,"step":null',
            '"state":1,"step":0',
            '"state":3,"step":2',
            '"state":4,"step":null',
        ],
    ),
    (
        '"stability":2.3065',
        [
            '"stability":0',
            '"stability":0.0',
            '"stability":5',
            '"stability":null',
            '"stability":1e-05',
            '"stability":1E-05',
            '"stability":2.30650',
        ],
    ),
    (
        '"due":"2026-11-03T09:00:00.250000+00:00"',
        [
            '"due":"2026-11-03T09:00:00.000000+00:00"',
            '"due":"2026-11-03T09:00:00+01:00"',
            '"due":"2026-02-29T09:00:00+00:00"',
            '"due":"2028-02-29T09:00:00+00:00"',
        ],
    ),
    ('"last_review":"2026-11-01T09:00:00+00:00"', ['"last_review":null']),
    ('"deck_id":"serving"', ['"deck_id":"a\u2066b"', '"deck_id":"s\\u00e9"']),
    ('"card_id":5', ['"card_id":-5', '"card_id":true', '"card_id":5.5']),
]


def test_the_pattern_for_schedules_keeps_what_reading_the_card_would_write() -> None:
    """`schedule_columns` gives, for each line it takes, the face, card id, card text and due
    time the full check, the links' check and `dump_card(load_card(...))` give; a line the
    full check refuses it never takes."""
    from vocabgame.progress import ProgressError, _Links, check_entry
    from vocabgame.progress_checks import schedule_columns
    from vocabgame.srs import dump_card, load_card
    from vocabgame.store.rows import CardRow

    lines = [SCHEDULE_LINE, SCHEDULE_LINE + "\n"]
    for held, odd in ODD_SCHEDULES:
        assert held in SCHEDULE_LINE, held
        lines += [SCHEDULE_LINE.replace(held, value, 1) for value in odd]
    taken = refused = 0
    for line in lines:
        entry = json.loads(line)
        fast = schedule_columns(line)
        try:
            check_entry(CardRow, entry, "p.jsonl:9: cards[0]")
            _Links("p.jsonl").check(CardRow, entry, "p.jsonl:9: cards[0]")
        except ProgressError:
            refused += 1
            assert fast is None, line
            continue
        if fast is None:
            continue
        taken += 1
        card = load_card(json.dumps(entry["card"]))
        face = (entry["deck_id"], entry["item_id"], entry["face"])
        assert fast == (face, card.card_id, dump_card(card), card.due.isoformat()), line
    assert schedule_columns(SCHEDULE_LINE) is not None
    assert taken >= 6 and refused >= 4, (taken, refused)


def many_answers_file(path: Path, answers: int, odd: dict[int, str]) -> Path:
    """A version 2 file of one round and `answers` answers as the export writes them (one a
    second), the answers numbered in `odd` written instead as given there."""
    header = {"format": "vocabgame-progress", "version": 2, "schema": 13,
              "exported_at": "2026-11-30T12:00:00+00:00", "settings": {}}  # fmt: skip
    round_line = (
        '{"id":4,"deck_id":"serving","mode":"review","started_at":"2026-11-02T08:00:00+00:00",'
        '"ended_at":null,"questions":1,"correct":1,"score":1,"best_streak":1,"finished":true}'
    )
    plain = ANSWER_LINE.split(',"card_before"')[0] + ',"card_before":null,"confidence":null}'
    plain = plain.replace('"round_id":7', '"round_id":4')
    lines = [json.dumps(header), '{"section": "rounds", "count": 1}', round_line]
    lines.append(f'{{"section": "reviews", "count": {answers}}}')
    start = datetime(2026, 11, 2, 9, 0, tzinfo=UTC)
    for n in range(answers):
        at = (start + timedelta(seconds=n)).isoformat()
        line = plain.replace("2026-11-02T09:00:00.250000+01:00", at)
        lines.append(odd.get(n, line).replace("AT", at))
    lines += [f'{{"section": "{s}", "count": 0}}' for s in ("cards", "flags", "renames")]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_a_batch_the_pattern_does_not_all_take_is_read_line_by_line(tmp_path: Path) -> None:
    """Past the first batch of answers, a line the pattern leaves (a tab in an answer, older
    field spacing) is still merged, and a bad one is refused with its own line number."""
    from vocabgame.progress import EVERY, ProgressError, import_progress_file, open_progress_file

    answers = EVERY + 1500
    fine = {
        EVERY + 7: ANSWER_LINE.replace('"answer":"x"', '"answer":"a\\tb"')
        .replace('"round_id":7', '"round_id":4')
        .replace("2026-11-02T09:00:00.250000+01:00", "AT")
        .replace(',"confidence":0.75', ',"confidence":0.5'),
        EVERY + 9: json.dumps({**json.loads(ANSWER_LINE), "round_id": None, "reviewed_at": "AT"}),
    }
    good = many_answers_file(tmp_path / "good.jsonl", answers, fine)
    with Store.open(tmp_path / "a.db") as store:
        merged = import_progress_file(store, open_progress_file(good), Srs())
        assert merged.reviews == answers
        kept = store.conn.execute(
            "SELECT answer, round_id IS NULL FROM reviews ORDER BY id LIMIT 3 OFFSET ?",
            (EVERY + 7,),
        ).fetchall()
        assert kept == [("a\tb", 0), ("x", 0), ("x", 1)]
    bad = {
        EVERY + 11: ANSWER_LINE.replace('"rating":3', '"rating":7').replace(
            '"round_id":7', '"round_id":4'
        )
    }
    path = many_answers_file(tmp_path / "bad.jsonl", answers, bad)
    with Store.open(tmp_path / "b.db") as store:
        with pytest.raises(ProgressError) as caught:
            import_progress_file(store, open_progress_file(path), Srs())
        line = 4 + EVERY + 11 + 1
        assert str(caught.value) == (
            f"{path}:{line}: reviews[{EVERY + 11}].rating should be a rating from 1 to 4, not 7."
        )
        assert store.conn.execute("SELECT COUNT(*) FROM reviews").fetchone()[0] == 0


def test_schedules_whose_ids_are_taken_here_are_replayed_under_new_ids(tmp_path: Path) -> None:
    """New faces whose card ids this store already uses get new ids, one after another, even
    when a later schedule of the same batch holds the id the first replay took."""
    from vocabgame.progress import import_progress_file, open_progress_file

    play_days(tmp_path, 0, 2)
    with Store.open(tmp_path / DB_NAME) as store:
        (top,) = store.conn.execute("SELECT MAX(card_id) FROM cards").fetchone()
    ids = {"f1": 1, "f2": top + 1, "f3": top + 1000}  # f1's taken; f2 will be by f1's replay
    path = many_answers_file(tmp_path / "p.jsonl", 3, {})
    lines = path.read_text("utf-8").splitlines()
    for n, face in enumerate(ids):
        lines[4 + n] = lines[4 + n].replace('"face":"definition"', f'"face":"{face}"')
    lines[7] = f'{{"section": "cards", "count": {len(ids)}}}'
    cards = [
        SCHEDULE_LINE.replace('"face":"definition"', f'"face":"{face}"').replace(
            '"card_id":5', f'"card_id":{card_id}'
        )
        for face, card_id in ids.items()
    ]
    path.write_text("\n".join(lines[:8] + cards + lines[8:]) + "\n", encoding="utf-8")
    with Store.open(tmp_path / DB_NAME) as store:
        merged = import_progress_file(store, open_progress_file(path), Srs())
        assert merged.rescheduled == 2
        given = dict(store.conn.execute("SELECT face, card_id FROM cards WHERE face LIKE 'f_'"))
        all_ids = [i for (i,) in store.conn.execute("SELECT card_id FROM cards")]
    assert given == {"f1": top + 1, "f2": top + 2, "f3": top + 1000}
    assert len(all_ids) == len(set(all_ids))
