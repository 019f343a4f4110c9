"""Rows of the results table, and the ways they are timed: medians of repeated runs in the
process, and whole processes run in turn against their baseline."""

from __future__ import annotations

import math
import os
import statistics
import subprocess
import sys
import sysconfig
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


@dataclass
class Row:
    """One figure: vocabgame's value, its same-run baseline, and the target it must meet.

    A row with `max_value` and `max_ratio` checks both; one with neither is for information.
    `must_hold` rows are yes/no checks (value 1 for yes, 0 for no)."""

    id: str  # stable, for --only and the JSON
    name: str  # what was measured, with the sizes used in this run
    value: float
    unit: str  # "ms", "MiB" or "yes/no"
    baseline: float | None = None
    baseline_name: str = ""
    max_value: float | None = None
    max_ratio: float | None = None
    must_hold: bool = False
    error: str | None = None  # the measurement itself failed; the value is NaN

    @property
    def ratio(self) -> float | None:
        if self.baseline is None or not self.baseline or math.isnan(self.value):
            return None
        return self.value / self.baseline

    @property
    def target(self) -> str:
        parts = []
        if self.must_hold:
            parts.append("yes")
        if self.max_value is not None:
            parts.append(f"<= {self.max_value:g} {self.unit}")
        if self.max_ratio is not None:
            parts.append(f"<= {self.max_ratio:g}x")
        return " and ".join(parts) or "info"

    @property
    def passed(self) -> bool | None:
        """None for a row that only informs."""
        if self.error is not None:
            return False
        if not (self.must_hold or self.max_value is not None or self.max_ratio is not None):
            return None
        ok = True
        if self.must_hold:
            ok = ok and self.value == 1
        if self.max_value is not None:
            ok = ok and self.value <= self.max_value
        if self.max_ratio is not None:
            ratio = self.ratio
            ok = ok and ratio is not None and ratio <= self.max_ratio
        return ok

    def as_json(self) -> dict[str, object]:
        def number(x: float | None) -> float | None:
            return None if x is None or math.isnan(x) else round(x, 6)

        return {
            "id": self.id,
            "name": self.name,
            "value": number(self.value),
            "baseline": number(self.baseline),
            "baseline_name": self.baseline_name,
            "ratio": number(self.ratio),
            "unit": self.unit,
            "target": self.target,
            "max_value": self.max_value,
            "max_ratio": self.max_ratio,
            "passed": self.passed,
            "error": self.error,
        }


def median_time(
    fn: Callable[[], object], runs: int, budget: float = 20.0, min_runs: int = 3
) -> float:
    """The median of up to `runs` timings of `fn`, in milliseconds. Slow work stops after
    `budget` seconds once `min_runs` are in, so a slow figure does not hold the run up."""
    times: list[float] = []
    started = time.perf_counter()
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
        if len(times) >= min(min_runs, runs) and time.perf_counter() - started > budget:
            break
    return statistics.median(times) * 1000


def child_env() -> dict[str, str]:
    """The environment for the processes timed: the repository importable, none of the
    player's own deck or data folders, and bytecode caches allowed (an installed vocabgame
    runs from the ones pip compiles; without them every start compiles every module)."""
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith("VOCABGAME_") and k != "PYTHONDONTWRITEBYTECODE"
    }
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT), env.get("PYTHONPATH", "")) if p)
    return env


def run_process(command: Sequence[str], timeout: float | None = None) -> float:
    """Run one process to its end; its wall time in milliseconds. Raises with its error
    output when it fails (and subprocess.TimeoutExpired after `timeout` seconds)."""
    start = time.perf_counter()
    done = subprocess.run(
        list(command),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        env=child_env(),
        cwd=ROOT,
        check=False,
        timeout=timeout,
    )
    elapsed = time.perf_counter() - start
    if done.returncode != 0:
        raise RuntimeError(
            f"{' '.join(command)} exited with {done.returncode}: "
            + done.stderr.decode(errors="replace")[-2000:]
        )
    return elapsed * 1000


def compare_processes(
    measured: Sequence[str],
    baseline: Sequence[str],
    runs: int,
    budget: float = 60.0,
    warm: bool = True,
) -> tuple[float, float]:
    """Medians (ms) of `measured` and `baseline` as whole processes, run in turn (after one
    untimed run of each, which also makes the day's backup and warms the file cache; none
    when not `warm`, as the smoke run, whose numbers mean nothing)."""
    if warm:
        run_process(measured)
        run_process(baseline)
    ours: list[float] = []
    theirs: list[float] = []
    started = time.perf_counter()
    for n in range(runs):
        # Alternate which goes first, so neither always follows the other.
        if n % 2:
            theirs.append(run_process(baseline))
            ours.append(run_process(measured))
        else:
            ours.append(run_process(measured))
            theirs.append(run_process(baseline))
        if n >= 2 and time.perf_counter() - started > budget:
            break
    return statistics.median(ours), statistics.median(theirs)


def python() -> str:
    return sys.executable


def vocabgame() -> list[str]:
    """The `vocabgame` command as a player runs it: the script pip installed beside this
    Python (it imports `vocabgame.cli` and calls `main`, the code of this checkout through
    PYTHONPATH), or `python -m vocabgame` where there is none. (`-m` also loads runpy, which
    the command does not.)"""
    script = Path(sysconfig.get_path("scripts")) / (
        "vocabgame.exe" if os.name == "nt" else "vocabgame"
    )
    return [str(script)] if script.is_file() else [python(), "-m", "vocabgame"]
