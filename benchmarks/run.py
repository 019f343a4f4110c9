"""Speed benchmarks, each measured against a baseline in the same run.

Machines are shared and noisy, so no number here is a pass/fail threshold: each result is
reported next to a baseline that does the smallest comparable work on the same machine at the
same moment, and the ratio is what to watch.

    python benchmarks/run.py            # all benchmarks
    python benchmarks/run.py --quick    # fewer repetitions
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from vocabgame.deck import deck_files, load_catalog  # noqa: E402
from vocabgame.paths import builtin_decks_dir  # noqa: E402
from vocabgame.play import Session  # noqa: E402
from vocabgame.store import Store  # noqa: E402


def best_of(repeat: int, fn: Callable[[], object]) -> float:
    """The median of `repeat` timings, in seconds."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def report(name: str, measured: float, baseline: float, baseline_name: str) -> None:
    print(
        f"{name:<44} {measured * 1000:9.2f} ms   {baseline_name:<32} {baseline * 1000:9.2f} ms   x{measured / baseline:6.2f}"
    )


def bench_deck_loading(repeat: int) -> None:
    folder = builtin_decks_dir()
    files = deck_files([folder])
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    baseline = best_of(
        repeat, lambda: [yaml.load(f.read_text(encoding="utf-8"), Loader=loader) for f in files]
    )
    measured = best_of(repeat, lambda: load_catalog([folder]))
    report("load + validate all built-in decks", measured, baseline, "PyYAML safe load only")


def bench_cli_start(repeat: int) -> None:
    def run(code: str) -> Callable[[], object]:
        return lambda: subprocess.run([sys.executable, "-c", code], check=True)

    baseline = best_of(repeat, run("pass"))
    measured = best_of(repeat, run("import vocabgame.cli, vocabgame.deck"))
    report("start a non-game command (imports)", measured, baseline, "python -c pass")


def bench_app(repeat: int) -> None:
    from textual.app import App
    from textual.widgets import Static

    from vocabgame.ui.app import VocabApp

    class Bare(App[None]):
        def compose(self):  # type: ignore[no-untyped-def]
            yield Static("hello")

    catalog = load_catalog([builtin_decks_dir()])
    clock = lambda: datetime(2026, 11, 30, 12, tzinfo=UTC)  # noqa: E731

    async def start_bare() -> None:
        async with Bare().run_test(size=(80, 24)) as pilot:
            await pilot.pause()

    async def start_game() -> None:
        with tempfile.TemporaryDirectory() as tmp:
            session = Session(Store.open(Path(tmp) / "v.db"), catalog, clock=clock)
            async with VocabApp(session).run_test(size=(80, 24)) as pilot:
                await pilot.pause()
            session.close()

    baseline = best_of(repeat, lambda: asyncio.run(start_bare()))
    measured = best_of(repeat, lambda: asyncio.run(start_game()))
    report("open the game to the home screen", measured, baseline, "bare Textual app, one Static")

    # Reacting to a key: answer a question and show the feedback, against a key that only
    # moves the highlight in the choice list.
    async def keys(kind: str) -> float:
        with tempfile.TemporaryDirectory() as tmp:
            session = Session(Store.open(Path(tmp) / "v.db"), catalog, clock=clock)
            app = VocabApp(session, start_round=True, seed=1, size=200)
            times: list[float] = []
            async with app.run_test(size=(80, 24)) as pilot:
                await pilot.pause()
                for _ in range(repeat):
                    screen = app.screen
                    question = screen.round.question()
                    while question.kind != "choice":
                        screen.round.answer_recall(
                            3
                        ) if question.kind == "recall" else screen.round.answer_text("1")
                        screen.round.advance()
                        screen.show_question()
                        question = screen.round.question()
                    start = time.perf_counter()
                    await pilot.press("down" if kind == "move" else "1")
                    await pilot.pause()
                    times.append(time.perf_counter() - start)
                    if kind != "move":
                        await pilot.press("enter")
                        await pilot.pause()
            session.close()
            return statistics.median(times)

    baseline = asyncio.run(keys("move"))
    measured = asyncio.run(keys("answer"))
    report("answer a question: save + feedback", measured, baseline, "move the highlight (↓)")


def bench_answer_commit(repeat: int) -> None:
    """One answer saved (review, card, round totals, commit) with synchronous=FULL, the
    store's setting, against the same with NORMAL, which can lose the last answers on a
    power loss."""

    def per_answer(synchronous: str) -> float:
        with tempfile.TemporaryDirectory() as folder:
            store = Store.open(Path(folder) / "vocabgame.db")
            store.conn.execute(f"PRAGMA synchronous={synchronous}")
            session = Session(store, load_catalog([builtin_decks_dir()]), fuzz=False)
            round_ = session.start_round(None, size=20, seed=1)
            assert round_ is not None
            times = []
            for _ in range(20 * repeat):
                question = round_.question()
                if question is None:
                    round_ = session.start_round(None, size=20, seed=len(times))
                    assert round_ is not None
                    question = round_.question()
                assert question is not None
                start = time.perf_counter()
                if question.choices:
                    round_.answer_choice(0)
                elif question.kind == "recall":
                    round_.answer_recall(3)
                else:
                    round_.answer_text("1")
                times.append(time.perf_counter() - start)
                round_.advance()
            session.close()
            return statistics.median(times)

    baseline = per_answer("NORMAL")
    measured = per_answer("FULL")
    report("record an answer, commit (synchronous=FULL)", measured, baseline, "the same, NORMAL")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer repetitions")
    args = parser.parse_args()
    repeat = 3 if args.quick else 10
    print(f"{'benchmark':<44} {'measured':>12}   {'baseline':<32} {'':>12}   ratio")
    bench_deck_loading(repeat)
    bench_cli_start(repeat)
    bench_app(repeat)
    bench_answer_commit(repeat)


if __name__ == "__main__":
    main()
