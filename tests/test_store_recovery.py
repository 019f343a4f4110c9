"""A store that was left half way: a first start or an upgrade stopped by a full disk (check
migrates it, or says why not), a database moved away without its `-wal` (nothing is created
over the log), a connection left in a transaction by a failed BEGIN or ROLLBACK (reset), and
the temporary files a killed backup or restore left (removed at the next backup)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from vocabgame import check as check_module
from vocabgame.cli import main
from vocabgame.store import DB_NAME, MIGRATIONS, SCHEMA_VERSION, Store, StoreFull
from vocabgame.store.schema import statements


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
