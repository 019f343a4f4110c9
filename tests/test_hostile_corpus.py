"""The hostile-input corpus (tests/data/hostile/, written by tests/hostile_corpus.py) fed to the
real commands, in this process through the CLI's `main`: every file is refused in one
sentence naming it (or, for a table's formula cells, kept as text and neutralised on export),
with no traceback, no control character or markup reaching the output, and the store as it
was. restore/ has a test of its own."""

from __future__ import annotations

import csv
import io
import json
import re
import shutil
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from vocabgame import paths
from vocabgame.cli import main
from vocabgame.printable import printable
from vocabgame.settings import SPEC, SettingError

from .conftest import DATA
from .faults import contents
from .hostile_corpus import FORMULA_ROWS, KINDS

CORPUS = DATA / "hostile"
# Anything that could drive a terminal: C0 controls but the line break, DEL, C1, bidi marks.
# What a spreadsheet runs as a formula (OWASP): = + - @, tab or carriage return first.
RUNS = re.compile("^[=+\\-@\t\r]")
# A cell neutralised by someone before: an apostrophe, then what would run.
QUOTED = re.compile("^'+[=+\\-@\t\r]")
RAW = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def as_text(cell: str) -> str:
    """A cell as a deck keeps it: a neutralising apostrophe taken off, the rest as written."""
    return cell[1:] if QUOTED.match(cell) else cell


def corpus(kind: str) -> list[Path]:
    return sorted((CORPUS / kind).iterdir())


def ids(files: list[Path]) -> list[str]:
    return [f.name for f in files]


@pytest.fixture(autouse=True)
def _no_builtin_decks(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Only the corpus: the built-in decks are not what is tested here."""
    empty = tmp_path / "builtin"
    empty.mkdir()
    monkeypatch.setattr(paths, "builtin_decks_dir", lambda: empty)


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A data folder with progress in it (a real export, imported)."""
    data = tmp_path_factory.mktemp("template") / "data"
    assert main(["import-progress", str(DATA / "progress-good.json"), "--data-dir", str(data)]) == 0
    return data


@pytest.fixture
def data(template: Path, tmp_path: Path) -> Path:
    copy = tmp_path / "data"
    shutil.copytree(template, copy)
    return copy


def run(argv: list[str]) -> int:
    """`main`, with argparse's exit for a value it cannot convert as an exit code."""
    try:
        return main(argv)
    except SystemExit as exc:
        return int(exc.code or 0)


def snapshot(data: Path) -> tuple[dict[str, list[tuple[Any, ...]]], list[str]]:
    """Every row of the store, and every file in the data folder."""
    files = sorted(str(p.relative_to(data)) for p in data.rglob("*") if p.name != "vocabgame.lock")
    return contents(data / "vocabgame.db"), files


def clean_output(out: str, err: str) -> None:
    assert "Traceback" not in out + err
    assert RAW.search(out + err) is None, (out + err)[:500]


def one_sentence(err: str, name: str) -> str:
    lines = err.strip().splitlines()
    assert len(lines) == 1, err[:1000]
    assert printable(name) in lines[0], lines[0]
    return lines[0]


def test_the_corpus_holds_every_kind_and_enough_files() -> None:
    counts = {kind: len(corpus(kind)) for kind in KINDS}
    assert all(counts.values()), counts
    assert sum(counts.values()) >= 75, counts


@pytest.mark.parametrize("file", corpus("progress"), ids=ids(corpus("progress")))
def test_a_hostile_progress_file_is_refused_in_one_sentence_and_writes_nothing(
    file: Path, data: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    before = snapshot(data)
    rc = main(["import-progress", str(file), "--data-dir", str(data)])
    out, err = capsys.readouterr()
    assert rc == 1, out + err[:500]
    clean_output(out, err)
    one_sentence(err, str(file))
    assert out == ""
    assert snapshot(data) == before


@pytest.mark.parametrize("file", corpus("table"), ids=ids(corpus("table")))
def test_a_hostile_table_is_refused_naming_it_and_writes_no_deck(
    file: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    deck = tmp_path / "deck.yaml"
    rc = main(["import", str(file), "-o", str(deck)])
    out, err = capsys.readouterr()
    assert rc == 1, out + err
    clean_output(out, err)
    lines = err.strip().splitlines()
    # The problem at its place, then what was not written.
    assert 1 <= len(lines) <= 2 and printable(str(file)) in lines[0], err
    assert not deck.exists() and list(tmp_path.iterdir()) == [tmp_path / "builtin"]


def exported_cells(deck: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> list[str]:
    """Every cell of the deck exported as CSV with Anki's header lines."""
    table = tmp_path / "again.csv"
    assert main(["export", str(deck), "-o", str(table)]) == 0
    capsys.readouterr()
    body = [line for line in table.read_text(encoding="utf-8").splitlines(True) if line[0] != "#"]
    return [cell for row in csv.reader(io.StringIO("".join(body))) for cell in row]


@pytest.mark.parametrize("file", corpus("table-text"), ids=ids(corpus("table-text")))
def test_a_tables_formulas_and_escapes_are_kept_as_text_and_neutralised_on_export(
    file: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    deck = tmp_path / "deck.yaml"
    rc = main(["import", str(file), "-o", str(deck)])
    out, err = capsys.readouterr()
    assert rc == 0, out + err
    clean_output(out, err)
    text = deck.read_text(encoding="utf-8")
    assert RAW.search(text) is None
    assert main(["validate", str(deck)]) == 0
    capsys.readouterr()
    if file.stem == "formulas":
        from vocabgame.deck import load_catalog

        [loaded] = load_catalog([tmp_path]).decks
        wanted = [(as_text(a), as_text(b)) for a, b in FORMULA_ROWS]
        if file.suffix == ".tsv":
            wanted = [(as_text(a), as_text(b)) for a, b in FORMULA_ROWS if '"' not in a + b]
        assert [(t.term, t.definition) for t in loaded.terms] == wanted
    cells = exported_cells(deck, tmp_path, capsys)
    assert cells
    for cell in cells:
        # What a spreadsheet would run starts with an apostrophe, and reads back as it was.
        assert not RUNS.match(cell), cell


@pytest.mark.parametrize(
    "file", corpus("decks") + corpus("lab"), ids=ids(corpus("decks") + corpus("lab"))
)
def test_a_hostile_deck_or_lab_file_is_refused_at_its_place(
    file: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    file = Path(shutil.copy(file, tmp_path / file.name.removesuffix(".txt")))
    rc = main(["validate", str(file)])
    out, err = capsys.readouterr()
    assert rc == 1, out + err
    clean_output(out, err)
    assert printable(str(file)) in out + err
    assert "error" in out + err


def hostile_name(file: Path) -> str:
    return file.read_text(encoding="utf-8").removesuffix("\n")


@pytest.mark.parametrize("file", corpus("names"), ids=ids(corpus("names")))
def test_a_hostile_name_on_the_command_line_is_shown_escaped_in_one_sentence(
    file: Path, data: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = data.parent / hostile_name(file)
    before = snapshot(data)
    for argv in (
        ["import-progress", str(path), "--data-dir", str(data)],
        ["validate", str(path)],
        ["import", str(path), "-o", str(data.parent / "deck.yaml")],
    ):
        rc = run(argv)
        out, err = capsys.readouterr()
        assert rc == 1, (argv[0], out, err)
        clean_output(out, err)
        line = one_sentence(err, str(path)) if argv[0] != "validate" else out + err
        assert printable(str(path)) in line
        if "[bold red]" in str(path):  # markup is shown as written, never applied
            assert "[bold red]boom[/]" in line
    assert snapshot(data) == before


def setting(file: Path) -> tuple[str, str]:
    key, value = file.read_text(encoding="utf-8").removesuffix("\n").split("\n", 1)
    return key, value


@pytest.mark.parametrize("file", corpus("settings"), ids=ids(corpus("settings")))
def test_a_hostile_setting_is_refused_on_the_command_line(
    file: Path, data: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    key, value = setting(file)
    spec = SPEC[key]
    before = snapshot(data)
    rc = run(["settings", "--data-dir", str(data), f"{spec.flag}={value}"])
    out, err = capsys.readouterr()
    assert rc == 2, out + err
    clean_output(out, err)
    # argparse puts its usage first when the text is not even a number; the reason is last.
    assert spec.label in err.strip().splitlines()[-1]
    assert out == ""
    assert snapshot(data) == before


@pytest.mark.parametrize("file", corpus("settings"), ids=ids(corpus("settings")))
def test_a_hostile_setting_is_refused_on_the_settings_screen(file: Path) -> None:
    from vocabgame.ui.screens.settings import parse

    key, value = setting(file)
    with pytest.raises(SettingError):
        parse(SPEC[key], value)


@pytest.mark.parametrize("file", corpus("settings"), ids=ids(corpus("settings")))
def test_a_hostile_stored_setting_is_said_once_and_the_default_used(
    file: Path, data: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    key, value = setting(file)
    spec = SPEC[key]
    stored = value if isinstance(spec.default, int | float) else json.dumps(value)
    conn = sqlite3.connect(data / "vocabgame.db")
    with conn:
        conn.execute("UPDATE settings SET value=? WHERE key=?", (stored, key))
    conn.close()
    before = snapshot(data)
    assert main(["settings", "--data-dir", str(data)]) == 0
    out, err = capsys.readouterr()
    clean_output(out, err)
    assert spec.label in one_sentence(err, f"default, {spec.default}")
    assert re.search(rf"^{re.escape(spec.label)}\s+{re.escape(str(spec.default))}$", out, re.M)
    assert snapshot(data) == before


def test_every_hostile_deck_and_lab_file_in_one_folder_is_named_by_decks_and_lab(
    data: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The catalogue the game loads reads them all side by side, as a decks folder holds
    them: each is named in its problem, and nothing else stops."""
    folder = tmp_path / "decks"
    folder.mkdir()
    for file in corpus("decks") + corpus("lab"):
        shutil.copy(file, folder / file.name.removesuffix(".txt"))
    assert main(["decks", "--decks", str(folder)]) == 1
    out, err = capsys.readouterr()
    clean_output(out, err)
    for file in corpus("decks"):
        assert printable(file.name.removesuffix(".txt")) in out + err, file.name
    assert main(["lab", "--json", "--decks", str(folder), "--data-dir", str(data)]) == 0
    out, err = capsys.readouterr()
    clean_output(out, err)
    json.loads(out)  # the estimate, with the bad lab files left out
    for file in corpus("lab"):
        assert printable(file.name.removesuffix(".txt")) in err, file.name
