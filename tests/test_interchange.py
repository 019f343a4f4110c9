"""Import from CSV/TSV (Anki, Quizlet), export to CSV/TSV/apkg, and the schema beside a deck."""

from __future__ import annotations

import json
import shutil
import sqlite3
import subprocess
import sys
import time
import zipfile
from html import escape as escape_html
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from vocabgame import deck as deck_module
from vocabgame import paths
from vocabgame.cli import main
from vocabgame.deck import load_deck, load_text
from vocabgame.interchange import (
    SCHEMA_NAME,
    Imported,
    ImportedTerm,
    apkg_ids,
    deck_yaml,
    read_table,
    table_text,
)
from vocabgame.interchange.table import clean, html_to_text, unique_ids

TRICKY = [
    ("KV cache", "Keys: and values, kept # in GPU memory."),
    ("- leading dash", '"Quoted" text, with a comma; and a semicolon'),
    ("yes", "no"),
    ("Café « naïve »", "Ünïcödé — 東京 and emoji 🚀"),
    ("'single'", "line one\nline two: with a colon"),
    ("{flow} [list] &anchor *alias", "%directive @at `tick` | pipe > fold"),
    ("123", "1e3"),
]


@pytest.fixture(autouse=True)
def _no_builtin_decks(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Built-in decks change while these tests run; the catalog sees only the tests' own."""
    empty = tmp_path / "builtin"
    empty.mkdir()
    monkeypatch.setattr(paths, "builtin_decks_dir", lambda: empty)


def write(path: Path, text: str | bytes) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(text, str):
        text = text.encode("utf-8")
    path.write_bytes(text)
    return path


def tricky_deck(path: Path, deck_id: str = "tricky") -> Path:
    imported = Imported(
        str(path),
        "\t",
        terms=[
            ImportedTerm(t, d, i, ("tag-a",) if i % 2 else ()) for i, (t, d) in enumerate(TRICKY)
        ],
    )
    return write(path, deck_yaml(imported, deck_id, "Tricky: text", "test"))


def term_pairs(path: Path) -> list[tuple[str, str]]:
    return [(t.term, t.definition) for t in load_deck(path).terms]


# -- import: the Anki and Quizlet shapes ------------------------------------------------------


def anki_30_rows() -> str:
    """Thirty rows as Anki's "Notes in Plain Text" export writes them with HTML kept: row 11
    repeats row 2's term, row 20 is empty."""
    lines = ["#separator:tab", "#html:true", "#notetype:Basic", "#deck:Serving::Metrics"]
    for n in range(1, 31):
        if n == 11:
            lines.append("Term 2\t<div>A second definition of term 2</div>")
        elif n == 20:
            lines.append("")
        elif n == 5:
            lines.append(
                '"Term 5"\t"first line<br>second line, with a\ttab and &quot;quotes&quot;"'
            )
        else:
            lines.append(f"Term {n}\t<b>Definition</b> of&nbsp;term {n} &amp; more<br/>")
    return "\n".join(lines) + "\n"


def test_an_anki_export_of_30_rows_becomes_a_deck_that_validates(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = write(tmp_path / "anki notes.txt", anki_30_rows())
    out = tmp_path / "decks" / "serving-metrics.yaml"
    assert main(["import", str(source), "-o", str(out)]) == 0
    captured = capsys.readouterr()
    # Rows are lines 5..34: row n is on line n + 4.
    assert f"{source}:15:1: warning: duplicate term 'Term 2' (first at line 6); skipped" in (
        captured.err
    )
    assert f"{source}:24:1: warning: empty row; skipped" in captured.err
    assert "28 terms" in captured.out and "2 rows skipped" in captured.out
    assert "vocabgame validate --strict" in captured.out

    assert main(["validate", str(out)]) == 0
    deck = load_deck(out)
    assert deck.id == "serving-metrics" and deck.title == "Metrics"
    assert len(deck.terms) == 28
    by_term = {t.term: t for t in deck.terms}
    assert by_term["Term 1"].definition == "Definition of term 1 & more"
    assert by_term["Term 2"].definition == "Definition of term 2 & more"  # the first one kept
    assert by_term["Term 5"].definition == 'first line\nsecond line, with a tab and "quotes"'
    assert [t.id for t in deck.terms][:3] == ["term-1", "term-2", "term-3"]

    text = out.read_text(encoding="utf-8")
    assert text.splitlines()[1].startswith("# Imported by vocabgame from anki notes.txt")
    assert "sources" in text.splitlines()[2]
    # --strict warns only about what an import cannot know: the sources.
    capsys.readouterr()
    assert main(["validate", "--strict", str(out)]) == 1
    warnings = [line for line in capsys.readouterr().out.splitlines() if ": warning: " in line]
    assert len(warnings) == 28 and all("cites no source" in w for w in warnings)


def test_a_file_written_by_ankis_own_exporter_is_imported(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Written by Anki (Notes in Plain Text, HTML, tags, deck, note type and guid included) from
    # notes whose first definition was edited in Anki's editor.
    source = Path(__file__).parent / "data" / "anki-notes-in-plain-text.txt"
    out = tmp_path / "from-anki.yaml"
    assert main(["import", str(source), "-o", str(out)]) == 0
    assert f"{source}:7:1: warning: 9 columns; only term and definition are read" in (
        capsys.readouterr().err
    )
    deck = load_deck(out)
    assert deck.title == "Batching and scheduling"
    assert len(deck.terms) == 6
    first = deck.terms[0]
    assert (first.id, first.term) == ("static-batching", "Static batching")
    assert first.definition == "First bold line\nsecond line & more"
    assert first.tags == ("batching", "scheduling", "serving")


def test_a_quizlet_export_without_header_is_read_as_term_tab_definition(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = write(
        tmp_path / "quizlet.txt",
        "TTFT\tTime to first token, the wait before the reply starts\n"
        "TPOT\tTime per output token, once it has started\n",
    )
    out = tmp_path / "q.yaml"
    assert main(["import", str(source), "-o", str(out), "--id", "quiz", "--title", "Q"]) == 0
    assert term_pairs(out) == [
        ("TTFT", "Time to first token, the wait before the reply starts"),
        ("TPOT", "Time per output token, once it has started"),
    ]
    deck = load_deck(out)
    assert (deck.id, deck.title) == ("quiz", "Q")
    assert capsys.readouterr().err == ""


@pytest.mark.parametrize(
    ("name", "text", "separator"),
    [
        ("a.csv", 'term,definition\nKV cache,"Keys, values"\nTTFT,first token\n', ","),
        ("a.txt", "#separator:Semicolon\nKV cache;Keys, values\nTTFT;first token\n", ";"),
        ("a.txt", "#separator:|\nKV cache|Keys, values\nTTFT|first token\n", "|"),
        ("a.txt", "#separator:Pipe\nKV cache|Keys, values\nTTFT|first token\n", "|"),
        ("a.csv", "KV cache;Keys, values\nTTFT;first token\n", ";"),
    ],
)
def test_the_separator_comes_from_the_header_else_the_text(
    name: str, text: str, separator: str, tmp_path: Path
) -> None:
    imported = read_table(text.encode(), name, Path(name).suffix)
    assert imported.separator == separator
    assert [(t.term, t.definition) for t in imported.terms] == [
        ("KV cache", "Keys, values"),
        ("TTFT", "first token"),
    ]


def test_one_comma_on_every_line_of_a_tab_separated_file_is_not_the_separator() -> None:
    # A tie between tab and comma (one of each on every line) goes to tab.
    imported = read_table(b"KV cache\tKeys, values\nTTFT\tfirst, token\n", "a.txt", ".txt")
    assert imported.separator == "\t"
    assert [t.definition for t in imported.terms] == ["Keys, values", "first, token"]


def test_a_header_row_is_skipped_and_anki_header_lines_are_tolerated() -> None:
    text = (
        "#separator:tab\n#html:false\n#notetype column:1\n#deck column:2\n#tags column:5\n"
        "#columns:Notetype\tDeck\tFront\tBack\tTags\n#if matches:update current\n"
        "Basic\tDefault\t<T>\t<b> stays as written\tone two\n"
    )
    imported = read_table(text.encode(), "x.txt")
    assert imported.terms == [ImportedTerm("<T>", "<b> stays as written", 8, ("one", "two"))]
    assert imported.deck_name == "Default"  # every row is in one deck
    plain = read_table(b"Front\tBack\nTTFT\tfirst token\n", "x.tsv")
    assert plain.header_row == 1
    assert [t.term for t in plain.terms] == ["TTFT"]


def test_html_is_turned_into_text_by_the_parser() -> None:
    assert html_to_text("a<br>b<div>c</div>d &lt;e&gt; <script>x()</script>f") == (
        "a\nb\nc\nd <e> f"
    )
    assert clean(html_to_text("<p>one</p><p>  two  </p>")) == "one\ntwo"
    assert clean("a\nb", one_line=True) == "a b"
    assert clean("bell\x07 and \x1b[31mred") == "bell and [31mred"


def test_ids_are_unique_slugs() -> None:
    assert unique_ids(["KV cache", "KV-cache", "kv cache!", "東京", "Ω", "Café"]) == [
        "kv-cache",
        "kv-cache-2",
        "kv-cache-3",
        "term",
        "term-2",
        "cafe",
    ]


# -- import: mistakes, each with its line ------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "line", "message"),
    [
        ("A\tone\n\nB\ttwo\n", 2, "empty row; skipped"),
        ("A\tone\n\t\t\nB\ttwo\n", 2, "empty row; skipped"),
        ("A\tone\nB\ttwo\na\tagain\n", 3, "duplicate term 'a' (first at line 1); skipped"),
        ("A\tone\nB\ttwo\nlonely\n", 3, "only one column (no tab); skipped"),
        ("A\tone\n\tno term\nB\ttwo\n", 2, "row has a definition but no term; skipped"),
        ("A\tone\nB\t  \nC\ttwo\n", 2, "term 'B' has no definition; skipped"),
        ('#separator:tab\nA\t"one\nstill one"\nB\ttwo\nB\tagain\n', 5, "duplicate term 'B'"),
    ],
)
def test_skipped_rows_are_reported_with_their_line(
    text: str, line: int, message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = write(tmp_path / "t.tsv", text)
    out = tmp_path / "t.yaml"
    assert main(["import", str(source), "-o", str(out)]) == 0
    assert f"{source}:{line}:1: warning: {message}" in capsys.readouterr().err
    assert main(["validate", str(out)]) == 0


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        (b"", "has no rows"),
        (b"#separator:tab\n#html:true\n", "has no rows"),
        (b"one\ntwo\nthree\n", "every row has one column (no tab between term and definition)"),
        (b"A\t\n\tB\n", "has no row with both a term and a definition"),
        (b"A\tone\nB\ttwo\nC\tcaf\xe9\n", "t.tsv:3:1: error: file is not UTF-8 text (byte 0xe9)"),
        (b"#separator:Tabs\nA\tone\n", "t.tsv:1:1: error: #separator:Tabs is not a separator"),
        (b"#tags column:x\nA\tone\n", "t.tsv:1:1: error: #tags column should be a column number"),
        (b"A\tone\x00\n", "NUL character"),
        (b"A\t" + b"x" * 200_000 + b"\n", "cannot read this file as a table: field larger"),
    ],
)
def test_an_unusable_file_writes_nothing(
    data: bytes, expected: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = write(tmp_path / "t.tsv", data)
    out = tmp_path / "out" / "t.yaml"
    assert main(["import", str(source), "-o", str(out)]) == 1
    err = capsys.readouterr().err
    assert expected in err
    assert "nothing written" in err
    assert not out.parent.exists()


def test_a_file_over_the_deck_size_limit_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(deck_module, "DEFAULT_MAX_BYTES", 100)
    source = write(tmp_path / "big.tsv", "".join(f"term {n}\tdefinition {n}\n" for n in range(20)))
    out = tmp_path / "big.yaml"
    assert main(["import", str(source), "-o", str(out)]) == 1
    assert "over the deck size limit of 100; nothing written" in capsys.readouterr().err
    assert not out.exists()


def test_utf16_from_a_spreadsheet_is_read(tmp_path: Path) -> None:
    source = write(tmp_path / "excel.txt", "Café\tun lieu\nThé\tune boisson\n".encode("utf-16"))
    out = tmp_path / "x.yaml"
    assert main(["import", str(source), "-o", str(out)]) == 0
    assert term_pairs(out) == [("Café", "un lieu"), ("Thé", "une boisson")]


def test_import_and_export_refuse_to_overwrite_without_force(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = write(tmp_path / "t.tsv", "A\tone\n")
    out = write(tmp_path / "t.yaml", "mine\n")
    assert main(["import", str(source), "-o", str(out)]) == 1
    assert "already exists; pass --force to replace it" in capsys.readouterr().err
    assert out.read_text(encoding="utf-8") == "mine\n"
    assert main(["import", str(source), "-o", str(out), "--force"]) == 0
    assert term_pairs(out) == [("A", "one")]

    csv_out = write(tmp_path / "t.csv", "mine\n")
    assert main(["export", str(out), "-o", str(csv_out)]) == 1
    assert "already exists" in capsys.readouterr().err
    assert csv_out.read_text(encoding="utf-8") == "mine\n"
    assert main(["export", str(out), "-o", str(csv_out), "--force"]) == 0
    assert "A,one," in csv_out.read_text(encoding="utf-8")

    schema_out = write(tmp_path / "s.json", "mine\n")
    assert main(["schema", "-o", str(schema_out)]) == 1
    assert schema_out.read_text(encoding="utf-8") == "mine\n"


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.tuples(st.text(min_size=1, max_size=30), st.text(min_size=1, max_size=80)),
        min_size=1,
        max_size=5,
    )
)
def test_any_text_survives_the_yaml_the_importer_writes(pairs: list[tuple[str, str]]) -> None:
    rows = [(clean(t, one_line=True), clean(d)) for t, d in pairs]
    rows = [(t, d) for t, d in rows if t and d]
    imported = Imported("x", "\t", terms=[ImportedTerm(t, d, 1) for t, d in rows])
    if not rows:
        return
    deck, problems = load_text(deck_yaml(imported, "x", "X", "x.tsv"), "x.yaml")
    assert problems == []
    assert deck is not None
    assert [(t.term, t.definition) for t in deck.terms] == rows


# -- export ------------------------------------------------------------------------------------


def test_csv_export_is_what_anki_reads(tmp_path: Path) -> None:
    deck = load_deck(tricky_deck(tmp_path / "tricky.yaml"))
    assert table_text(deck, ",") == (
        "#separator:comma\n"
        "#html:false\n"
        "#deck:Tricky: text\n"
        "#tags column:3\n"
        'KV cache,"Keys: and values, kept # in GPU memory.",\n'
        '\'- leading dash,"""Quoted"" text, with a comma; and a semicolon",tag-a\n'
        "yes,no,\n"
        "Café « naïve »,Ünïcödé — 東京 and emoji 🚀,tag-a\n"
        "'single',\"line one\nline two: with a colon\",\n"
        "{flow} [list] &anchor *alias,%directive @at `tick` | pipe > fold,tag-a\n"
        "123,1e3,\n"
    )


def test_numbers_in_text_are_quoted_for_editors_reading_yaml_1_2(tmp_path: Path) -> None:
    text = tricky_deck(tmp_path / "tricky.yaml").read_text(encoding="utf-8")
    assert "definition: '1e3'" in text and "term: '123'" in text


@pytest.mark.parametrize(("fmt", "header"), [("csv", True), ("tsv", True), ("tsv", False)])
def test_export_then_import_gives_back_the_terms(
    fmt: str, header: bool, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = tricky_deck(tmp_path / "tricky.yaml")
    table = tmp_path / f"out.{fmt}"
    argv = ["export", str(source), "--format", fmt, "-o", str(table)]
    assert main([*argv, *([] if header else ["--no-header"])]) == 0
    back = tmp_path / "back.yaml"
    assert main(["import", str(table), "-o", str(back)]) == 0
    original = load_deck(source)
    again = load_deck(back)
    if header:
        assert [(t.term, t.definition, t.tags) for t in again.terms] == [
            (t.term, t.definition, t.tags) for t in original.terms
        ]
        assert again.title == original.title
    else:  # Quizlet's two columns hold one line each
        assert [(t.term, t.definition) for t in again.terms] == [
            (t.term, " ".join(t.definition.split())) for t in original.terms
        ]
        lines = table.read_text(encoding="utf-8").splitlines()
        assert len(lines) == len(TRICKY) and all(line.count("\t") == 1 for line in lines)
        assert not any(line.startswith("#") for line in lines)
        assert '\'- leading dash\t"Quoted" text, with a comma; and a semicolon' in lines


def test_export_format_quizlet_writes_no_header_and_a_tsv_says_it_has_one(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Quizlet imports every line as a card, Anki's # lines too: --format quizlet writes the
    two columns alone, and a plain .tsv export says it starts with Anki's header lines."""
    source = tricky_deck(tmp_path / "tricky.yaml")
    quizlet = tmp_path / "quizlet.tsv"
    assert main(["export", str(source), "--format", "quizlet", "-o", str(quizlet)]) == 0
    lines = quizlet.read_text(encoding="utf-8").splitlines()
    assert len(lines) == len(TRICKY) and all(line.count("\t") == 1 for line in lines)
    assert not any(line.startswith("#") for line in lines)
    assert "--format quizlet" not in capsys.readouterr().out
    anki = tmp_path / "anki.tsv"
    assert main(["export", str(source), "-o", str(anki)]) == 0
    assert anki.read_text(encoding="utf-8").startswith("#separator:tab\n")
    assert "for Quizlet, export with --format quizlet" in capsys.readouterr().out


def test_the_readme_export_line_names_the_header_and_the_quizlet_format() -> None:
    readme = (Path(__file__).parent.parent / "README.md").read_text(encoding="utf-8")
    [line] = [n for n in readme.splitlines() if n.startswith("vocabgame export kv-cache")]
    following = readme.splitlines()[readme.splitlines().index(line) + 1]
    assert "Quizlet (.tsv)" not in line
    assert "#separator" in line + following and "--format quizlet" in line + following


def test_export_finds_a_deck_by_id_and_says_what_is_left_out(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    shutil.copy(Path(__file__).parent / "data" / "latency-basics.yaml", tmp_path / "d.yaml")
    deck = load_deck(tmp_path / "d.yaml")
    out = tmp_path / "x.tsv"
    assert main(["export", deck.id, "--decks", str(tmp_path), "-o", str(out)]) == 0
    said = capsys.readouterr().out
    assert f"{len(deck.terms)} terms of deck {deck.id!r} (not exported:" in said
    assert out.read_text(encoding="utf-8").startswith("#separator:tab\n#html:false\n")
    assert main(["export", "no-such-deck", "-o", str(tmp_path / "y.csv")]) == 1
    assert "no deck with id 'no-such-deck'" in capsys.readouterr().err


def read_apkg(path: Path) -> tuple[list[tuple[str, str, str, int]], dict, dict]:
    with zipfile.ZipFile(path) as z:
        assert "collection.anki2" in z.namelist()
        db = path.parent / "collection.anki2"
        db.write_bytes(z.read("collection.anki2"))
    conn = sqlite3.connect(db)
    try:
        notes = conn.execute("SELECT guid, flds, tags, mid FROM notes ORDER BY id").fetchall()
        models, decks = conn.execute("SELECT models, decks FROM col").fetchone()
    finally:
        conn.close()
    db.unlink()
    return notes, json.loads(models), json.loads(decks)


def test_apkg_has_one_note_per_term_with_tags_and_stable_ids(tmp_path: Path) -> None:
    pytest.importorskip("genanki")
    import genanki

    source = write(
        tmp_path / "d.yaml",
        """\
format: 1
id: serving
title: Serving <basics>
tags: [serving, two words]
sources:
  paper: {title: The paper, url: "https://example.org/p?a=1&b=2"}
terms:
  - id: ttft
    term: TTFT
    definition: Time to <first> token.
    caveat: Not the pace.
    example: 2 s for a long prompt.
    tags: [latency]
    sources: [paper]
  - id: tpot
    term: TPOT
    definition: Time per output token.
""",
    )
    out = tmp_path / "d.apkg"
    assert main(["export", str(source), "-o", str(out)]) == 0
    notes, models, decks = read_apkg(out)
    model_id, deck_id = apkg_ids("serving")
    assert [n[0] for n in notes] == [
        genanki.guid_for("serving", "ttft"),
        genanki.guid_for("serving", "tpot"),
    ]
    fields = [n[1].split("\x1f") for n in notes]
    assert fields[0][:4] == [
        "TTFT",
        "Time to &lt;first&gt; token.",
        "Not the pace.",
        "2 s for a long prompt.",
    ]
    assert fields[0][4] == '<a href="https://example.org/p?a=1&amp;b=2">The paper</a>'
    assert fields[1] == ["TPOT", "Time per output token.", "", "", ""]
    assert notes[0][2].split() == ["serving", "two_words", "latency"]
    assert notes[1][2].split() == ["serving", "two_words"]
    assert {n[3] for n in notes} == {model_id}
    assert str(model_id) in models and str(deck_id) in decks
    assert decks[str(deck_id)]["name"] == "Serving <basics>"

    # Exported again (and for another deck id): the same ids, so Anki updates, not duplicates.
    again = tmp_path / "again.apkg"
    assert main(["export", str(source), "-o", str(again)]) == 0
    notes2, models2, decks2 = read_apkg(again)
    assert [n[0] for n in notes2] == [n[0] for n in notes]
    assert set(models2) == set(models) and set(decks2) == set(decks)
    assert apkg_ids("other") != apkg_ids("serving")


def test_apkg_without_genanki_says_how_to_install_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setitem(sys.modules, "genanki", None)  # import genanki now raises ImportError
    source = tricky_deck(tmp_path / "t.yaml")
    out = tmp_path / "t.apkg"
    assert main(["export", str(source), "--format", "apkg", "-o", str(out)]) == 1
    err = capsys.readouterr().err.strip()
    assert err == (
        "vocabgame: the apkg format needs the genanki package; install it with: "
        "pip install 'vocabgame[anki]'"
    )
    assert not out.exists()


def test_export_of_a_deck_without_terms_is_one_sentence(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = write(
        tmp_path / "c.yaml",
        "format: 1\nid: c\ntitle: C\nclaims:\n  - id: x\n    statement: S.\n"
        "    answer: true\n    explanation: E.\n",
    )
    assert main(["export", str(source), "-o", str(tmp_path / "c.csv")]) == 1
    assert "has no terms; only terms are exported" in capsys.readouterr().err
    assert not (tmp_path / "c.csv").exists()


# -- the schema beside a deck ------------------------------------------------------------------


def test_a_new_decks_schema_reference_survives_moving_the_folder(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    deck = tmp_path / "machine-a" / "decks" / "mine.yaml"
    assert main(["new", str(deck)]) == 0
    moved = tmp_path / "machine-b" / "elsewhere"
    shutil.move(str(deck.parent), str(moved))
    deck = moved / "mine.yaml"

    first = deck.read_text(encoding="utf-8").splitlines()[0]
    assert first == f"# yaml-language-server: $schema=./{SCHEMA_NAME}"
    reference = first.split("$schema=", 1)[1]
    assert "://" not in reference and not Path(reference).is_absolute()
    schema = deck.parent / reference
    assert schema.is_file()

    capsys.readouterr()
    assert main(["schema"]) == 0
    assert schema.read_text(encoding="utf-8") == capsys.readouterr().out
    assert main(["validate", "--strict", str(deck)]) == 0


def test_imported_decks_get_the_schema_too_and_schema_writes_a_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = write(tmp_path / "t.tsv", "A\tone\n")
    assert main(["import", str(source), "-o", str(tmp_path / "d" / "t.yaml")]) == 0
    assert (
        (tmp_path / "d" / "t.yaml")
        .read_text(encoding="utf-8")
        .startswith(f"# yaml-language-server: $schema=./{SCHEMA_NAME}\n")
    )
    assert (tmp_path / "d" / SCHEMA_NAME).read_text(encoding="utf-8") == (
        paths.schema_path().read_text(encoding="utf-8")
    )
    out = tmp_path / "s.json"
    assert main(["schema", "-o", str(out)]) == 0
    assert json.loads(out.read_text(encoding="utf-8"))["title"] == "vocabgame deck, format 1"


def test_an_older_schema_beside_a_deck_is_updated_and_a_foreign_file_kept(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    older = write(tmp_path / "a" / SCHEMA_NAME, json.dumps({"title": "vocabgame deck, format 1"}))
    assert main(["new", str(tmp_path / "a" / "d.yaml")]) == 0
    assert older.read_text(encoding="utf-8") == paths.schema_path().read_text(encoding="utf-8")
    foreign = write(tmp_path / "b" / SCHEMA_NAME, '{"title": "something else"}')
    assert main(["new", str(tmp_path / "b" / "d.yaml")]) == 0
    assert foreign.read_text(encoding="utf-8") == '{"title": "something else"}'
    assert "is not vocabgame's schema; left as it is" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("command", "words"),
    [
        ("import", ["#separator:", "FILE:LINE", "--force", "--title", "examples:"]),
        ("export", ["--no-header", "--format quizlet", "genanki", "updates the cards"]),
        ("schema", ["JSON Schema", "-o FILE"]),
    ],
)
def test_each_command_has_help(
    command: str, words: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as caught:
        main([command, "--help"])
    assert caught.value.code == 0
    out = " ".join(capsys.readouterr().out.split())
    for word in words:
        assert word in out


def test_import_export_and_schema_never_load_textual(tmp_path: Path) -> None:
    write(tmp_path / "t.tsv", "A\tone\n")
    body = (
        "from vocabgame.cli import main\n"
        "assert main(['import', 't.tsv', '-o', 't.yaml']) == 0\n"
        "assert main(['export', 't.yaml', '-o', 't.csv']) == 0\n"
        "assert main(['export', 't.yaml', '-o', 't.apkg']) == 0\n"
        "assert main(['schema', '-o', 's.json']) == 0\n"
        "import sys\n"
        "loaded = [m for m in sys.modules if m.split('.')[0] == 'textual']\n"
        "assert not loaded, loaded\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", body], cwd=tmp_path, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "t.apkg").is_file()


# -- into a real Anki collection (needs the anki package, which the test extra leaves out) ------


def test_a_real_anki_imports_the_csv_and_updates_notes_from_a_newer_apkg(tmp_path: Path) -> None:
    collection = pytest.importorskip(
        "anki.collection", reason="needs Anki's own package: pip install anki"
    )
    pytest.importorskip("genanki")
    source = tricky_deck(tmp_path / "tricky.yaml")
    assert main(["export", str(source), "-o", str(tmp_path / "t.csv")]) == 0

    col = collection.Collection(str(tmp_path / "csv.anki2"))
    try:
        metadata = col.get_csv_metadata(path=str(tmp_path / "t.csv"), delimiter=None)
        col.import_csv(collection.ImportCsvRequest(path=str(tmp_path / "t.csv"), metadata=metadata))
        notes = [col.get_note(n) for n in col.find_notes("")]
        assert sorted(n.fields[0] for n in notes) == sorted(
            col.media.escape_media_filenames(escape_html(t)) for t, _ in TRICKY
        )
        assert any("tag-a" in n.tags for n in notes)
    finally:
        col.close()

    def package(apkg: Path) -> tuple[int, int]:
        result = col.import_anki_package(
            collection.ImportAnkiPackageRequest(
                package_path=str(apkg),
                options=collection.ImportAnkiPackageOptions(with_scheduling=False),
            )
        )
        return len(result.log.new), len(result.log.updated)

    col = collection.Collection(str(tmp_path / "apkg.anki2"))
    try:
        first, second = tmp_path / "1.apkg", tmp_path / "2.apkg"
        assert main(["export", str(source), "-o", str(first)]) == 0
        assert package(first) == (len(TRICKY), 0)
        changed = source.read_text(encoding="utf-8").replace("kept # in GPU", "kept in HBM")
        write(source, changed)
        from vocabgame.interchange import apkg_bytes

        write(second, apkg_bytes(load_deck(source), time.time() + 60))  # a later export
        assert package(second) == (0, len(TRICKY))
        assert len(col.find_notes("")) == len(TRICKY)
        assert col.find_notes('"Definition:*kept in HBM*"')
    finally:
        col.close()
