"""What comes in from outside: an imported progress file's values, numeric settings that are
not finite, and CSV cells a spreadsheet would run. The whole hostile corpus is in
test_hostile_corpus.py; these name the cases issue by issue."""

from __future__ import annotations

import csv
import io
import json
import math
from pathlib import Path
from typing import Any

import pytest

from vocabgame.cli import main
from vocabgame.interchange import read_table
from vocabgame.interchange.table import neutralised, restored
from vocabgame.progress_checks import ProgressError, check_record, check_setting
from vocabgame.settings import SPECS, SettingError, Settings
from vocabgame.store import DB_NAME
from vocabgame.store.rows import CardRow, ReviewRow

from .conftest import DATA
from .faults import contents

HOSTILE = DATA / "hostile" / "progress"


@pytest.fixture
def played(tmp_path: Path) -> Path:
    data = tmp_path / "data"
    assert main(["import-progress", str(DATA / "progress-good.json"), "--data-dir", str(data)]) == 0
    return data


@pytest.mark.parametrize(
    ("name", "sentence"),
    [
        ("nested-100000-deep.json", ": nested too deep to be a progress file."),
        (
            "integer-5000-digits.json",
            ":37:14: a number thousands of digits long; a progress file's numbers fit in 64 bits.",
        ),
        (
            "year-9999-review.json",
            ": reviews[0].reviewed_at '9999-12-31T23:59:59+00:00' is outside the years 1970 "
            "to 2999.",
        ),
        (
            "year-0001-review.json",
            ": reviews[0].reviewed_at '0001-01-01T00:00:00+00:00' is outside the years 1970 "
            "to 2999.",
        ),
        (
            "osc52-in-deck-id.json",
            ": reviews[0].deck_id holds the unprintable character \\x1b at character 8.",
        ),
        (
            "minus-1e308-stability.json",
            ": cards[0].card.stability -1e+308 is outside 0 to 1,000,000.",
        ),
        (
            "minus-1e308-difficulty.json",
            ": cards[0].card.difficulty -1e+308 is outside 1 to 10.",
        ),
        (
            "nan-setting-retention.json",
            ": settings.desired_retention should be a finite number, not nan.",
        ),
    ],
)
def test_a_progress_value_no_store_should_take_is_one_sentence_at_its_place(
    played: Path, capsys: pytest.CaptureFixture[str], name: str, sentence: str
) -> None:
    before = contents(played / DB_NAME)
    capsys.readouterr()
    assert main(["import-progress", str(HOSTILE / name), "--data-dir", str(played)]) == 1
    out, err = capsys.readouterr()
    assert err == f"vocabgame: {HOSTILE / name}{sentence}\n" and out == ""
    assert contents(played / DB_NAME) == before  # nothing written
    assert not (played / "backups").exists()  # refused before the backup that precedes a merge


def good_entries() -> dict[str, Any]:
    return json.loads((DATA / "progress-good.json").read_text(encoding="utf-8"))


def test_the_checks_take_one_parsed_record_so_a_streaming_reader_can_call_them() -> None:
    data = good_entries()
    for index, review in enumerate(data["reviews"]):
        check_record(ReviewRow, index, review, "p.json")
    review = dict(data["reviews"][0], reviewed_at="9999-01-01T00:00:00+00:00")
    with pytest.raises(ProgressError, match=r"^p\.json: reviews\[5\]\.reviewed_at '9999"):
        check_record(ReviewRow, 5, review, "p.json")
    card = dict(data["cards"][0])
    card["card"] = dict(card["card"], stability=math.nan)
    with pytest.raises(ProgressError, match=r"^p\.json: cards\[2\]\.card\.stability nan is"):
        check_record(CardRow, 2, card, "p.json")
    with pytest.raises(ProgressError, match=r"^p\.json: settings\.round_size should be a finite"):
        check_setting("round_size", math.inf, "p.json")
    check_setting("round_size", 12, "p.json")


# -- numeric settings that are not numbers -------------------------------------------------------

NOT_FINITE = [math.nan, math.inf, -math.inf]


@pytest.mark.parametrize("spec", [s for s in SPECS if not s.choices], ids=lambda s: s.key)
def test_every_numeric_setting_refuses_nan_and_infinities(spec: Any) -> None:
    for value in NOT_FINITE:
        with pytest.raises(SettingError):
            spec.check(value)
        with pytest.raises(SettingError):
            Settings().changed(**{spec.key: value})


@pytest.mark.parametrize("value", ["nan", "inf", "-inf", "1e309"])
def test_settings_retention_nan_is_refused_on_the_command_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], value: str
) -> None:
    data = tmp_path / "data"
    assert main(["settings", "--data-dir", str(data), "--retention", "0.85"]) == 0
    capsys.readouterr()
    assert main(["settings", "--data-dir", str(data), f"--retention={value}"]) == 2
    [line] = capsys.readouterr().err.splitlines()
    assert line.startswith("vocabgame: desired retention is a number from 0.7 to 0.99, not ")
    assert main(["settings", "--data-dir", str(data)]) == 0
    assert "desired retention  0.85" in capsys.readouterr().out


def test_a_stored_nan_falls_back_to_the_default_with_one_sentence() -> None:
    settings, problems = Settings.from_stored({"desired_retention": "NaN", "round_size": "1e999"})
    assert (settings.desired_retention, settings.round_size) == (0.9, 20)
    assert len(problems) == 2 and "desired retention" in problems[0]


def test_the_settings_screen_refuses_nan_and_infinities() -> None:
    from vocabgame.ui.screens.settings import parse

    for spec in SPECS:
        if spec.choices or spec.key in ("interview_decks", "interview_tags"):
            continue  # a list of names: "nan" may be a tag
        for text in ("nan", "inf", "-Infinity", "1e999"):
            with pytest.raises(SettingError):
                parse(spec, text)


# -- CSV cells a spreadsheet would run ----------------------------------------------------------

FORMULAS = ["=cmd|' /C calc'!A0", "+1+1", "-2+3", "@SUM(1)", "\tx", "\rx", "'=quoted"]


def test_formula_cells_get_a_leading_apostrophe_and_come_back_as_they_were() -> None:
    for cell in FORMULAS:
        assert neutralised(cell).startswith("'") and restored(neutralised(cell)) == cell
    for cell in ("KV cache", "a=b", "'single'", "", "1e3"):
        assert neutralised(cell) == cell == restored(cell)


def test_csv_export_neutralises_formula_cells_and_import_keeps_them_as_text(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rows = [("=cmd|' /C calc'!A0", "runs a calculator"), ("+1+1", "@SUM(1)"), ("-x", "=1")]
    source = tmp_path / "in.csv"
    with source.open("w", newline="", encoding="utf-8") as f:
        csv.writer(f).writerows([("term", "definition"), *rows])
    deck = tmp_path / "formulas.yaml"
    assert main(["import", str(source), "-o", str(deck)]) == 0
    imported = read_table(source.read_bytes(), str(source), ".csv")
    assert [(t.term, t.definition) for t in imported.terms] == rows  # text, as written
    for fmt in ("csv", "tsv"):
        out = tmp_path / f"out.{fmt}"
        assert main(["export", str(deck), "-o", str(out)]) == 0
        body = "".join(
            line for line in out.read_text(encoding="utf-8").splitlines(True) if line[0] != "#"
        )
        cells = list(csv.reader(io.StringIO(body), delimiter="," if fmt == "csv" else "\t"))
        shown = [tuple("'" + c if c[0] in "=+-@" else c for c in row) for row in rows]
        assert [tuple(row[:2]) for row in cells] == shown
        back = tmp_path / f"back-{fmt}.yaml"
        assert main(["import", str(out), "-o", str(back)]) == 0
        again = read_table(out.read_bytes(), str(out), f".{fmt}")
        assert [(t.term, t.definition) for t in again.terms] == rows
    capsys.readouterr()


# -- names the system refuses -----------------------------------------------------------------

LONG = "n" * 300


@pytest.mark.parametrize(
    "argv",
    [
        ["export-progress", f"{LONG}.json"],
        ["export", "latency-basics", "--decks", str(DATA), "-o", f"{LONG}.csv"],
        ["check", "--data-dir", LONG],
        ["backup", "--data-dir", LONG],
        ["restore", LONG, "--yes"],
        ["import-progress", f"{LONG}.json"],
    ],
    ids=lambda argv: argv[0],
)
def test_a_name_too_long_for_the_system_is_one_sentence(
    played: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], argv: list[str]
) -> None:
    """Python 3.11's Path.exists and is_file raise for such a name instead of saying no."""
    argv = [a if LONG not in a else str(tmp_path / a) for a in argv]
    before = contents(played / DB_NAME)
    capsys.readouterr()
    rc = main([*argv, "--data-dir", str(played)] if "--data-dir" not in argv else argv)
    out, err = capsys.readouterr()
    assert rc == 1 and "Traceback" not in err, err
    [line] = err.splitlines()
    assert line.startswith("vocabgame: ") and LONG in line
    assert contents(played / DB_NAME) == before


# -- files that are not files ---------------------------------------------------------------


@pytest.mark.parametrize("command", ["import-progress", "import"])
@pytest.mark.parametrize("what", ["fifo", "/dev/zero"])
def test_a_named_pipe_or_a_device_is_refused_without_being_read(
    played: Path, tmp_path: Path, command: str, what: str
) -> None:
    """A child process with a timeout: without the check, a pipe is waited on for ever and
    /dev/zero read until memory runs out."""
    import os
    import subprocess
    import sys

    path = Path(what)
    if what == "fifo":
        path = tmp_path / "progress.json"
        os.mkfifo(path)
    argv = [str(path), "--data-dir", str(played)]
    if command == "import":
        argv = [str(path), "-o", str(tmp_path / "deck.yaml")]
    done = subprocess.run(
        [sys.executable, "-m", "vocabgame", command, *argv],
        capture_output=True,
        text=True,
        timeout=30,
        env={**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[1])},
    )
    assert done.returncode == 1 and done.stdout == ""
    kind = "a named pipe (FIFO)" if what == "fifo" else "a device"
    assert done.stderr == f"vocabgame: {path} is {kind}; only regular files are read\n"
