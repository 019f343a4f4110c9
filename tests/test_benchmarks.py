"""The benchmark runner keeps working: a smoke run measures every figure and writes them all.

Only that the numbers are there is checked, never what they are: times depend on the machine
and on what else it runs (see README, Development)."""

from __future__ import annotations

import json
import math
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from benchmarks.figures import OPTIONAL_IDS, ROW_IDS

ROOT = Path(__file__).resolve().parents[1]


def test_smoke_run_measures_every_figure_and_writes_them_as_json(tmp_path: Path) -> None:
    out = tmp_path / "bench.json"
    env = {**os.environ, "TMPDIR": str(tmp_path)}  # its temporary folders go under tmp_path
    done = subprocess.run(
        [sys.executable, "-m", "benchmarks", "--smoke", "--json", str(out)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=240,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    report = json.loads(out.read_text(encoding="utf-8"))
    rows = {row["id"]: row for row in report["rows"]}
    assert sorted(rows) == sorted(set(ROW_IDS) - set(OPTIONAL_IDS))  # Anki's only with --only
    for row in rows.values():
        assert row["error"] is None, row
        assert isinstance(row["value"], int | float) and math.isfinite(row["value"]), row
        assert row["unit"] in ("ms", "MiB", "yes/no"), row
        assert row["target"], row
        assert row["passed"] in (True, False, None), row
        if row["baseline_name"]:
            assert row["baseline"] is not None and row["baseline"] > 0, row
            assert math.isclose(row["ratio"], row["value"] / row["baseline"], rel_tol=1e-3), row
    # every target of the table has its row, and only the extras merely inform
    informative = {row_id for row_id, row in rows.items() if row["passed"] is None}
    screens = [*(f"mode-{m}" for m in ("review", "cram", "interview")), "home", "results"]
    screens += ["stats", "lab", "browse", "settings"]
    assert informative == {
        "stats-data",
        "builtin-decks",
        "cli-start",
        "key-feedback-whole",
        "tab-memory",
        *(f"screen-{s}-first" for s in screens),
    }
    assert {"nproc", "python", "sqlite", "textual", "date"} <= set(report["machine"])
    assert report["quick"] is True and report["smoke"] is True
    # the table names each figure and marks it as measured on the smoke scale
    assert all(row["name"].endswith("[smoke]") for row in rows.values())
    assert "launch to the first painted home screen" in done.stdout
    assert "[smoke]" in done.stdout
    # nothing is left behind in the temporary folder but the report
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bench.json"]


def test_no_store_query_of_home_planning_or_stats_reads_every_answer(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """SQLite's own plan for each query, on a store of 10k answers (no store is analysed, so
    SQLite plans alike at any size): a full scan of the answers would grow with every answer
    a player ever gives."""
    from benchmarks import plans

    assert plans.main(["--smoke", "--scratch", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "## plan a round" in out and "## stats screen" in out
    assert out.rstrip().endswith("full scans of reviews: 0"), out


def test_the_modes_report_plans_every_mode_and_the_stats_screen(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from benchmarks import modes

    assert modes.main(["--smoke", "--scratch", str(tmp_path), "--runs", "1"]) == 0
    out = capsys.readouterr().out
    for mode in modes.MODES:
        assert f"plan a round of 20: {mode} " in out
    assert "20 faces, played as cram" in out
    assert re.search(r"\b[1-9]\d* faces, played as review", out)  # some faces are due
    assert "faces seen" in out.splitlines()[-1]


def test_the_triggers_report_times_an_answer_with_each_summary_dropped(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from benchmarks import triggers

    assert triggers.main(["--answers", "3", "--repeats", "1"]) == 0
    out = capsys.readouterr().out
    for name in (*triggers.GROUPS, "none kept"):
        assert f"  {name} " in out
    assert out.count(" ms less") == len(triggers.GROUPS)  # every configuration but all kept
