"""A data folder from before the store became a package (tests/store_compat.py made it by
playing) opens with the code as it is, and `vocabgame stats --json` and `vocabgame
export-progress` read from it exactly what they read then: the stored data kept its meaning."""

from __future__ import annotations

import json
import shutil
import sqlite3
from pathlib import Path

from vocabgame.store import DB_NAME, SCHEMA_VERSION

from .store_compat import DB, EXPORT, STATS, exported, stats_json


def copied(tmp_path: Path) -> Path:
    data_dir = tmp_path / "data"
    data_dir.mkdir()
    shutil.copyfile(DB, data_dir / DB_NAME)
    return data_dir


def test_the_old_store_has_the_schema_of_today(tmp_path: Path) -> None:
    conn = sqlite3.connect(copied(tmp_path) / DB_NAME)
    try:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION == 10
    finally:
        conn.close()


# Keys `stats --json` gained after the old store's figures were written down: new figures, not
# a new reading of the old ones.
ADDED_SINCE = ("topics",)


def test_stats_json_reads_the_same_figures(tmp_path: Path) -> None:
    now = {
        scope: {k: v for k, v in out.items() if k not in ADDED_SINCE}  # type: ignore[union-attr]
        for scope, out in stats_json(copied(tmp_path)).items()
    }
    assert now == json.loads(STATS.read_text("utf-8"))


def test_export_progress_writes_the_same_file(tmp_path: Path) -> None:
    data = exported(copied(tmp_path), tmp_path / "progress.json")
    assert data == json.loads(EXPORT.read_text("utf-8"))
    assert data["reviews"] and data["cards"] and data["flags"] and data["renames"]
