"""The figures of the speed targets, each measured against a baseline taken in the same run.

Each group below yields the rows of one or more targets; `GROUPS` lists them in the order the
table shows them. Sizes come from a `Scale`: the full one is the targets' own (100k faces and
1M answers, decks of 1k, 10k and 50k items), the quick one is smaller and each row says so.
"""

from __future__ import annotations

import asyncio
import gc
import re
import shutil
import statistics
import subprocess
import time
import tracemalloc
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from functools import partial
from pathlib import Path
from typing import Any

import yaml

from benchmarks import anki, big, fitting, lab_load, readiness, screens
from benchmarks import simulate as simulator
from benchmarks.files import FIGURES as FILES
from benchmarks.files import progress_files
from benchmarks.inputs import Inputs
from benchmarks.measure import Row, compare_processes, median_time, python, run_process, vocabgame

CLOCK_AT = big.NOW  # the generated histories end here


def fixed_clock() -> datetime:
    return CLOCK_AT


@dataclass(frozen=True)
class Scale:
    quick: bool
    runs: int  # timings per figure in the process
    process_runs: int  # whole processes per side
    key_presses: int
    history_items: int  # terms of the heavy history's deck; three faces each
    history_reviews: int
    small_reviews: int  # the history that planning is compared with
    stats_reviews: int  # answers over the built-in decks for `stats --json`
    deck_sizes: tuple[int, int, int]  # small, medium, large; large is compared with medium
    warm: bool = True  # an untimed run of each process first (`compare_processes`)


FULL = Scale(
    quick=False,
    runs=15,
    process_runs=7,
    key_presses=15,
    history_items=33_334,  # 100,002 faces
    history_reviews=1_000_000,
    small_reviews=10_000,
    stats_reviews=1_000_000,
    deck_sizes=(1_000, 10_000, 50_000),
)
QUICK = Scale(
    quick=True,
    runs=3,
    process_runs=2,
    key_presses=4,
    history_items=1_000,  # 3,000 faces
    history_reviews=100_000,
    small_reviews=10_000,
    stats_reviews=100_000,
    deck_sizes=(500, 1_000, 5_000),
)
# The test suite's run: it checks that every figure is still measured, never what it is, so
# the smallest inputs that exercise every path and one repetition each (about a fifth of the
# quick run's time).
SMOKE = Scale(
    quick=True,
    runs=1,
    process_runs=1,
    key_presses=2,
    history_items=200,  # 600 faces
    history_reviews=10_000,
    small_reviews=2_000,
    stats_reviews=10_000,
    deck_sizes=(100, 200, 1_000),
    warm=False,
)


@dataclass
class Context:
    scale: Scale
    inputs: Inputs  # generated once, kept with --scratch
    work: Path  # this run's own folder, removed at the end


def count(n: int) -> str:
    """100002 -> "100k", 1000000 -> "1M"."""
    if n >= 1_000_000:
        return f"{n / 1_000_000:g}M"
    if n >= 1_000:
        return f"{round(n / 1_000):g}k"
    return str(n)


def _launch(data: Path, *decks: Path) -> list[str]:
    extra = [a for d in decks for a in ("--decks", str(d))]
    return [python(), "-m", "benchmarks.launch", "game", str(data), *extra]


def _drop_backups(*data_dirs: Path) -> None:
    """The day's backup of a generated store, made by the untimed first run; removed so that
    kept inputs do not pile up a week of copies."""
    from vocabgame.backup import backups_dir

    for data in data_dirs:
        shutil.rmtree(backups_dir(data), ignore_errors=True)


# -- launch -----------------------------------------------------------------------------------


def launch_builtin(ctx: Context) -> list[Row]:
    data = ctx.work / "launch-data"
    data.mkdir()
    ours, bare = compare_processes(
        _launch(data),
        [python(), "-m", "benchmarks.launch", "bare"],
        ctx.scale.process_runs,
        warm=ctx.scale.warm,
    )
    return [
        Row(
            "launch",
            "launch to the first painted home screen, built-in decks (process)",
            ours,
            "ms",
            bare,
            "bare Textual app with a Static and a DataTable, started the same way",
            max_ratio=1.3,
        )
    ]


def launch_history(ctx: Context) -> list[Row]:
    s = ctx.scale
    decks = ctx.inputs.deck_folder(s.history_items)
    full = ctx.inputs.history(s.history_items, s.history_reviews)
    empty = ctx.inputs.history(s.history_items, 0)
    try:
        ours, base = compare_processes(
            _launch(full, decks), _launch(empty, decks), s.process_runs, budget=120, warm=s.warm
        )
    finally:
        _drop_backups(full, empty)
    faces = count(s.history_items * len(big.FACES))
    return [
        Row(
            "launch-history",
            f"launch, {faces} faces and {count(s.history_reviews)} answers in the store (process)",
            ours,
            "ms",
            base,
            "the same launch, same decks, empty store",
            max_ratio=1.2,
        )
    ]


def tab_memory(ctx: Context) -> list[Row]:
    """What one browser tab costs: a game process (as `vocabgame serve` starts one per tab)
    holds this much resident memory once its home screen is painted and it waits for a key;
    against the bare app's. Medians of a few processes (Linux: read from /proc)."""
    from benchmarks.launch import RSS_FILE
    from benchmarks.measure import child_env

    if not Path("/proc/self/status").exists():
        return [Row("tab-memory", "memory of an idle game (needs /proc)", float("nan"), "MiB")]
    data = ctx.work / "tab-data"
    data.mkdir()
    out = ctx.work / "rss"

    def rss(command: list[str]) -> float:
        env = {**child_env(), RSS_FILE: str(out)}
        subprocess.run(command, env=env, check=True, stdout=subprocess.DEVNULL, timeout=120)
        return int(out.read_text(encoding="ascii")) / 1024

    runs = max(2, ctx.scale.process_runs // 2)
    ours = statistics.median(rss(_launch(data)) for _ in range(runs))
    bare = statistics.median(
        rss([python(), "-m", "benchmarks.launch", "bare"]) for _ in range(runs)
    )
    _drop_backups(data)
    return [
        Row(
            "tab-memory",
            "memory of one idle browser tab: a game process at its painted home screen,"
            " built-in decks (VmRSS)",
            ours,
            "MiB",
            bare,
            "the bare Textual app with a Static and a DataTable, at its first frame",
        )
    ]


# -- a heavy player's history, in the process ---------------------------------------------------


def history(ctx: Context) -> list[Row]:
    from vocabgame.deck import load_catalog
    from vocabgame.play import Session
    from vocabgame.store import DB_NAME, Store

    s = ctx.scale
    catalog = load_catalog([ctx.inputs.deck_folder(s.history_items)])
    sessions = {}
    for reviews in (s.small_reviews, s.history_reviews):
        data = ctx.inputs.history(s.history_items, reviews)
        sessions[reviews] = Session(Store.open(data / DB_NAME), catalog, clock=fixed_clock)
        sessions[reviews].home()  # each deck's shape is worked out once per loaded deck
    # As the vocabgame command does once its first screen is shown (vocabgame.ui.app): what
    # start-up built is frozen, so a full collection during a figure walks only what came
    # after it, not the decks and stores loaded here.
    gc.collect()
    gc.freeze()
    big_one, small_one = sessions[s.history_reviews], sessions[s.small_reviews]
    faces = count(s.history_items * len(big.FACES))
    where = f"{faces} faces, {count(s.history_reviews)} answers"
    than = f"the same, {count(s.small_reviews)} answers"
    # (id, what, the work, the most it may take in ms, the most against fewer answers)
    figures: tuple[tuple[str, str, Callable[[Any], object], float | None, float | None], ...] = (
        ("home-data", "home screen data (due, new, best per deck)", lambda x: x.home(), 50, None),
        ("plan", "plan a round of 20", lambda x: x.plan(None, 20), 50, 2),
        ("stats-data", "stats figures in the process", lambda x: x.stats(), None, None),
    )
    rows = []
    try:
        for row_id, what, work, max_value, max_ratio in figures:
            ours = median_time(lambda work=work: work(big_one), s.runs)  # type: ignore[misc]
            base = median_time(lambda work=work: work(small_one), s.runs)  # type: ignore[misc]
            rows.append(
                Row(
                    row_id,
                    f"{what}, {where}",
                    ours,
                    "ms",
                    base,
                    than,
                    max_value=max_value,
                    max_ratio=max_ratio,
                )
            )
    finally:
        gc.unfreeze()
        for session in sessions.values():
            session.close()
    return rows


SYNCHRONOUS = {0: "OFF", 1: "NORMAL", 2: "FULL", 3: "EXTRA"}


def answer_times(
    folder: Path,
    catalog: Any,
    answers: int,
    synchronous: str | None = None,
    drop: tuple[str, ...] = (),
) -> tuple[list[float], str]:
    """Seconds each of `answers` answers took to save (review, card, round totals, commit),
    rounds of 20 of the built-in decks on a new store in `folder`, with the store's own
    durability or `synchronous`, without the triggers `drop`; and the synchronous mode used."""
    from vocabgame.play import Session
    from vocabgame.store import DB_NAME, Store

    store = Store.open(folder / DB_NAME)
    for trigger in drop:
        store.conn.execute(f'DROP TRIGGER "{trigger}"')
    if synchronous is not None:
        store.conn.execute(f"PRAGMA synchronous={synchronous}")
    mode = SYNCHRONOUS.get(store.conn.execute("PRAGMA synchronous").fetchone()[0], "?")
    session = Session(store, catalog, clock=fixed_clock, fuzz=False)
    round_ = session.start_round(None, size=20, seed=1)
    assert round_ is not None
    times: list[float] = []
    try:
        for _ in range(answers):
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
    finally:
        session.close()
    return times, mode


def answer_commit(ctx: Context) -> list[Row]:
    """One answer saved (review, card, round totals, commit) with the store's own durability,
    against the same with synchronous=NORMAL, which can lose the last answers on a power loss."""
    from vocabgame.deck import load_catalog
    from vocabgame.paths import builtin_decks_dir

    catalog = load_catalog([builtin_decks_dir()])
    answers = 20 * ctx.scale.runs

    def per_answer(synchronous: str | None) -> tuple[float, str]:
        times, mode = answer_times(
            ctx.work / f"answer-{synchronous or 'store'}", catalog, answers, synchronous
        )
        return statistics.median(times) * 1000, mode

    base, _ = per_answer("NORMAL")
    ours, mode = per_answer(None)
    return [
        Row(
            "answer",
            f"record an answer, commit included (the store's synchronous={mode})",
            ours,
            "ms",
            base,
            "the same with synchronous=NORMAL",
            max_value=5.0,
        )
    ]


# -- commands, as whole processes -------------------------------------------------------------


def stats_command(ctx: Context) -> list[Row]:
    from vocabgame.store import DB_NAME, Store

    full = ctx.inputs.builtin_history(ctx.scale.stats_reviews)
    empty = ctx.work / "stats-empty"
    Store.open(empty / DB_NAME).close()

    def stats(data: Path) -> list[str]:
        return [*vocabgame(), "--data-dir", str(data), "stats", "--json"]

    try:
        ours, base = compare_processes(
            stats(full), stats(empty), ctx.scale.process_runs, warm=ctx.scale.warm
        )
    finally:
        _drop_backups(full)
    return [
        Row(
            "stats-command",
            f"vocabgame stats --json, {count(ctx.scale.stats_reviews)} answers (process)",
            ours,
            "ms",
            base,
            "the same command on an empty store",
            max_value=1000.0,
            max_ratio=3.0,
        )
    ]


PARSE_ONLY = (
    "import sys, yaml\n"
    "for f in sys.argv[1:]:\n"
    "    yaml.load(open(f, encoding='utf-8').read(), Loader=yaml.CSafeLoader)\n"
)


def validate_command(ctx: Context) -> list[Row]:
    from vocabgame.deck import deck_files
    from vocabgame.paths import builtin_decks_dir

    folder = builtin_decks_dir()
    files = [str(f) for f in deck_files([folder])]
    ours, base = compare_processes(
        [*vocabgame(), "validate", str(folder)],
        [python(), "-c", PARSE_ONLY, *files],
        ctx.scale.process_runs,
        warm=ctx.scale.warm,
    )
    return [
        Row(
            "validate-command",
            f"vocabgame validate decks/, {len(files)} files (process)",
            ours,
            "ms",
            base,
            "a script that only parses the same files, PyYAML C loader",
            max_ratio=2.0,
        )
    ]


# -- generated decks --------------------------------------------------------------------------


def _peak_mib(fn: Callable[[], object]) -> float:
    tracemalloc.start()
    try:
        fn()
        return tracemalloc.get_traced_memory()[1] / 2**20
    finally:
        tracemalloc.stop()


BOMB_CHECK = """
import sys
from vocabgame.deck import load_text
lines = ["format: 1", "id: bomb", "a0: &a0 [x, x, x, x, x, x, x, x, x, x]"]
for n in range(1, 9):
    lines.append(f"a{n}: &a{n} [" + ", ".join([f"*a{n - 1}"] * 10) + "]")
deck, problems = load_text("\\n".join(lines) + "\\n", "bomb.yaml")
sys.exit(0 if deck is None and problems else 1)
"""


def generated_decks(ctx: Context) -> list[Row]:
    """Load and validate decks of three sizes against parsing the same file with PyYAML's C
    loader; the largest against the middle one; peak memory against the parse alone; and the
    default limits: they accept the largest deck and still stop an alias bomb."""
    from vocabgame.deck import load_deck
    from vocabgame.problems import DeckError

    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    rows = []
    times = {}
    accepted = {}
    runs = max(1, ctx.scale.runs // 3)
    for role, items in zip(("small", "medium", "large"), ctx.scale.deck_sizes, strict=True):
        path = ctx.inputs.deck_file(items)

        def parse(path: Path = path) -> object:
            return yaml.load(path.read_text(encoding="utf-8"), Loader=loader)

        def load(path: Path = path, items: int = items) -> object:
            try:
                deck = load_deck(path)
            except DeckError as exc:
                accepted[items] = False
                return exc
            accepted[items] = True
            return deck

        times[items] = ours = median_time(load, runs, budget=30)
        base = median_time(parse, runs, budget=30)
        refused = "" if accepted[items] else " (refused)"
        rows.append(
            Row(
                f"deck-load-{role}",
                f"load + validate a generated deck of {items:,} items{refused}",
                ours,
                "ms",
                base,
                "parse only, PyYAML C loader",
                max_ratio=2.0,
            )
        )
        rows.append(
            Row(
                f"deck-memory-{role}",
                f"peak memory, load + validate {items:,} items{refused}",
                _peak_mib(load),
                "MiB",
                _peak_mib(parse),
                "the same parse alone",
                max_ratio=2.0,
            )
        )
    _, medium, large = ctx.scale.deck_sizes
    rows.append(
        Row(
            "deck-growth",
            f"load + validate {large:,} items, against {medium:,}",
            times[large],
            "ms",
            times[medium],
            f"the same, {medium:,} items",
            max_ratio=5.5,  # for five times the items, in both scales
        )
    )
    rows.append(
        Row(
            "deck-limits-accept",
            f"the default limits accept {large:,} items",
            float(accepted[large]),
            "yes/no",
            must_hold=True,
        )
    )
    try:
        run_process([python(), "-c", BOMB_CHECK], timeout=60)
        stopped = True
    except (RuntimeError, subprocess.TimeoutExpired):
        stopped = False
    rows.append(
        Row(
            "deck-limits-bomb",
            "the default limits still stop an alias bomb (10^9 values)",
            float(stopped),
            "yes/no",
            must_hold=True,
        )
    )
    return rows


# -- keys -------------------------------------------------------------------------------------


def key_feedback(ctx: Context) -> list[Row]:
    """A key that answers a choice question, from the key press to the first frame showing
    the feedback, against a key that moves the highlight, to the first frame showing it moved.
    Headless, through Pilot; a frame is each render of the screen (`App._display`). A frame
    counts as showing the feedback once the frames since the key have drawn the verdict and the
    choices marked ✓ (the phase alone could flip before they are painted)."""
    from vocabgame.deck import load_catalog
    from vocabgame.paths import builtin_decks_dir

    moves, answers, whole = asyncio.run(_keys(ctx.work / "keys", ctx.scale.key_presses))
    # One answer saved with its durable commit, alone (no screen), on a store of its own in
    # the same minutes: what an answer key must do that a move does not.
    saves, _ = answer_times(
        ctx.work / "keys-saves", load_catalog([builtin_decks_dir()]), 20 * ctx.scale.runs
    )
    move, save = statistics.median(moves), statistics.median(saves) * 1000
    return [
        Row(
            "key-feedback",
            "key press to the first frame showing feedback (Pilot, headless)",
            statistics.median(answers),
            "ms",
            move + save,
            f"a highlight move to its first frame ({move:.2f} ms) plus one answer saved with its"
            f" durable commit, alone ({save:.2f} ms)",
            max_ratio=1.25,
        ),
        Row(
            "key-feedback-whole",
            "key press to the frame showing the whole feedback (explanation, sources)",
            statistics.median(whole),
            "ms",
            statistics.median(moves),
            "a key press that moves the highlight, to its first frame",
        ),
    ]


# The round screen's phase, its highlighted choice, and whether the feedback's scrolling body
# (explanation, sources, next review) is shown.
State = tuple[str | None, int | None, bool]
Frame = tuple[float, State, str]  # when, the state, and the text drawn once it shows feedback

VERDICT = re.compile(r"✓ Right|✗ Not quite")
MARKED = re.compile(r"✓ \d")  # the right choice, marked, in the feedback's list of choices


def _moved(before: State, seen: list[Frame]) -> bool:
    return seen[-1][1][1] != before[1]


def _shows_feedback(seen: list[Frame]) -> bool:
    if seen[-1][1][0] != "feedback":
        return False
    drawn = "\n".join(text for _, _, text in seen)
    return bool(VERDICT.search(drawn) and MARKED.search(drawn))


def _shows_whole_feedback(seen: list[Frame]) -> bool:
    return seen[-1][1][0] == "feedback" and seen[-1][1][2]


def _drawn_text(update: Any) -> str:
    """The text a frame draws, line by line: the changed pieces of lines, or whole lines."""
    chops = getattr(update, "chops", None)
    lines = [line.values() for line in chops] if chops is not None else update.strips
    return "\n".join("".join(strip.text for strip in line if strip is not None) for line in lines)


async def _keys(folder: Path, presses: int) -> tuple[list[float], list[float], list[float]]:
    from vocabgame.deck import load_catalog
    from vocabgame.paths import builtin_decks_dir
    from vocabgame.play import Session
    from vocabgame.store import DB_NAME, Store
    from vocabgame.ui.app import VocabApp

    session = Session(
        Store.open(folder / DB_NAME), load_catalog([builtin_decks_dir()]), clock=fixed_clock
    )
    app = VocabApp(session, start_round=True, seed=1, size=200, settle_seconds=0)
    frames: list[Frame] = []

    def state() -> State:
        screen = app.screen
        phase = getattr(screen, "phase", None)
        try:
            highlighted = screen.query_one("#choices").highlighted  # type: ignore[attr-defined]
        except Exception:
            highlighted = None
        try:
            body = bool(screen.query_one("#body").display)
        except Exception:
            body = False
        return (None if phase is None else str(phase.value)), highlighted, body

    display = app._display

    def display_and_note(screen: Any, renderable: Any) -> None:
        display(screen, renderable)
        if renderable is not None:
            at, seen = time.perf_counter(), state()
            frames.append((at, seen, _drawn_text(renderable) if seen[0] == "feedback" else ""))

    app._display = display_and_note  # type: ignore[method-assign]

    def first_frame(after: int, start: float, shows: Callable[[list[Frame]], bool]) -> float:
        for end in range(after + 1, len(frames) + 1):
            if shows(frames[after:end]):
                return (frames[end - 1][0] - start) * 1000
        raise RuntimeError("no frame showed the key's effect")

    moves: list[float] = []
    answers: list[float] = []
    whole: list[float] = []
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            while len(answers) < presses:
                screen: Any = app.screen
                question = screen.round.question()
                if question is None:
                    raise RuntimeError("the round ended before the key presses were done")
                if question.kind != "choice" or len(question.choices) < 2:
                    if question.kind == "recall":
                        screen.round.answer_recall(3)
                    else:
                        screen.round.answer_text("1")
                    screen.round.advance()
                    screen.show_question()
                    await pilot.pause()
                    continue
                # Each measured key comes after the same 50 ms with nothing to do, as a
                # player's keys come after a pause: the move came right after the next
                # question was drawn, every cache warm, and the answer 50 ms after the move.
                await asyncio.sleep(0.05)
                before = state()
                mark, start = len(frames), time.perf_counter()
                await pilot.press("down")
                await pilot.pause()
                await asyncio.sleep(0.05)
                moves.append(first_frame(mark, start, partial(_moved, before)))
                mark, start = len(frames), time.perf_counter()
                await pilot.press("1")
                await pilot.pause()
                await asyncio.sleep(0.15)
                answers.append(first_frame(mark, start, _shows_feedback))
                whole.append(first_frame(mark, start, _shows_whole_feedback))
                await pilot.press("enter")
                await pilot.pause()
    finally:
        session.close()
    return moves, answers, whole


# -- for information: no target -----------------------------------------------------------------


def deck_loading(ctx: Context) -> list[Row]:
    from vocabgame.deck import deck_files, load_catalog
    from vocabgame.paths import builtin_decks_dir

    folder = builtin_decks_dir()
    files = deck_files([folder])
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    base = median_time(
        lambda: [yaml.load(f.read_text(encoding="utf-8"), Loader=loader) for f in files],
        ctx.scale.runs,
    )
    ours = median_time(lambda: load_catalog([folder]), ctx.scale.runs)
    return [
        Row(
            "builtin-decks",
            "load + validate the built-in decks (in the process)",
            ours,
            "ms",
            base,
            "parse only, PyYAML C loader",
        )
    ]


def cli_start(ctx: Context) -> list[Row]:
    ours, base = compare_processes(
        [python(), "-c", "import vocabgame.cli, vocabgame.deck"],
        [python(), "-c", "pass"],
        ctx.scale.process_runs + 1,
        warm=ctx.scale.warm,
    )
    return [
        Row(
            "cli-start",
            "start a command that opens no game (imports, process)",
            ours,
            "ms",
            base,
            "python -c pass",
        )
    ]


@dataclass(frozen=True)
class Group:
    """Figures measured together, and what `--help` says of each (id, what it compares)."""

    figures: tuple[tuple[str, str], ...]
    measure: Callable[[Context], list[Row]]
    optional: bool = False  # measured only when `--only` names one of its figures

    @property
    def rows(self) -> tuple[str, ...]:
        return tuple(row_id for row_id, _ in self.figures)


_SIZES = {"small": "1k", "medium": "10k", "large": "50k"}

GROUPS = (
    Group(
        (("launch", "launch to the painted home screen, built-in decks, vs a bare app: <= 1.3x"),),
        launch_builtin,
    ),
    Group(
        (("tab-memory", "MiB of one idle browser tab: a game at its home screen (info)"),),
        tab_memory,
    ),
    Group(
        (("launch-history", "the same with 100k faces, 1M answers vs an empty store: <= 1.2x"),),
        launch_history,
    ),
    Group(
        (
            ("home-data", "home screen data at 1M answers: <= 50 ms (10k answers: info)"),
            ("plan", "plan a round at 100k faces, 1M answers: <= 50 ms and <= 2x 10k answers"),
            ("stats-data", "stats figures in the process, 1M vs 10k answers (info)"),
        ),
        history,
    ),
    Group(
        (("answer", "record an answer, commit included: <= 5 ms (synchronous=NORMAL: info)"),),
        answer_commit,
    ),
    Group(
        (("stats-command", "vocabgame stats --json at 1M answers: <= 1 s and <= 3x empty store"),),
        stats_command,
    ),
    Group(
        (("validate-command", "vocabgame validate decks/ vs a C-loader parse script: <= 2x"),),
        validate_command,
    ),
    Group(
        (
            *(
                figure
                for role, size in _SIZES.items()
                for figure in (
                    (f"deck-load-{role}", f"load + validate {size} items vs C-loader parse: <= 2x"),
                    (f"deck-memory-{role}", "peak memory of that vs the parse alone: <= 2x"),
                )
            ),
            ("deck-growth", "load + validate 50k items vs 10k: <= 5.5x"),
            ("deck-limits-accept", "the default limits accept 50k items"),
            ("deck-limits-bomb", "the default limits still stop an alias bomb"),
        ),
        generated_decks,
    ),
    Group(
        (
            (
                "key-feedback",
                "key press to the first feedback frame vs a highlight move plus an answer's"
                " commit: <= 1.25x",
            ),
            ("key-feedback-whole", "key press to the frame with the whole feedback (info)"),
        ),
        key_feedback,
    ),
    Group(readiness.FIGURES, readiness.readiness),
    Group(screens.FIGURES, screens.screens),
    Group(anki.FIGURES, anki.side_by_side, optional=True),
    Group(simulator.FIGURES, simulator.simulator),
    Group(fitting.FIGURES, fitting.fitting),
    Group(FILES, progress_files),
    Group((("builtin-decks", "load the built-in decks in the process (info)"),), deck_loading),
    Group((("cli-start", "start a command that opens no game (info)"),), cli_start),
    Group(lab_load.FIGURES, lab_load.lab_load),
)

ROW_IDS = tuple(row for group in GROUPS for row in group.rows)
OPTIONAL_IDS = tuple(row for group in GROUPS if group.optional for row in group.rows)
