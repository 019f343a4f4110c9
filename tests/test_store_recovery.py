"""A store that was left half way, or that cannot be written: a first start or an upgrade
stopped by a full disk (check migrates it, or says why not), a database moved away without its
`-wal` (nothing is created over the log), a connection left in a transaction by a failed BEGIN
or ROLLBACK (reset), the temporary files a killed backup or restore left (removed at the next
backup), and a data folder nothing can be created in (read, and played unsaved)."""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest

from vocabgame import check as check_module
from vocabgame import paths
from vocabgame.cli import main
from vocabgame.play import open_session
from vocabgame.store import DB_NAME, MIGRATIONS, SCHEMA_VERSION, Store, StoreError, StoreFull
from vocabgame.store.schema import statements

from .conftest import DATA
from .faults import answer_right

DECKS = DATA / "ui"
NOW = datetime(2026, 12, 3, 9, 0, tzinfo=UTC)


@pytest.fixture(autouse=True)
def _no_builtin_decks(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Only the tests' own deck: the built-in ones are edited by others meanwhile."""
    empty = tmp_path / "builtin"
    empty.mkdir()
    monkeypatch.setattr(paths, "builtin_decks_dir", lambda: empty)


def half_migrated(db: Path, version: int) -> None:
    """A store whose migrations stopped after `version` (each migration is one transaction)."""
    db.parent.mkdir(parents=True, exist_ok=True)
    conn = sqlite3.connect(db, isolation_level=None)
    try:
        for number in range(version):
            for statement in statements(MIGRATIONS[number]):
                conn.execute(statement)
        conn.execute(f"PRAGMA user_version = {version}")
    finally:
        conn.close()


def test_check_brings_a_half_migrated_store_up_to_date_and_says_so(
    data_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    half_migrated(data_dir / DB_NAME, 8)  # learned_days (migration 9) is not there yet
    assert main(["check"]) == 0
    out = capsys.readouterr().out
    assert f"was at schema version 8 of {SCHEMA_VERSION}" in out
    assert "no problems found" in out
    with Store.open(data_dir / DB_NAME) as store:
        assert store.schema_version() == SCHEMA_VERSION


def test_check_names_the_version_when_the_migration_cannot_be_finished(
    data_dir: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    half_migrated(data_dir / DB_NAME, 8)

    def full(path: Path) -> Store:
        raise StoreFull(f"The disk holding {path} is full, so your last change was not saved.")

    monkeypatch.setattr(check_module.Store, "open", full)
    assert main(["check"]) == 1
    err = capsys.readouterr().err
    assert f"it is at schema version 8 of {SCHEMA_VERSION} and could not be brought up" in err
    assert "is full" in err and err.count("\n") == 1


@pytest.mark.parametrize("version", [SCHEMA_VERSION + 1, -1])
def test_check_refuses_a_version_it_does_not_know_in_one_sentence(
    data_dir: Path, capsys: pytest.CaptureFixture[str], version: int
) -> None:
    half_migrated(data_dir / DB_NAME, SCHEMA_VERSION)
    conn = sqlite3.connect(data_dir / DB_NAME)
    conn.execute(f"PRAGMA user_version = {version}")
    conn.close()
    before = (data_dir / DB_NAME).read_bytes()
    assert main(["check"]) == 1
    err = capsys.readouterr().err
    assert f"its schema version is {version}, which this vocabgame" in err
    assert (data_dir / DB_NAME).read_bytes() == before


# -- a database moved away without its -wal -------------------------------------------------------


def moved_without_its_log(data_dir: Path, elsewhere: Path) -> dict[str, bytes]:
    """A store whose answers are still in its -wal, the database then moved elsewhere while
    the -wal and -shm stay: what the data folder holds, byte for byte."""
    data_dir.mkdir(parents=True, exist_ok=True)
    store = Store.open(data_dir / DB_NAME)
    for n in range(6):
        store.preferences.set(f"answer {n}", n)  # committed, still in the -wal
    wal = data_dir / f"{DB_NAME}-wal"
    assert wal.stat().st_size > 0
    # Copied while the store is open, as a crash or a `mv` during play leaves them.
    saved = {p.name: p.read_bytes() for p in data_dir.iterdir() if p.name.startswith(DB_NAME)}
    store.close()
    for p in data_dir.iterdir():
        if p.name.startswith(DB_NAME):
            p.unlink()
    for name, data in saved.items():
        (elsewhere if name == DB_NAME else data_dir).joinpath(name).write_bytes(data)
    return {p.name: p.read_bytes() for p in sorted(data_dir.iterdir())}


@pytest.mark.parametrize(
    "command", [["stats"], ["check"], ["backup"], ["settings"], ["restore", "--yes", "x.db"]]
)
def test_a_log_with_no_database_beside_it_is_never_deleted_or_reused(
    data_dir: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    command: list[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    before = moved_without_its_log(data_dir, elsewhere)
    if command[0] == "restore":  # a real backup to restore, in the backups folder
        (data_dir / "backups").mkdir()
        Store.open(data_dir / "backups" / "vocabgame-2026-12-01T0900.db").close()
        command = ["restore", "--yes", "vocabgame-2026-12-01T0900.db"]
        before = {p.name: p.read_bytes() for p in sorted(data_dir.iterdir()) if p.is_file()}
    monkeypatch.chdir(tmp_path)

    assert main(command) == 1

    err = capsys.readouterr().err
    assert f"{DB_NAME} is missing, but {DB_NAME}-wal and {DB_NAME}-shm beside it" in err, err
    assert f"move {DB_NAME} back beside them" in err and err.count("\n") == 1
    after = {p.name: p.read_bytes() for p in sorted(data_dir.iterdir()) if p.is_file()}
    after.pop("vocabgame.lock", None)
    before.pop("vocabgame.lock", None)
    assert after == before  # no new database, the log as it was


def test_moving_the_database_back_finds_every_answer(data_dir: Path, tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    moved_without_its_log(data_dir, elsewhere)
    with pytest.raises(Exception, match="is missing, but"):
        Store.open(data_dir / DB_NAME)
    (elsewhere / DB_NAME).rename(data_dir / DB_NAME)
    with Store.open(data_dir / DB_NAME) as store:
        assert [store.preferences.get(f"answer {n}") for n in range(6)] == list(range(6))


def test_a_restore_killed_at_its_final_rename_leaves_the_old_store_whole(
    data_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A game killed left answers in the -wal; a restore then removes the -wal and renames the
    copy over the store. Killed between the two, the store must still hold those answers: the
    restore writes the log into the store first."""
    from vocabgame import backup

    crashed = tmp_path / "crashed"
    crashed.mkdir()
    moved_without_its_log(crashed, crashed)  # a store and the -wal a killed game left
    assert (crashed / f"{DB_NAME}-wal").stat().st_size > 0
    data_dir.mkdir(parents=True, exist_ok=True)
    for p in crashed.iterdir():
        (data_dir / p.name).write_bytes(p.read_bytes())
    source = tmp_path / "backup.db"
    Store.open(source).close()
    real_replace = backup.os.replace

    def killed(src: object, dst: object) -> None:
        if str(dst).endswith(DB_NAME) and ".restoring" in str(src):
            raise SystemExit("killed")  # the process ends here, before the rename
        real_replace(src, dst)  # type: ignore[arg-type]

    monkeypatch.setattr(backup.os, "replace", killed)
    with pytest.raises(SystemExit):
        backup.restore(data_dir, source, datetime(2026, 12, 3, tzinfo=UTC), UTC)
    monkeypatch.setattr(backup.os, "replace", real_replace)
    with Store.open(data_dir / DB_NAME) as store:
        assert [store.preferences.get(f"answer {n}") for n in range(6)] == list(range(6))


# -- a data folder that cannot be written -------------------------------------------------------


@pytest.fixture
def read_only_folder(data_dir: Path) -> Iterator[Path]:
    """A data folder holding a store with progress, that nothing can be created in: mode 555
    for a player who is not root; for root, which permissions do not stop, the immutable
    attribute (skipped where the file system cannot set it)."""
    session = open_session(data_dir, [DECKS], clock=lambda: NOW, tz=UTC)
    try:
        round_ = session.start_round(None, size=3, seed=1)
        assert round_ is not None
        answer_right(round_)
        round_.advance()
    finally:
        session.close()
    for p in data_dir.iterdir():  # what a first day leaves beside the store: lock, cache
        if p.is_dir():
            shutil.rmtree(p)
    as_root = hasattr(os, "geteuid") and os.geteuid() == 0
    if as_root:
        done = subprocess.run(["chattr", "+i", str(data_dir)], capture_output=True, check=False)
        if done.returncode != 0:
            pytest.skip("root, and chattr +i is not available here")
    else:
        data_dir.chmod(0o555)
    try:
        yield data_dir
    finally:
        if as_root:
            subprocess.run(["chattr", "-i", str(data_dir)], check=True)
        else:
            data_dir.chmod(0o755)


def test_a_read_only_folder_opens_for_reading_and_play_goes_on_unsaved(
    read_only_folder: Path,
) -> None:
    before = {p.name: p.read_bytes() for p in read_only_folder.iterdir()}
    session = open_session(read_only_folder, [DECKS], clock=lambda: NOW, tz=UTC)
    try:
        assert session.not_saving is not None and "read-only" in session.not_saving
        assert not any("backup" in n for n in session.notices)  # said once, by the store
        assert session.store.answers.count() == 1  # what was played before is all there
        round_ = session.start_round(None, size=3, seed=2)
        assert round_ is not None
        for _ in range(2):
            answer_right(round_)
            round_.advance()
        assert round_.undo() is not None
        round_.finish()
    finally:
        session.close()
    assert {p.name: p.read_bytes() for p in read_only_folder.iterdir()} == before


def test_stats_read_a_read_only_folder(
    read_only_folder: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["--decks", str(DECKS), "stats", "--json"]) == 0
    assert capsys.readouterr().err == ""


def test_a_read_only_folder_opens_read_only_where_it_cannot_be_made_for_real(
    data_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Root in CI without chattr: SQLite's refusal to make the -shm, stood in for."""
    from vocabgame.store import core

    data_dir.mkdir(parents=True, exist_ok=True)
    with Store.open(data_dir / DB_NAME) as store:
        store.preferences.set("round_size", 12)

    def cannot_make_the_shm(self: Store) -> None:
        raise sqlite3.OperationalError("unable to open database file")

    monkeypatch.setattr(core.Store, "prepare", cannot_make_the_shm)
    monkeypatch.setattr(core, "folder_writable", lambda folder: False)
    with Store.open(data_dir / DB_NAME) as store:
        assert store.read_only is not None
        assert store.preferences.get("round_size") == 12
        with pytest.raises(StoreError):
            store.preferences.set("round_size", 13)
