"""The command line: exit codes, output formats, deck folders, `new`, and no textual import."""

from __future__ import annotations

import ast
import json
import os
import re
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

import vocabgame
from vocabgame import paths
from vocabgame.cli import build_parser, main
from vocabgame.deck import load_text

from .conftest import DATA

PACKAGE = Path(vocabgame.__file__).resolve().parent
EXAMPLE = (DATA / "latency-basics.yaml").read_text(encoding="utf-8")
BROKEN = EXAMPLE.replace("title: Latency and throughput", "titel: Latency and throughput")


def deck_text(deck_id: str, title: str = "A deck") -> str:
    return f"""\
format: 1
id: {deck_id}
title: {title}
terms:
  - id: ttft
    term: Time to first token
    definition: Time until the first output token arrives.
"""


@pytest.fixture(autouse=True)
def _no_builtin_decks(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Built-in decks are edited by others while these tests run; list only the tests' own."""
    empty = tmp_path / "builtin"
    empty.mkdir()
    monkeypatch.setattr(paths, "builtin_decks_dir", lambda: empty)
    return empty


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


# -- --version and usage errors ------------------------------------------------------------


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as caught:
        main(["--version"])
    assert caught.value.code == 0
    assert capsys.readouterr().out.strip() == f"vocabgame {vocabgame.__version__}"


@pytest.mark.parametrize(
    "argv",
    [
        ["--no-such-flag"],
        ["validate", "--no-such-flag", "x.yaml"],
        ["validate"],
        ["validate", "--format", "xml", "x.yaml"],
        ["validate", "--max-bytes", "0", "x.yaml"],
        ["decks", "--data-dir"],
        ["new"],
        ["no-such-command"],
        ["play", "--size", "many"],
    ],
)
def test_usage_errors_exit_2(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as caught:
        main(argv)
    assert caught.value.code == 2
    assert "usage: vocabgame" in capsys.readouterr().err


def subcommands() -> list[str]:
    parser = build_parser()
    (action,) = [a for a in parser._actions if a.dest == "command"]
    return sorted(action.choices)  # type: ignore[arg-type]


def test_the_commands_of_issue_2_exist() -> None:
    assert {"validate", "decks", "new"} <= set(subcommands())


@pytest.mark.parametrize("command", [[], *([c] for c in subcommands())])
def test_every_command_has_help(command: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as caught:
        main([*command, "--help"])
    assert caught.value.code == 0
    out = capsys.readouterr().out
    assert out.startswith("usage: vocabgame")
    assert "--data-dir" in out and "--decks" in out


# -- validate ------------------------------------------------------------------------------


def test_validate_a_good_deck(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["validate", str(DATA / "latency-basics.yaml")]) == 0
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.strip() == "1 file checked: 0 errors"


def test_validate_collects_garbage_rarely_while_it_checks_then_as_before(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import gc

    from vocabgame.deck import load as load_module

    deck = write(tmp_path / "d.yaml", EXAMPLE)
    seen: list[int] = []
    real = load_module.load_text

    def load_text(*args: object, **kwargs: object) -> object:
        seen.append(gc.get_threshold()[0])
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(load_module, "load_text", load_text)
    before = gc.get_threshold()
    assert main(["validate", str(deck)]) == 0
    assert seen and seen[0] >= 100_000 > before[0]
    assert gc.get_threshold() == before


def test_the_command_runs_main_and_leaves_what_it_built_to_the_exit(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """`vocabgame` (the script's `entry`) returns `main`'s exit code and freezes what the
    process holds, so Python's exit does not walk it all once more."""
    import gc

    from vocabgame.cli import entry

    deck = write(tmp_path / "d.yaml", EXAMPLE)
    broken = write(tmp_path / "b.yaml", "format: 1\nid: [\n")
    gc.unfreeze()  # what an app run earlier in this process froze
    try:
        monkeypatch.setattr(sys, "argv", ["vocabgame", "validate", str(deck)])
        assert entry() == 0
        assert gc.get_freeze_count() > 0
        monkeypatch.setattr(sys, "argv", ["vocabgame", "validate", str(broken)])
        assert entry() == main(["validate", str(broken)]) != 0
    finally:
        gc.unfreeze()
    assert "1 file checked: 0 errors" in capsys.readouterr().err


def test_validate_a_broken_deck(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path / "broken.yaml", BROKEN)
    assert main(["validate", str(path)]) == 1
    captured = capsys.readouterr()
    lines = captured.out.splitlines()
    assert lines == [
        f"{path}:1:1: error: the deck is missing required key 'title'",
        f"{path}:3:1: error: unknown key 'titel' in the deck (did you mean 'title'?)",
    ]
    assert all(re.match(r"^.+:\d+:\d+: error: .+$", line) for line in lines)
    assert captured.err.strip() == "1 file checked: 2 errors"


def test_validate_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path / "broken.yaml", BROKEN)
    assert main(["validate", "--format", "json", str(path)]) == 1
    report = json.loads(capsys.readouterr().out)
    assert report["files"] == 1
    assert report["errors"] == 2
    assert report["warnings"] == 0
    assert report["problems"][1] == {
        "path": str(path),
        "line": 3,
        "col": 1,
        "severity": "error",
        "message": "unknown key 'titel' in the deck (did you mean 'title'?)",
        "rule": None,
    }


def test_validate_json_of_a_good_deck(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["validate", "--format", "json", str(DATA / "latency-basics.yaml")]) == 0
    assert json.loads(capsys.readouterr().out) == {
        "files": 1,
        "errors": 0,
        "warnings": 0,
        "problems": [],
    }


def test_validate_a_folder(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    write(tmp_path / "decks" / "a.yaml", deck_text("a"))
    write(tmp_path / "decks" / "nested" / "b.yml", deck_text("b"))
    bad = write(tmp_path / "decks" / "nested" / "c.yaml", deck_text("C"))
    write(tmp_path / "decks" / "notes.txt", "not a deck")
    assert main(["validate", str(tmp_path / "decks")]) == 1
    captured = capsys.readouterr()
    assert captured.out.splitlines() == [
        f"{bad}:2:5: error: deck id 'C' is not a slug: use lowercase letters, digits and "
        "hyphens, starting with a letter or digit"
    ]
    assert captured.err.strip() == "3 files checked: 1 error"


def test_validate_a_folder_of_good_decks(tmp_path: Path) -> None:
    write(tmp_path / "a.yaml", deck_text("a"))
    write(tmp_path / "b.yaml", deck_text("b"))
    assert main(["validate", str(tmp_path)]) == 0


def test_validate_a_missing_path(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    missing = tmp_path / "nope.yaml"
    assert main(["validate", str(missing)]) == 1
    captured = capsys.readouterr()
    assert captured.out.splitlines() == [f"{missing}: error: no such file or folder"]


def test_validate_a_folder_without_decks(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["validate", str(tmp_path / "builtin")]) == 1
    assert "no deck files (.yaml, .yml) found" in capsys.readouterr().err


def test_validate_two_files_with_the_same_deck_id(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    first = write(tmp_path / "one.yaml", deck_text("same"))
    second = write(tmp_path / "two.yaml", deck_text("same"))
    assert main(["validate", str(first), str(second)]) == 1
    assert capsys.readouterr().out.splitlines() == [
        f"{second}: error: deck id 'same' is already used by {first}"
    ]


def test_validate_strict(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path / "a.yaml", deck_text("a"))
    assert main(["validate", str(path)]) == 0
    capsys.readouterr()
    assert main(["validate", "--strict", str(path)]) == 1
    captured = capsys.readouterr()
    assert captured.out.splitlines() == [f"{path}:5:1: warning: term 'ttft' cites no source"]
    assert captured.err.strip() == "1 file checked: 0 errors, 1 warning"
    assert main(["validate", "--strict", str(DATA / "latency-basics.yaml")]) == 1


def test_validate_max_bytes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path / "a.yaml", deck_text("a"))
    size = path.stat().st_size
    assert main(["validate", "--max-bytes", str(size), str(path)]) == 0
    assert main(["validate", "--max-bytes", "50", str(path)]) == 1
    assert capsys.readouterr().out.splitlines() == [
        f"{path}: error: file is {size:,} bytes, over the limit of 50"
    ]


def test_validate_a_file_that_is_not_utf8(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "latin1.yaml"
    path.write_bytes(deck_text("a", "Caf\xe9").encode("latin-1"))
    assert main(["validate", str(path)]) == 1
    assert capsys.readouterr().out.splitlines() == [
        f"{path}:3:11: error: file is not UTF-8 text (byte 0xe9); save it as UTF-8"
    ]


# -- decks and the folders searched --------------------------------------------------------


def listed(capsys: pytest.CaptureFixture[str]) -> dict[str, str]:
    return {row["id"]: row["path"] for row in json.loads(capsys.readouterr().out)}


def test_decks_json_lists_a_decks_folder_and_the_data_dir(
    tmp_path: Path, data_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    extra = write(tmp_path / "extra" / "x.yaml", deck_text("from-extra", "Extra"))
    mine = write(data_dir / "decks" / "m.yaml", deck_text("from-data-dir", "Mine"))
    assert main(["decks", "--json", "--decks", str(tmp_path / "extra")]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert [(r["id"], r["title"], r["path"]) for r in rows] == [
        ("from-extra", "Extra", str(extra)),
        ("from-data-dir", "Mine", str(mine)),
    ]
    assert rows[0]["counts"]["terms"] == 1
    assert rows[0]["items"] == 1


def test_decks_text_output(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path / "extra" / "x.yaml", EXAMPLE)
    assert main(["decks", "--decks", str(tmp_path / "extra")]) == 0
    assert capsys.readouterr().out.splitlines() == [
        "latency-basics  Latency and throughput",
        "    2 terms, 1 scenario, 1 calculation",
        f"    {path}",
    ]


def test_decks_with_nothing_found(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["decks"]) == 0
    assert capsys.readouterr().out.startswith("No decks found. Searched: ")


def test_decks_from_the_environment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    write(tmp_path / "e1" / "a.yaml", deck_text("env-one"))
    write(tmp_path / "e2" / "b.yaml", deck_text("env-two"))
    monkeypatch.setenv(
        "VOCABGAME_DECKS", os.pathsep.join([str(tmp_path / "e1"), str(tmp_path / "e2")])
    )
    assert main(["decks", "--json"]) == 0
    assert set(listed(capsys)) == {"env-one", "env-two"}


def test_the_same_deck_id_in_two_folders_is_one_clear_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    first = write(tmp_path / "a" / "deck.yaml", deck_text("same", "First"))
    second = write(tmp_path / "b" / "deck.yaml", deck_text("same", "Second"))
    code = main(["decks", "--json", "--decks", str(tmp_path / "a"), "--decks", str(tmp_path / "b")])
    assert code == 1
    captured = capsys.readouterr()
    assert [r["title"] for r in json.loads(captured.out)] == ["First"]
    errors = captured.err.splitlines()
    assert errors == [
        f"{second}: error: deck id 'same' is already used by {first}; this file was skipped"
    ]


def test_broken_deck_in_a_folder_is_reported_and_the_rest_listed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write(tmp_path / "d" / "good.yaml", deck_text("good"))
    bad = write(tmp_path / "d" / "bad.yaml", BROKEN)
    assert main(["decks", "--json", "--decks", str(tmp_path / "d")]) == 1
    captured = capsys.readouterr()
    assert [r["id"] for r in json.loads(captured.out)] == ["good"]
    assert f"{bad}:3:1: error: unknown key 'titel'" in captured.err


@pytest.mark.parametrize(
    "order",
    [
        ["--data-dir", "{D}", "decks", "--json"],
        ["decks", "--json", "--data-dir", "{D}"],
        ["decks", "--data-dir", "{D}", "--json"],
    ],
)
def test_data_dir_before_or_after_the_command(
    order: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    other = tmp_path / "other-data"
    write(other / "decks" / "d.yaml", deck_text("in-other-data"))
    argv = [str(other) if a == "{D}" else a for a in order]
    assert main(argv) == 0
    assert set(listed(capsys)) == {"in-other-data"}


@pytest.mark.parametrize(
    "argv",
    [
        ["--decks", "{A}", "--decks", "{B}", "decks", "--json"],
        ["decks", "--json", "--decks", "{A}", "--decks", "{B}"],
        ["--decks", "{A}", "decks", "--json", "--decks", "{B}"],
    ],
)
def test_decks_folders_before_and_after_the_command(
    argv: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write(tmp_path / "A" / "a.yaml", deck_text("deck-a"))
    write(tmp_path / "B" / "b.yaml", deck_text("deck-b"))
    argv = [str(tmp_path / a.strip("{}")) if a.startswith("{") else a for a in argv]
    assert main(argv) == 0
    assert set(listed(capsys)) == {"deck-a", "deck-b"}


def test_the_data_dir_env_is_the_default(
    data_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write(data_dir / "decks" / "d.yaml", deck_text("from-env-data"))
    assert main(["decks", "--json"]) == 0
    assert set(listed(capsys)) == {"from-env-data"}


# -- new -----------------------------------------------------------------------------------


def test_new_writes_a_deck_that_validates(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "sub" / "My Serving Deck.yaml"
    assert main(["new", str(path)]) == 0
    assert f"Wrote {path}." in capsys.readouterr().out
    text = path.read_text(encoding="utf-8")
    first = text.splitlines()[0]
    assert first.startswith("# yaml-language-server: $schema=")
    reference = first.removeprefix("# yaml-language-server: $schema=")
    schema = path.parent / reference  # relative to the deck: see tests/test_interchange.py
    assert schema.is_file()
    assert json.loads(schema.read_text(encoding="utf-8"))["title"] == "vocabgame deck, format 1"
    deck, problems = load_text(text, str(path), strict=True)
    assert problems == []
    assert deck is not None and deck.id == "my-serving-deck"
    assert all(deck.counts().values()), "the starter shows every section"
    assert main(["validate", "--strict", str(path)]) == 0


def test_new_refuses_to_overwrite(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path / "mine.yaml", "format: 1  # my work\n")
    assert main(["new", str(path)]) == 1
    assert path.read_text(encoding="utf-8") == "format: 1  # my work\n"
    assert "already exists" in capsys.readouterr().err


def test_new_wants_a_yaml_file_name(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["new", str(tmp_path / "deck.txt")]) == 1
    assert not (tmp_path / "deck.txt").exists()
    assert "ends in .yaml" in capsys.readouterr().err


# -- commands that do not open the game never import textual -------------------------------

NO_TEXTUAL = """
import sqlite3
import sys
{body}
loaded = sorted(m for m in sys.modules if m == "textual" or m.startswith("textual."))
assert not loaded, loaded
"""


def run_python(body: str, tmp_path: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "VOCABGAME_DATA_DIR": str(tmp_path / "data")}
    env.pop("VOCABGAME_DECKS", None)
    return subprocess.run(
        [sys.executable, "-c", NO_TEXTUAL.format(body=body)],
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
        timeout=60,
    )


def test_importing_the_cli_and_the_core_does_not_import_textual(tmp_path: Path) -> None:
    result = run_python("import vocabgame.cli, vocabgame.deck", tmp_path)
    assert result.returncode == 0, result.stderr


def test_running_the_non_game_commands_does_not_import_textual(tmp_path: Path) -> None:
    deck = write(tmp_path / "d.yaml", EXAMPLE)
    body = f"""
from vocabgame.cli import main
assert main(["validate", {str(deck)!r}]) == 0
main(["decks", "--json"])
assert main(["new", {str(tmp_path / "n.yaml")!r}]) == 0
"""
    result = run_python(body, tmp_path)
    assert result.returncode == 0, result.stderr


def core_modules() -> list[Path]:
    edges = (PACKAGE / "ui", PACKAGE / "cli")
    return sorted(p for p in PACKAGE.rglob("*.py") if not any(e in p.parents for e in edges))


def test_core_modules_never_import_textual() -> None:
    modules = core_modules()
    assert PACKAGE / "deck" / "load.py" in modules and PACKAGE / "reading" / "calc.py" in modules
    offenders = []
    for path in modules:
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                imported = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                imported = [node.module]
            else:
                continue
            for name in imported:
                if name.split(".")[0] == "textual" or name.startswith("vocabgame.ui"):
                    offenders.append(f"{path.relative_to(PACKAGE.parent)}:{node.lineno}: {name}")
    assert offenders == []


def test_settings_are_kept_and_bad_values_refused(tmp_path: Path, capsys) -> None:
    data = tmp_path / "data"
    assert (
        main(["settings", "--data-dir", str(data), "--retention", "0.85", "--new-per-day", "5"])
        == 0
    )
    assert main(["settings", "--data-dir", str(data)]) == 0
    out = capsys.readouterr().out
    assert "desired retention  0.85" in out and "new items a day    5" in out
    assert main(["settings", "--data-dir", str(data), "--retention", "1.5"]) == 2
    assert "outside 0.7 to 0.99" in capsys.readouterr().err


@pytest.mark.parametrize("command", [["stats"], [], ["play"], ["settings"]])
def test_a_damaged_database_gets_one_sentence_and_is_left_alone(
    tmp_path: Path, capsys, command: list[str]
) -> None:
    data = tmp_path / "data"
    data.mkdir()
    damaged = bytes(range(256)) * 40
    (data / "vocabgame.db").write_bytes(damaged)
    assert main(["--data-dir", str(data), *command]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1
    assert "is damaged" in err[0] and str(data / "vocabgame.db") in err[0]
    assert (data / "vocabgame.db").read_bytes() == damaged


def test_flags_lists_what_players_flagged(tmp_path: Path, capsys) -> None:
    """Each flag with its deck file and line, so the author can jump to it, its note and
    when it was flagged; a flag whose deck is gone still shows."""
    from datetime import UTC, datetime

    from vocabgame.quiz import FaceKey
    from vocabgame.store import Store

    deck = write(
        tmp_path / "decks" / "kv.yaml",
        "format: 1\nid: kv-cache\ntitle: KV\nterms:\n"
        "  - {id: gqa, term: GQA, definition: Groups of query heads share a KV head.}\n"
        "  - {id: mqa, term: MQA, definition: All query heads share one KV head.}\n",
    )
    data = tmp_path / "data"
    store = Store.open(data / "vocabgame.db")
    store.face_flags.add(
        FaceKey("kv-cache", "gqa", "definition"), datetime(2026, 11, 30, 9, 5, tzinfo=UTC)
    )
    store.face_flags.add(
        FaceKey("kv-cache", "mqa", "term"),
        datetime(2026, 11, 30, 9, 6, tzinfo=UTC),
        "two choices say the same",
    )
    store.face_flags.add(FaceKey("gone", "x", "claim"), datetime(2026, 11, 30, 9, 7, tzinfo=UTC))
    store.close()
    where = ["--data-dir", str(data), "--decks", str(tmp_path / "decks")]
    assert main(["flags", *where]) == 0
    assert capsys.readouterr().out == (
        f"{deck}:5: gqa (definition), flagged 2026-11-30 09:05\n"
        f"{deck}:6: mqa (term), flagged 2026-11-30 09:06; note: two choices say the same\n"
        "gone (no deck file with this id now): x (claim), flagged 2026-11-30 09:07\n"
    )
    assert main(["flags", "--json", *where]) == 0
    first, second, third = json.loads(capsys.readouterr().out)
    assert (first["deck"], first["item"], first["face"], first["note"]) == (
        "kv-cache",
        "gqa",
        "definition",
        "",
    )
    assert (first["file"], first["line"]) == (str(deck), 5)
    assert (third["file"], third["line"]) == (None, None)
    assert (second["item"], second["note"]) == ("mqa", "two choices say the same")


def test_decks_counts_are_worded_for_one_and_many(tmp_path: Path, capsys) -> None:
    assert main(["decks", "--decks", str(DATA)]) == 0
    out = capsys.readouterr().out
    assert "2 terms, 1 scenario, 1 calculation" in out


def test_play_help_shows_the_round_size_in_effect(tmp_path: Path, capsys) -> None:
    data = tmp_path / "data"
    assert main(["settings", "--data-dir", str(data), "--round-size", "12"]) == 0
    capsys.readouterr()
    with pytest.raises(SystemExit) as caught:
        main(["play", "--data-dir", str(data), "--help"])
    assert caught.value.code == 0
    help_text = " ".join(capsys.readouterr().out.split())  # argparse wraps the lines
    assert "questions in the round (now 12; see vocabgame settings)" in help_text
    with pytest.raises(SystemExit):
        main(["settings", "--data-dir", str(data), "--help"])
    assert "now 12)" in " ".join(capsys.readouterr().out.split())


@pytest.mark.parametrize("where", [["--data-dir", ""], ["stats", "--data-dir", " "]])
def test_an_empty_data_folder_is_refused_not_taken_as_here(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys, where: list[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SystemExit) as caught:
        main([*where, "stats"] if where[0] == "--data-dir" else where)
    assert caught.value.code == 2
    assert "--data-dir: is empty" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == [tmp_path / "builtin"]  # nothing written here


def test_a_damaged_setting_is_said_and_the_default_used(tmp_path: Path, capsys) -> None:
    data = tmp_path / "data"
    assert main(["settings", "--data-dir", str(data), "--round-size", "12"]) == 0
    conn = sqlite3.connect(data / "vocabgame.db")
    conn.execute("UPDATE settings SET value = '[oops' WHERE key = 'round_size'")
    conn.commit()
    conn.close()
    capsys.readouterr()
    assert main(["settings", "--data-dir", str(data)]) == 0
    captured = capsys.readouterr()
    assert "round size" in captured.err and "Traceback" not in captured.err
    assert re.search(r"round size\s+20", captured.out)


def test_validate_loads_the_lint_rules_only_when_strict(tmp_path: Path) -> None:
    deck = write(tmp_path / "d.yaml", EXAMPLE)
    body = f"""
from vocabgame.cli import main
assert main(["validate", {str(deck)!r}]) == 0
assert "vocabgame.deck.lint" not in sys.modules
assert "difflib" not in sys.modules  # nothing was misspelt, so nothing is suggested
# nor what only other commands use: the deck cache, JSON, the random numbers of questions
loaded = {{"vocabgame.deck.cache", "json", "random"}} & set(sys.modules)
assert not loaded, loaded
main(["validate", "--strict", {str(deck)!r}])
assert "vocabgame.deck.lint" in sys.modules
"""
    result = run_python(body, tmp_path)
    assert result.returncode == 0, result.stderr
