"""Progress files and the check, at a heavy player's history: `vocabgame export-progress`,
`import-progress` into an empty folder and `check`, each as a whole process with its wall time
and its peak memory (the process's own ru_maxrss, from `os.wait4`), against a baseline run the
same way in the same run:

- export: a plain streaming dump of the same rows to JSON lines (`dump` below);
- import: the export itself;
- check: SQLite's `PRAGMA integrity_check` and a replay of every scheduled answer through the
  scheduler in one batch (`replay` below).

    python -m benchmarks.files dump DB FILE
    python -m benchmarks.files replay DB
"""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import statistics
import subprocess
import sys
import time
from collections.abc import Sequence
from datetime import datetime
from itertools import groupby
from pathlib import Path
from typing import TYPE_CHECKING

from benchmarks.measure import ROOT, Row, child_env, python, vocabgame

if TYPE_CHECKING:  # figures lists this module's group: imported at run time, it would loop
    from benchmarks.figures import Context

MAX_MIB = 200.0


def measured(command: Sequence[str], ok: tuple[int, ...] = (0,)) -> tuple[float, float]:
    """Run one process to its end: its wall time in ms and its peak resident memory in MiB
    (its own, not its parent's nor earlier children's). Raises with its error output when it
    exits with a status not in `ok`."""
    start = time.perf_counter()
    child = subprocess.Popen(
        list(command),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        env=child_env(),
        cwd=ROOT,
    )
    assert child.stderr is not None
    errors = child.stderr.read()
    _, status, usage = os.wait4(child.pid, 0)
    elapsed = time.perf_counter() - start
    child.returncode = os.waitstatus_to_exitcode(status)
    child.stderr.close()
    if child.returncode not in ok:
        raise RuntimeError(
            f"{' '.join(command)} exited with {child.returncode}: "
            + errors.decode(errors="replace")[-2000:]
        )
    return elapsed * 1000, usage.ru_maxrss / 1024  # KiB on Linux


def _median_pair(
    ours: Sequence[str],
    base: Sequence[str],
    runs: int,
    budget: float,
    fresh: Path | None = None,
    warm: bool = True,
    ours_ok: tuple[int, ...] = (0,),
) -> tuple[float, float, float, float]:
    """Medians of time and the highest peak memory of `ours` and `base`, run in turn (after
    one untimed run of each, when `warm`). With `fresh`, that folder is emptied before each
    run of ours. `ours_ok`: the exit statuses that mean ours ran to its end."""

    def one(command: Sequence[str], mine: bool) -> tuple[float, float]:
        if mine and fresh is not None:
            shutil.rmtree(fresh, ignore_errors=True)
        return measured(command, ok=ours_ok if mine else (0,))

    if warm:
        one(ours, True)
        one(base, False)
    times: tuple[list[float], list[float]] = ([], [])
    peaks: tuple[list[float], list[float]] = ([], [])
    started = time.perf_counter()
    for n in range(runs):
        for side in (0, 1) if n % 2 == 0 else (1, 0):
            ms, mib = one(ours if side == 0 else base, side == 0)
            times[side].append(ms)
            peaks[side].append(mib)
        if n >= 1 and time.perf_counter() - started > budget:
            break
    return (
        statistics.median(times[0]),
        statistics.median(times[1]),
        max(peaks[0]),
        max(peaks[1]),
    )


def _reviews(ctx: Context) -> int:
    """The answers of the history measured: the heavy one, or in a quick run the small one
    (the quick run is the test suite's, and must stay short)."""
    return ctx.scale.small_reviews if ctx.scale.quick else ctx.scale.history_reviews


def _checked_history(ctx: Context) -> Path:
    """The history after `check --fix`: its schedules follow from its answers (as a
    player's do), so `check` measures a sound store rather than its repairs. Kept with
    --scratch like the other inputs."""
    s, reviews = ctx.scale, _reviews(ctx)
    source = ctx.inputs.history(s.history_items, reviews)

    def make(path: Path) -> None:
        shutil.copyfile(source / "vocabgame.db", path / "vocabgame.db")
        measured([*vocabgame(), "--data-dir", str(path), "check", "--fix"], ok=(0, 1))
        shutil.rmtree(path / "backups", ignore_errors=True)

    return ctx.inputs._made(f"checked-history-{s.history_items}-{reviews}", make)


def progress_files(ctx: Context) -> list[Row]:
    from benchmarks.figures import count

    s, reviews = ctx.scale, _reviews(ctx)
    data = ctx.inputs.history(s.history_items, reviews)
    db = data / "vocabgame.db"
    file, plain = ctx.work / "progress.jsonl", ctx.work / "plain.jsonl"
    runs, warm = (1, False) if s.quick else (3, True)
    where = f"{count(s.history_items * 3)} faces, {count(reviews)} answers (process)"
    export = [*vocabgame(), "--data-dir", str(data), "export-progress", str(file), "--force"]
    dump = [python(), "-m", "benchmarks.files", "dump", str(db), str(plain)]
    exp_ms, dump_ms, exp_mib, dump_mib = _median_pair(export, dump, runs, 120, warm=warm)
    empty = ctx.work / "import-into"
    into = [*vocabgame(), "--data-dir", str(empty), "import-progress", str(file)]
    imp_ms, exp2_ms, imp_mib, _ = _median_pair(into, export, runs, 180, empty, warm)
    checked = _checked_history(ctx)
    check = [*vocabgame(), "--data-dir", str(checked), "check", "--json"]
    replay = [python(), "-m", "benchmarks.files", "replay", str(checked / "vocabgame.db")]
    # check exits 1 when it finds something: the sound store should give 0, but a finding is
    # still a whole run of the check
    chk_ms, rep_ms, chk_mib, rep_mib = _median_pair(
        check, replay, runs, 240, warm=warm, ours_ok=(0, 1)
    )
    shutil.rmtree(empty, ignore_errors=True)
    return [
        Row(
            "export-progress",
            f"vocabgame export-progress, {where}",
            exp_ms,
            "ms",
            dump_ms,
            "a plain streaming dump of the same rows to JSON lines",
            max_ratio=1.5,
        ),
        Row(
            "export-memory",
            f"peak memory of export-progress, {where}",
            exp_mib,
            "MiB",
            dump_mib,
            "the plain dump's",
            max_value=MAX_MIB,
        ),
        Row(
            "import-progress",
            f"vocabgame import-progress into an empty folder, {where}",
            imp_ms,
            "ms",
            exp2_ms,
            "export-progress of the same store",
            max_ratio=2.0,
        ),
        Row(
            "import-memory",
            f"peak memory of import-progress, {where}",
            imp_mib,
            "MiB",
            exp_mib,
            "export-progress's",
            max_value=MAX_MIB,
        ),
        Row(
            "check-command",
            f"vocabgame check --json, a sound store, {where}",
            chk_ms,
            "ms",
            rep_ms,
            "PRAGMA integrity_check + every scheduled answer replayed in one batch",
            max_ratio=3.0,
        ),
        Row(
            "check-memory",
            f"peak memory of check, {where}",
            chk_mib,
            "MiB",
            rep_mib,
            "the integrity check and replay's",
            max_value=MAX_MIB,
        ),
    ]


FIGURES = (
    ("export-progress", "export-progress at 1M answers vs a plain JSON-lines dump: <= 1.5x"),
    ("export-memory", "peak memory of that: <= 200 MiB"),
    ("import-progress", "import-progress of that file into an empty folder vs the export: <= 2x"),
    ("import-memory", "peak memory of that: <= 200 MiB"),
    ("check-command", "check at 1M answers vs integrity_check + a batch replay: <= 3x"),
    ("check-memory", "peak memory of that: <= 200 MiB"),
)


# -- the baselines, run as their own processes ----------------------------------------------------


def dump(db: Path, out: Path) -> None:
    """Every row of the tables a progress file holds, as a JSON list per line."""
    from vocabgame.store.rows import ROWS

    encode = json.JSONEncoder(ensure_ascii=False, check_circular=False).encode
    conn = sqlite3.connect(db)
    with out.open("w", encoding="utf-8") as f:
        for kind in ROWS:
            f.writelines(encode(row) + "\n" for row in conn.execute(kind.select()))
    conn.close()


def replay(db: Path) -> None:
    """SQLite's integrity check, then every face's scheduled answers through the scheduler."""
    from vocabgame.srs import Srs

    srs = Srs()
    conn = sqlite3.connect(db)
    assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    rows = conn.execute(
        "SELECT deck_id, item_id, face, id, reviewed_at, rating FROM reviews"
        " WHERE scheduled = 1 ORDER BY deck_id, item_id, face, id"
    )
    for _, answers in groupby(rows, key=lambda r: r[:3]):
        card = None
        for *_, at, rating in answers:
            moment = datetime.fromisoformat(at)
            card = srs.review(card or Srs.new_card(1, moment), rating, moment)
    conn.close()


if __name__ == "__main__":
    match sys.argv[1:]:
        case ["dump", db, out]:
            dump(Path(db), Path(out))
        case ["replay", db]:
            replay(Path(db))
        case _:
            sys.exit(__doc__)
