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
sys.path.insert(0, str(ROOT / "benchmarks"))

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
    from textual.widgets import DataTable, Static

    from vocabgame.ui.app import VocabApp

    class Bare(App[None]):
        """The baseline: a bare Textual app showing a table of a dozen rows."""

        def compose(self):  # type: ignore[no-untyped-def]
            yield Static("hello")
            yield DataTable()

        def on_mount(self) -> None:
            table = self.query_one(DataTable)
            table.add_columns("Deck", "Seen", "Due", "New", "Best")
            for n in range(12):
                table.add_row(f"Deck {n}", "0/100", "0", "20", "—")

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
    report("open the game to the home screen", measured, baseline, "bare Textual app, a DataTable")

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


# -- a heavy player's history (benchmarks/big.py) ------------------------------------------------


def _big(folder: Path, items: int, reviews: int, name: str) -> tuple[Path, Path]:
    """A generated deck of `items` terms (three faces each) and a store of `reviews` answers
    over its faces, made once per run under `folder`."""
    from big import generated_faces, write_deck, write_store  # type: ignore[import-not-found]

    decks, data = folder / name / "decks", folder / name / "data"
    if not decks.exists():
        write_deck(decks, items)
        if reviews:
            write_store(data, generated_faces(items), reviews)
        else:
            Store.open(data / "vocabgame.db").close()
    return decks, data


def bench_history(repeat: int, folder: Path) -> None:
    """Home data, a round's plan and the stats figures with 100k faces and a million answers,
    against the same deck with ten thousand answers."""
    clock = lambda: datetime(2026, 11, 30, 12, tzinfo=UTC)  # noqa: E731
    sessions = {}
    for name, reviews in (("10k", 10_000), ("1M", 1_000_000)):
        decks, data = _big(folder, 33_334, reviews, name)
        catalog = load_catalog([decks])
        sessions[name] = Session(Store.open(data / "vocabgame.db"), catalog, clock=clock)
        sessions[name].home()  # each deck's shape is worked out once per loaded deck
    for what, run in (
        ("home screen data", lambda s: s.home()),
        ("plan a round", lambda s: s.plan(None, 20)),
        ("stats figures", lambda s: s.stats()),
    ):
        small = best_of(repeat, lambda run=run: run(sessions["10k"]))  # type: ignore[misc]
        big = best_of(repeat, lambda run=run: run(sessions["1M"]))  # type: ignore[misc]
        report(f"{what}, 100k faces, 1M answers", big, small, "the same, 10k answers")
    for session in sessions.values():
        session.close()

    from vocabgame.ui.app import VocabApp

    async def launch(name: str) -> None:
        decks, data = _big(folder, 33_334, 0, name)
        session = Session(Store.open(data / "vocabgame.db"), load_catalog([decks]), clock=clock)
        async with VocabApp(session).run_test(size=(80, 24)) as pilot:
            await pilot.pause()
        session.close()

    _big(folder, 33_334, 1_000_000, "1M")
    _big(folder, 33_334, 0, "empty")  # made before the timing starts
    empty = best_of(max(1, repeat // 3), lambda: asyncio.run(launch("empty")))
    full = best_of(max(1, repeat // 3), lambda: asyncio.run(launch("1M")))
    report("open the game, 100k faces, 1M answers", full, empty, "the same deck, empty store")


def bench_stats_command(repeat: int, folder: Path) -> None:
    """`vocabgame stats --json`, the whole process, over the built-in decks with a million
    answers on their faces, against the same command on an empty store."""
    from big import write_store  # type: ignore[import-not-found]

    from vocabgame.kinds import faces

    full, empty = folder / "stats-full", folder / "stats-empty"
    if not full.exists():
        keys = [
            (k.deck_id, k.item_id, k.face)
            for deck in load_catalog([builtin_decks_dir()]).decks
            for k in faces(deck)
        ]
        write_store(full, keys, 1_000_000, deck_id=None)
        Store.open(empty / "vocabgame.db").close()

    def run(data: Path) -> Callable[[], object]:
        command = [sys.executable, "-m", "vocabgame", "--data-dir", str(data), "stats", "--json"]
        return lambda: subprocess.run(command, check=True, stdout=subprocess.DEVNULL)

    baseline = best_of(repeat, run(empty))
    measured = best_of(repeat, run(full))
    report("vocabgame stats --json, 1M answers", measured, baseline, "the same, empty store")


def bench_validate_command(repeat: int) -> None:
    """`vocabgame validate decks/`, the whole process, against a script that only parses the
    same files with PyYAML's C loader."""
    files = [str(f) for f in deck_files([builtin_decks_dir()])]
    parse_only = (
        "import sys, yaml\n"
        "for f in sys.argv[1:]:\n"
        "    yaml.load(open(f, encoding='utf-8').read(), Loader=yaml.CSafeLoader)\n"
    )
    baseline = best_of(
        repeat, lambda: subprocess.run([sys.executable, "-c", parse_only, *files], check=True)
    )
    measured = best_of(
        repeat,
        lambda: subprocess.run(
            [sys.executable, "-m", "vocabgame", "validate", str(builtin_decks_dir())],
            check=True,
            stdout=subprocess.DEVNULL,
        ),
    )
    report("vocabgame validate decks/ (process)", measured, baseline, "parse only, C loader")


def bench_generated_decks(repeat: int, folder: Path) -> None:
    """Load and validate decks of 1k, 10k and 50k items against parsing them with the C
    loader; peak memory against the parse alone."""
    import tracemalloc

    from big import deck_text  # type: ignore[import-not-found]

    from vocabgame.deck import load_text

    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    timings = {}
    for items in (1_000, 10_000, 50_000):
        text = deck_text(items)
        baseline = best_of(max(1, repeat // 3), lambda text=text: yaml.load(text, Loader=loader))  # type: ignore[misc]
        measured = best_of(max(1, repeat // 3), lambda text=text: load_text(text, "big.yaml"))  # type: ignore[misc]
        deck, problems = load_text(text, "big.yaml")
        assert deck is not None, problems[:3]
        timings[items] = measured
        report(f"load + validate {items:,} items", measured, baseline, "C loader parse")
        peaks = []
        parse_only = lambda text=text: yaml.load(text, Loader=loader)  # noqa: E731
        validate = lambda text=text: load_text(text, "big.yaml")  # noqa: E731
        for run in (parse_only, validate):
            tracemalloc.start()
            run()
            peaks.append(tracemalloc.get_traced_memory()[1])
            tracemalloc.stop()
        print(
            f"{'  peak memory':<44} {peaks[1] / 2**20:9.1f} MB   {'C loader parse':<32}"
            f" {peaks[0] / 2**20:9.1f} MB   x{peaks[1] / peaks[0]:6.2f}"
        )
    report("load + validate 50k items", timings[50_000], timings[10_000], "the same, 10k items")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer repetitions")
    parser.add_argument(
        "--scratch",
        default=str(Path(tempfile.gettempdir()) / "vocabgame-bench"),
        help="where generated decks and stores are kept between runs (they take a minute)",
    )
    args = parser.parse_args()
    repeat = 3 if args.quick else 10
    print(f"{'benchmark':<44} {'measured':>12}   {'baseline':<32} {'':>12}   ratio")
    bench_deck_loading(repeat)
    bench_cli_start(repeat)
    bench_app(repeat)
    bench_answer_commit(repeat)
    bench_validate_command(repeat)
    bench_generated_decks(repeat, Path(args.scratch))
    bench_history(repeat, Path(args.scratch))
    bench_stats_command(repeat, Path(args.scratch))


if __name__ == "__main__":
    main()
