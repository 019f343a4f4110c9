"""What a restore accepts: only a vocabgame store (`vocabgame.store.verify.store_problem`).

Each case of tests/data/hostile/restore/*.sql is built into a database in tmp_path and
restored over a data folder holding a real store: it is refused in one sentence, and every file
of the data folder stays byte for byte as it was. A case's leading comment lines say how it is
built: `-- base: store` starts from a real store (tests/data/store-before-the-package.db),
`-- base: v1` from a store after the first migration only, otherwise from nothing; then the
script runs; `-- raw-text:`, `-- raw-random: N` and `-- raw-header: N` write the file's bytes
instead; `-- truncate: N` and `-- scribble: PAGE` damage the built file; `-- expect:` is a part
of the sentence the refusal must hold.
"""

from __future__ import annotations

import random
import shutil
import sqlite3
from datetime import UTC, datetime
from pathlib import Path

import pytest

from vocabgame import backup
from vocabgame.cli import main
from vocabgame.store import DB_NAME, MIGRATIONS, SCHEMA_VERSION, Store
from vocabgame.store.schema import statements
from vocabgame.store.verify import expected, schema_problems, store_problem

from .conftest import DATA

CASES = sorted((DATA / "hostile" / "restore").glob("*.sql"))
REAL = DATA / "store-before-the-package.db"
NOW = datetime(2026, 12, 3, 9, 0, tzinfo=UTC)


def directives(text: str) -> dict[str, str]:
    found = {}
    for line in text.splitlines():
        if line.startswith("-- ") and ":" in line:
            key, _, value = line[3:].partition(":")
            if key.strip().replace("-", "").isalnum():
                found[key.strip()] = value.strip()
    return found


def copy_store(source: Path, dest: Path) -> None:
    """A self-contained copy of a store (no -wal beside it)."""
    src = sqlite3.connect(f"{source.resolve().as_uri()}?mode=ro", uri=True)
    target = sqlite3.connect(dest, isolation_level=None)
    try:
        src.backup(target)
        target.execute("PRAGMA journal_mode=DELETE")
    finally:
        src.close()
        target.close()


def migrated(dest: Path, version: int) -> None:
    conn = sqlite3.connect(dest, isolation_level=None)
    try:
        conn.execute("PRAGMA synchronous=OFF")  # a test file: no need to wait for the disk
        for number in range(version):
            for statement in statements(MIGRATIONS[number]):
                conn.execute(statement)
        conn.execute(f"PRAGMA user_version = {version}")
    finally:
        conn.close()


def build(case: Path, dest: Path) -> tuple[Path, str]:
    """The case's database at `dest`, and the words its refusal must hold."""
    text = case.read_text(encoding="utf-8")
    d = directives(text)
    rng = random.Random(case.stem)
    if "raw-text" in d:
        dest.write_text(d["raw-text"] + "\n")
    elif "raw-random" in d:
        dest.write_bytes(rng.randbytes(int(d["raw-random"])))
    elif "raw-header" in d:
        dest.write_bytes(b"SQLite format 3\x00" + rng.randbytes(int(d["raw-header"])))
    else:
        if d.get("base") == "store":
            copy_store(REAL, dest)
        elif d.get("base") == "v1":
            migrated(dest, 1)
        conn = sqlite3.connect(dest, isolation_level=None)
        try:
            conn.executescript(text)
        finally:
            conn.close()
    if "truncate" in d:
        with open(dest, "rb+") as handle:
            handle.truncate(int(d["truncate"]))
    if "scribble" in d:
        page = int(d["scribble"])
        with open(dest, "rb+") as handle:
            handle.seek((page - 1) * 4096)
            handle.write(rng.randbytes(4096))
    return dest, d["expect"]


def snapshot(folder: Path) -> dict[str, bytes]:
    """Every file under the folder, byte for byte."""
    return {
        str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()
    }


@pytest.fixture(scope="module")
def real_store_files(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A real store, opened once (migrated, in WAL mode) and closed: made once, copied."""
    folder = tmp_path_factory.mktemp("real-store")
    copy_store(REAL, folder / DB_NAME)
    Store.open(folder / DB_NAME).close()
    return folder


@pytest.fixture
def real_store(data_dir: Path, real_store_files: Path) -> Path:
    """A data folder holding a copy of that real store."""
    data_dir.mkdir(parents=True, exist_ok=True)
    for path in real_store_files.iterdir():
        shutil.copy(path, data_dir / path.name)
    (data_dir / backup.LOCK_NAME).touch()  # any vocabgame makes it; only it may change
    return data_dir


def test_the_corpus_has_every_kind_of_case() -> None:
    assert len(CASES) >= 30
    for case in CASES:
        assert "expect" in directives(case.read_text(encoding="utf-8")), case.name


@pytest.mark.parametrize("case", CASES, ids=lambda p: p.stem)
def test_restore_refuses_each_hostile_database_in_one_sentence_and_changes_nothing(
    case: Path, real_store: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    hostile, words = build(case, tmp_path / f"{case.stem}.db")
    before = snapshot(real_store)

    assert main(["restore", "--yes", str(hostile)]) == 1

    out, err = capsys.readouterr()
    assert out == ""
    assert err.startswith(f"vocabgame: {hostile} is not a vocabgame store: "), err
    assert err.endswith("; nothing was restored.\n") and err.count("\n") == 1, err
    assert words in err, err
    assert snapshot(real_store) == before


@pytest.mark.parametrize("case", CASES, ids=lambda p: p.stem)
def test_restore_itself_checks_the_copy_it_would_put_in_place(
    case: Path, real_store: Path, tmp_path: Path
) -> None:
    """Not only the command's question: `restore` refuses too, and leaves no temporary file."""
    hostile, _ = build(case, tmp_path / f"{case.stem}.db")
    before = snapshot(real_store)
    with pytest.raises(backup.BackupError, match="nothing was restored"):
        backup.restore(real_store, hostile, NOW, UTC)
    assert snapshot(real_store) == before


def test_a_real_store_of_each_known_version_is_accepted(tmp_path: Path) -> None:
    for version in range(1, SCHEMA_VERSION + 1):
        path = tmp_path / f"v{version}.db"
        migrated(path, version)
        assert store_problem(path) is None, version
    path = tmp_path / "played.db"
    copy_store(REAL, path)
    assert store_problem(path) is None


def test_restoring_an_older_store_brings_it_up_to_date(real_store: Path, tmp_path: Path) -> None:
    old = tmp_path / "v6.db"
    migrated(old, 6)
    assert main(["restore", "--yes", str(old)]) == 0
    with Store.open(real_store / DB_NAME) as store:
        assert store.schema_version() == SCHEMA_VERSION
        assert schema_problems(store.conn, SCHEMA_VERSION) == []


def test_the_store_vocabgame_creates_is_exactly_what_it_expects(tmp_path: Path) -> None:
    with Store.open(tmp_path / DB_NAME) as store:
        assert schema_problems(store.conn, SCHEMA_VERSION) == []
    assert len(expected(SCHEMA_VERSION)) > 40


def test_a_store_in_wal_mode_with_its_log_is_accepted(tmp_path: Path) -> None:
    folder = tmp_path / "other"
    folder.mkdir()
    shutil.copy(REAL, folder / DB_NAME)
    with Store.open(folder / DB_NAME) as store:
        store.preferences  # noqa: B018  (opened: the -wal is there)
        assert store_problem(folder / DB_NAME) is None


# -- vocabgame check reports what a restore refuses -----------------------------------------------


def _add_trigger(db: Path) -> None:
    conn = sqlite3.connect(db, isolation_level=None)
    try:
        conn.execute(
            "CREATE TRIGGER keep_one AFTER INSERT ON reviews BEGIN"
            " DELETE FROM reviews WHERE id != NEW.id; END"
        )
        conn.execute("CREATE VIEW everything AS SELECT * FROM reviews")
        conn.execute("CREATE TABLE notes (x)")
    finally:
        conn.close()


def test_check_reports_foreign_objects_and_fix_drops_the_trigger_and_view(
    real_store: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _add_trigger(real_store / DB_NAME)

    assert main(["check"]) == 1
    out = capsys.readouterr().out
    assert "schema: the database holds a trigger 'keep_one' that vocabgame does not create" in out
    assert "view 'everything'" in out and "table 'notes'" in out
    assert "2 can be repaired with: vocabgame check --fix" in out

    assert main(["check", "--fix"]) == 1  # the foreign table stays, said so
    out = capsys.readouterr().out
    assert "then repaired 2; 1 remain" in out
    with Store.open(real_store / DB_NAME) as store:
        names = {p.found.name for p in schema_problems(store.conn, SCHEMA_VERSION) if p.found}
    assert names == {"notes"}


def test_check_reports_a_missing_table_instead_of_failing_on_it(
    real_store: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    conn = sqlite3.connect(real_store / DB_NAME, isolation_level=None)
    conn.execute("DROP TABLE learned_days")
    conn.close()
    assert main(["check"]) == 1
    captured = capsys.readouterr()
    assert "schema: the database holds no table 'learned_days', which vocabgame creates" in (
        captured.out
    )
    assert captured.err == ""
