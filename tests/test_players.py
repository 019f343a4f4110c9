"""Players: a data folder holds several, each with a store, backups and lock of their own;
`vocabgame --player NAME`, `vocabgame players` and `vocabgame leaderboard`."""

from __future__ import annotations

import json
import shutil
from datetime import UTC, datetime
from pathlib import Path

import pytest

from vocabgame.backup import DataLock
from vocabgame.cli import main
from vocabgame.play.leaderboard import leaderboard
from vocabgame.players import (
    DEFAULT_ID,
    PlayerError,
    add_player,
    check_name,
    find_player,
    read_registry,
    remove_player,
    rename_player,
    set_consent,
)
from vocabgame.store import DB_NAME, Store

from .store_compat import DB, DECKS, END, SCOPES, _run

NOW = datetime(2026, 12, 3, 12, 0, tzinfo=UTC)


def _copied(tmp_path: Path) -> Path:
    data_dir = tmp_path / "data"
    data_dir.mkdir()
    shutil.copyfile(DB, data_dir / DB_NAME)
    return data_dir


def _stats(data_dir: Path, *player: str) -> dict[str, object]:
    base = ["stats", "--json", "--data-dir", str(data_dir), "--decks", str(DECKS), *player]
    return {name: json.loads(_run([*base, *args])) for name, args in SCOPES.items()}


def _files(folder: Path) -> dict[str, bytes]:
    return {
        str(p.relative_to(folder)): p.read_bytes()
        for p in sorted(folder.rglob("*"))
        # SQLite's own -wal and -shm, which a reader may make, are not the store.
        if p.is_file()
        and p.suffix not in (".lock", ".db-wal", ".db-shm")
        and "deck-cache" not in p.parts
    }


def test_a_store_of_today_is_the_default_player_with_the_same_stats(tmp_path: Path) -> None:
    data_dir = _copied(tmp_path)
    before = _stats(data_dir)
    assert _stats(data_dir, "--player", "default") == before
    assert _stats(data_dir, "--player", "DEFAULT") == before  # any case
    # Another player, with progress of their own, changes nothing of the default's.
    add_player(data_dir, "Ana")
    shutil.copyfile(DB, data_dir / "players" / "2" / DB_NAME)
    ana = _stats(data_dir, "--player", "ana")
    store = Store.open(data_dir / "players" / "2" / DB_NAME)
    store.conn.execute("DELETE FROM reviews")  # Ana's damage...
    store.close()
    assert _stats(data_dir) == before  # ...is not the default player's
    assert _stats(data_dir, "--player", "ana") != ana


def test_each_player_has_a_folder_named_by_id_and_their_own_backups_and_lock(
    tmp_path: Path,
) -> None:
    data_dir = _copied(tmp_path)
    ana = add_player(data_dir, "Ana")
    assert ana.folder(data_dir) == data_dir / "players" / "2"
    shutil.copyfile(DB, ana.folder(data_dir) / DB_NAME)
    for args in (["backup"], ["--player", "Ana", "backup"]):
        assert main([*args, "--data-dir", str(data_dir)]) == 0
    assert len(list((data_dir / "backups").glob("vocabgame-*.db"))) == 1
    assert len(list((ana.folder(data_dir) / "backups").glob("vocabgame-*.db"))) == 1
    # Ana's game holds Ana's lock; the default player's restore is not kept from it.
    with DataLock(ana.folder(data_dir)).shared():
        assert main(["restore", "--yes", "--data-dir", str(data_dir)]) == 0
        assert main(["restore", "--yes", "--player", "Ana", "--data-dir", str(data_dir)]) == 1


@pytest.mark.parametrize(
    ("name", "sentence"),
    [
        ("\x1b]0;owned\x07Eve", "holds control characters or direction marks"),
        ("Eve\u202egnp.exe", "holds control characters or direction marks"),
        ("x" * 10_000, "has at most 40 characters; this one has 10,000"),
        ("   ", "cannot be empty"),
        ("ANA", "There is already a player named 'Ana'"),
    ],
)
def test_a_hostile_name_is_one_sentence_and_changes_nothing(
    tmp_path: Path, name: str, sentence: str, capsys: pytest.CaptureFixture[str]
) -> None:
    data_dir = tmp_path / "data"
    add_player(data_dir, "Ana")
    before = _files(data_dir)
    assert main(["players", "add", name, "--data-dir", str(data_dir)]) == 1
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1 and sentence in err, err
    assert "\x1b" not in err and "\u202e" not in err and "\x07" not in err
    assert _files(data_dir) == before


@pytest.mark.parametrize("name", ["../../etc/passwd", "C:\\Windows", "/", "[bold]Bob[/]", ".."])
def test_a_name_never_becomes_a_path(tmp_path: Path, name: str) -> None:
    data_dir = tmp_path / "data"
    player = add_player(data_dir, name)
    assert check_name(name) == name == player.name
    assert player.folder(data_dir) == data_dir / "players" / "2"
    Store.open(player.folder(data_dir) / DB_NAME).close()
    assert main(["--player", name, "--data-dir", str(data_dir), "backup"]) == 0
    made = {p for p in tmp_path.rglob("*") if p.is_file()}
    assert all(data_dir in p.parents for p in made)
    assert find_player(data_dir, name.upper()) == player


def test_players_lists_adds_renames_and_removes_after_asking(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    data_dir = _copied(tmp_path)
    d = ["--data-dir", str(data_dir)]
    assert main(["players", "add", "Ana", *d]) == 0
    assert main(["players", "rename", "ana", "Ana B", *d]) == 0
    Store.open(data_dir / "players" / "2" / DB_NAME).close()  # as her first game does
    assert main(["--player", "Ana B", "backup", *d]) == 0
    capsys.readouterr()
    assert main(["players", "--json", *d]) == 0
    listed = json.loads(capsys.readouterr().out)
    assert [(p["name"], p["id"], p["default"]) for p in listed] == [
        ("default", DEFAULT_ID, True),
        ("Ana B", "2", False),
    ]
    monkeypatch.setattr("builtins.input", lambda prompt: "n")
    assert main(["players", "remove", "Ana B", *d]) == 1
    assert read_registry(data_dir).find("Ana B") is not None
    monkeypatch.setattr("builtins.input", lambda prompt: "y")
    assert main(["players", "remove", "ana b", *d]) == 0
    assert read_registry(data_dir).find("Ana B") is None
    [kept] = (data_dir / "players" / "removed").iterdir()
    assert (kept / DB_NAME).is_file() and list((kept / "backups").glob("*.db"))
    # A new player never gets a removed one's folder.
    assert add_player(data_dir, "Cy").folder(data_dir) == data_dir / "players" / "3"
    # The default player's store is the data folder's: renamed, never removed.
    assert main(["players", "remove", "default", "--yes", *d]) == 1
    assert "cannot be removed" in capsys.readouterr().err
    assert rename_player(data_dir, "default", "Host").is_default


def test_a_player_who_is_playing_is_not_removed(tmp_path: Path) -> None:
    data_dir = tmp_path / "data"
    ana = add_player(data_dir, "Ana")
    with DataLock(ana.folder(data_dir)).shared(), pytest.raises(PlayerError, match="playing"):
        remove_player(data_dir, "Ana", NOW)
    assert read_registry(data_dir).find("Ana") == ana


def test_an_unknown_player_is_one_sentence_naming_the_players(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data_dir = tmp_path / "data"
    add_player(data_dir, "Ana")
    assert main(["--player", "Zed", "stats", "--data-dir", str(data_dir)]) == 2
    [line] = capsys.readouterr().err.splitlines()
    assert "No player named 'Zed'" in line and "default, Ana" in line
    assert not (data_dir / DB_NAME).exists()


def test_a_damaged_registry_is_one_sentence(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data_dir = tmp_path / "data"
    data_dir.mkdir()
    (data_dir / "players.json").write_text('{"format": 1, "players": [{"id": "../x"', "utf-8")
    assert main(["players", "--data-dir", str(data_dir)]) == 1
    [line] = capsys.readouterr().err.splitlines()
    assert "is damaged" in line


def test_the_leaderboard_shows_only_those_who_agreed_and_reads_stores_only(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data_dir = _copied(tmp_path)
    add_player(data_dir, "Ana", leaderboard=True)  # as serve makes them
    add_player(data_dir, "Bo")  # as the command line makes them: not shown
    set_consent(data_dir, "default", True)
    Store.open(data_dir / DB_NAME).close()  # brought up to date, as a game does
    before = _files(data_dir)
    board = leaderboard(data_dir, END, UTC)
    assert _files(data_dir) == before  # every store byte for byte
    assert [s.name for s in board.standings] == ["default", "Ana"] and board.hidden == 1
    host = board.standings[0]
    assert host.challenge_best is not None and host.challenge_best > 0
    assert host.interview_best is not None and host.interview_best > 0
    assert host.problem is None and board.standings[1].challenge_best is None
    assert main(["leaderboard", "--json", "--data-dir", str(data_dir)]) == 0
    shown = json.loads(capsys.readouterr().out)
    assert [(p["rank"], p["player"]) for p in shown["players"]] == [(1, "default"), (2, "Ana")]
    assert shown["hidden"] == 1
    assert main(["leaderboard", "--data-dir", str(data_dir)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split() == ["#", "player", "challenge", "interview", "streak", "retention"]
    assert lines[1].split()[:2] == ["1", "default"] and lines[2].split() == ["2", "Ana", *"——0—"]
    assert lines[3] == "1 player(s) chose not to appear."
    assert main(["players", "leaderboard", "default", "off", "--data-dir", str(data_dir)]) == 0
    assert [s.name for s in leaderboard(data_dir, END, UTC).standings] == ["Ana"]


def test_one_players_import_restore_and_settings_never_touch_anothers(tmp_path: Path) -> None:
    from .store_compat import EXPORT

    data_dir = _copied(tmp_path)
    d = ["--data-dir", str(data_dir)]
    assert main(["backup", *d]) == 0
    ana = add_player(data_dir, "Ana").folder(data_dir)
    Store.open(ana / DB_NAME).close()
    default_store = (data_dir / DB_NAME).read_bytes()
    assert main(["--player", "Ana", "import-progress", str(EXPORT), *d]) == 0
    assert main(["--player", "Ana", "settings", "--round-size", "7", *d]) == 0
    assert (data_dir / DB_NAME).read_bytes() == default_store
    ana_store = Store.open(ana / DB_NAME)
    try:
        assert ana_store.answers.count() > 0
        assert ana_store.preferences.read()[0].round_size == 7
    finally:
        ana_store.close()
    ana_files = _files(ana)
    assert main(["restore", "--yes", *d]) == 0  # the default player's restore
    assert _files(ana) == ana_files
    default = Store.open(data_dir / DB_NAME)
    try:
        assert default.preferences.read()[0].round_size != 7
    finally:
        default.close()
