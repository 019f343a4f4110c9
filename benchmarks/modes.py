"""How long each mode takes to plan a round, and the stats screen to gather its figures, on a
heavy history: for information, no targets (the benchmark runner's `plan` figure is the
daily round's).

    python -m benchmarks.modes [--quick | --smoke] [--scratch DIR] [--runs N]

It opens the generated store of `python -m benchmarks` (100k faces and a million answers;
--quick: 3,000 faces and 100k answers) and prints, for each piece of work, the median and
the slowest of N runs (default 5) in milliseconds, with what the work returned.
"""

from __future__ import annotations

import argparse
import gc
import statistics
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from benchmarks.figures import SMOKE
from benchmarks.plans import heavy_session
from vocabgame.play import MODES


def work(session: Any) -> list[tuple[str, Callable[[], str]]]:
    def plan(mode: str) -> Callable[[], str]:
        def run() -> str:
            keys, played = session.plan(None, 20, mode)
            return f"{len(keys)} faces, played as {played}"

        return run

    def stats_screen() -> str:
        return f"{session.insights().figures.seen:,} faces seen"

    # every registered mode (the drill plans in its runner, so its plan here is empty)
    plans = [(f"plan a round of 20: {m}", plan(m)) for m in MODES]
    return [*plans, ("stats screen", stats_screen)]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.modes", description=__doc__)
    parser.add_argument("--quick", action="store_true", help="a smaller store (100k answers)")
    parser.add_argument(
        "--smoke", action="store_true", help="the smallest store (600 faces, 10k answers)"
    )
    parser.add_argument("--scratch", type=Path, help="where generated inputs are kept")
    parser.add_argument("--runs", type=int, default=5, help="runs of each piece of work")
    args = parser.parse_args(argv)
    if args.runs < 1:
        parser.error("--runs should be at least 1")

    with heavy_session(SMOKE if args.smoke else args.quick, args.scratch) as session:
        gc.collect()
        gc.freeze()  # as the game freezes what its start-up built
        try:
            print(f"{'work':<36} {'median':>10} {'slowest':>10}  result")
            for name, run in work(session):
                times, result = [], ""
                for _ in range(args.runs):
                    started = time.perf_counter()
                    result = run()
                    times.append((time.perf_counter() - started) * 1000)
                print(
                    f"{name:<36} {statistics.median(times):>7.1f} ms {max(times):>7.1f} ms  {result}"
                )
        finally:
            gc.unfreeze()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
