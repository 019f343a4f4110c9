"""A data folder from before the store became a package (tests/store_compat.py made it by
playing) opens with the code as it is, and `vocabgame stats --json` and `vocabgame
export-progress` read from it exactly what they read then: the stored data kept its meaning."""

from __future__ import annotations

import json
import shutil
import sqlite3
from pathlib import Path

from vocabgame.store import DB_NAME, SCHEMA_VERSION, Store

from .store_compat import DB, EXPORT, STATS, exported, stats_json


def copied(tmp_path: Path) -> Path:
    data_dir = tmp_path / "data"
    data_dir.mkdir()
    shutil.copyfile(DB, data_dir / DB_NAME)
    return data_dir


def test_the_old_store_opens_at_the_schema_of_today(tmp_path: Path) -> None:
    data_dir = copied(tmp_path)
    conn = sqlite3.connect(data_dir / DB_NAME)
    try:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == 10
    finally:
        conn.close()
    Store.open(data_dir / DB_NAME).close()  # opening migrates
    conn = sqlite3.connect(data_dir / DB_NAME)
    try:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    finally:
        conn.close()


def kept(then: object, now: object, where: str = "") -> None:
    """Every figure of `then` is in `now` with the same value: figures added since are allowed,
    one that changed or went away is not."""
    if isinstance(then, dict):
        assert isinstance(now, dict), where
        for key, value in then.items():
            assert key in now, f"{where}.{key} went away"
            kept(value, now[key], f"{where}.{key}")
    elif isinstance(then, list):
        assert isinstance(now, list) and len(now) == len(then), where
        for n, (a, b) in enumerate(zip(then, now, strict=True)):
            kept(a, b, f"{where}[{n}]")
    else:
        assert now == then, where


def test_stats_json_reads_the_same_figures(tmp_path: Path) -> None:
    kept(json.loads(STATS.read_text("utf-8")), stats_json(copied(tmp_path)))


# Fields answers gained since the golden file was written: null for every answer given then.
ADDED_TO_ANSWERS = ("confidence",)


def without_added(data: dict[str, object]) -> dict[str, object]:
    """`data` with the fields added since taken out of its answers, each checked null."""
    reviews = data["reviews"]
    assert isinstance(reviews, list)
    for review in reviews:
        for name in ADDED_TO_ANSWERS:
            assert review.pop(name) is None
    return data


def test_export_progress_writes_the_same_file(tmp_path: Path) -> None:
    """The same rows as then; only the versions differ (the file's 2: one row per line; the
    store's schema), and the answers have the fields added since, null."""
    from vocabgame.progress import VERSION

    data = without_added(exported(copied(tmp_path), tmp_path / "progress.json"))
    golden = json.loads(EXPORT.read_text("utf-8"))
    assert golden["version"] == 1 and data["version"] == VERSION == 2
    assert data.pop("schema") == SCHEMA_VERSION and golden.pop("schema") == 10
    assert data | {"version": 1} == golden
    assert data["reviews"] and data["cards"] and data["flags"] and data["renames"]


def test_the_file_exported_then_still_imports_and_exports_again_the_same(tmp_path: Path) -> None:
    """A version 1 file (one JSON document) imports into an empty folder, and what that
    folder exports holds the same rows."""
    from .store_compat import _run

    empty = tmp_path / "empty"
    _run(["import-progress", str(EXPORT), "--data-dir", str(empty)])
    again = without_added(exported(empty, tmp_path / "again.json"))
    golden = json.loads(EXPORT.read_text("utf-8"))
    assert again.pop("schema") == SCHEMA_VERSION and golden.pop("schema") == 10
    assert again | {"version": 1} == golden
