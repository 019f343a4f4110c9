"""Every screen a player waits on, at a heavy history: from the key that opens it to the first
frame with the screen on top (headless, through Pilot; a frame is each render, `App._display`).
Each is compared with the same key path to a screen that reads nothing, in the same app, and
with the same screen over a store of fewer answers (the same faces)."""

from __future__ import annotations

import asyncio
import gc
import inspect
import shutil
import statistics
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from benchmarks import big
from benchmarks.measure import Row

if TYPE_CHECKING:
    from benchmarks.figures import Context

# The picker's modes, by stored id (`ModeId`), in the order of their rows: those that have
# something to play in the generated deck of terms and its history (challenge and lab ask
# scenarios, claims and lab challenges, which it has none of; the drill, recorded confusions
# of picked terms, which the generated history does not record).
MODES = ("review", "cram", "interview")
# (row id suffix, what it opens, the keys on the home screen before the timed one, the timed key)
SCREENS = (
    ("home", "home screen, Escape from a bare screen", ("f12",), "escape"),
    ("results", "results, Enter after a round's last answer", (), "enter"),
    ("stats", "stats screen (t)", (), "t"),
    ("lab", "serving lab (l)", (), "l"),
    ("browse", "browse the deck (b)", (), "b"),
    ("settings", "settings (s)", (), "s"),
)
FIGURES: tuple[tuple[str, str], ...] = tuple(
    figure
    for suffix, what in (
        *((f"mode-{m}", f"round start from the picker: {m}") for m in MODES),
        *((s[0], s[1]) for s in SCREENS),
    )
    for figure in (
        (f"screen-{suffix}", f"{what}: <= 2x a switch to a screen that reads nothing"),
        (f"screen-{suffix}-growth", f"{what}: 1M answers <= 1.2x 10k answers"),
        (f"screen-{suffix}-first", f"{what}: the first open in a process, 1M answers (info)"),
    )
)
TIMEOUT = 60.0  # seconds a screen may take before the figure gives up
NOTHING_AFTER = 3.0  # seconds with the home screen still on top: the key opened nothing


class NothingShown(Exception):
    """The key left the home screen on top: the mode had nothing to play."""


def screens(ctx: Context) -> list[Row]:
    s = ctx.scale
    runs = max(1, s.runs // 3)
    decks = ctx.inputs.deck_folder(s.history_items)
    medians: dict[int, dict[str, float | None]] = {}
    for reviews in (s.history_reviews, s.small_reviews):
        # A copy: rounds played here write answers, and the kept inputs must stay as made.
        data = ctx.work / f"screens-{reviews}"
        shutil.copytree(ctx.inputs.history(s.history_items, reviews), data)
        medians[reviews] = asyncio.run(_measure(data, decks, runs))
        shutil.rmtree(data, ignore_errors=True)
    big_one, small_one = medians[s.history_reviews], medians[s.small_reviews]
    nothing = big_one["nothing"]
    faces = f"{s.history_items * len(big.FACES):,} faces"
    rows = []
    for row_id, about in FIGURES:
        if row_id.endswith("-first"):
            key = row_id.removeprefix("screen-").removesuffix("-first")
            rows.append(
                _first(row_id, about, faces, s, big_one.get(f"{key}-first"), big_one.get(key))
            )
        elif row_id.endswith("-growth"):
            key = row_id.removeprefix("screen-").removesuffix("-growth")
            ours, base = big_one.get(key), small_one.get(key)
            rows.append(_row(row_id, about, faces, s, ours, base, "the same, fewer answers", 1.2))
        else:
            key = row_id.removeprefix("screen-")
            ours = big_one.get(key)
            rows.append(
                _row(
                    row_id,
                    about,
                    faces,
                    s,
                    ours,
                    nothing,
                    "the keys help (?), which reads nothing",
                    2.0,
                )
            )
    return rows


def _row(
    row_id: str,
    about: str,
    faces: str,
    s: Any,
    ours: float | None,
    base: float | None,
    base_name: str,
    ratio: float,
) -> Row:
    what = about.split(":")[0] if "picker" not in about else about.rsplit(":", 1)[0]
    name = f"{what}, {faces}, {s.history_reviews:,} answers (Pilot)"
    if ours is None or base is None:  # the mode has nothing to play in the generated deck
        return Row(row_id, f"{name}: nothing to play in this deck", float("nan"), "ms")
    return Row(row_id, name, ours, "ms", base, base_name, max_ratio=ratio)


def _first(
    row_id: str, about: str, faces: str, s: Any, first: float | None, later: float | None
) -> Row:
    """The first open of a screen in the process (what a player waits for at the first key
    after starting the game: each deck's kept shapes are made then), beside its median."""
    what = about.split(":")[0] if "picker" not in about else about.rsplit(":", 1)[0]
    name = f"{what}, first open in the process, {faces}, {s.history_reviews:,} answers (Pilot)"
    if first is None or later is None:
        return Row(row_id, f"{name}: nothing to play in this deck", float("nan"), "ms")
    return Row(row_id, name, first, "ms", later, "the same screen, its median open")


async def _measure(data: Path, decks: Path, runs: int) -> dict[str, float | None]:
    from textual.binding import Binding
    from textual.screen import Screen
    from textual.widgets import Static

    from vocabgame.deck import load_catalog
    from vocabgame.play import Session
    from vocabgame.store import DB_NAME, Store
    from vocabgame.ui.app import VocabApp
    from vocabgame.ui.screens.home import HomeScreen

    class Nothing(Screen[None]):
        """A screen that reads nothing: the baseline of a switch."""

        BINDINGS = [Binding("escape", "app.pop_screen", "Back")]

        def compose(self) -> Any:
            yield Static("nothing here")

    class Measured(VocabApp):
        CSS_PATH = Path(inspect.getfile(VocabApp)).with_name("app.tcss")  # the game's own
        BINDINGS = [Binding("f12", "nothing", "Nothing", show=False)]

        def action_nothing(self) -> None:
            self.push_screen(Nothing())

    session = Session(Store.open(data / DB_NAME), load_catalog([decks]), clock=lambda: big.NOW)
    app = Measured(session, seed=1, size=2, settle_seconds=0)
    frames: list[tuple[float, Any]] = []
    display = app._display

    def display_and_note(screen: Any, renderable: Any) -> None:
        display(screen, renderable)
        if renderable is not None:
            frames.append((time.perf_counter(), screen))

    app._display = display_and_note  # type: ignore[method-assign]
    times: dict[str, list[float]] = {}
    found: set[str] = set()

    async def timed(pilot: Any, key: str, name: str, shows: Callable[[Any], bool]) -> None:
        await asyncio.sleep(0.05)  # every key after the same pause with nothing to do
        mark, start = len(frames), time.perf_counter()
        await pilot.press(key)
        deadline = start + TIMEOUT
        while time.perf_counter() < deadline:
            for at, screen in frames[mark:]:
                if shows(screen):
                    times.setdefault(name, []).append((at - start) * 1000)
                    return
            waited = time.perf_counter() - start
            if (
                waited > NOTHING_AFTER
                and isinstance(app.screen, HomeScreen)
                and not shows(app.screen)
            ):
                raise NothingShown(name)  # the key opened nothing (nothing to play)
            await asyncio.sleep(0.005)
        raise RuntimeError(f"no frame showed {name} within {TIMEOUT:.0f} s")

    async def home(pilot: Any) -> None:
        while not isinstance(app.screen, HomeScreen):
            app.pop_screen()
            await pilot.pause()
        await pilot.pause()

    def is_type(name: str) -> Callable[[Any], bool]:
        return lambda screen: type(screen).__name__ == name

    def not_home(screen: Any) -> bool:
        return not isinstance(screen, HomeScreen) and type(screen).__name__ != "ModePickerScreen"

    try:
        async with app.run_test(size=(100, 30)) as pilot:
            await pilot.pause()
            gc.collect()
            gc.freeze()  # as the game freezes what its start-up built
            for _ in range(runs):
                await timed(pilot, "question_mark", "nothing", is_type("HelpScreen"))
                await home(pilot)
                await timed(pilot, "f12", "bare", is_type("Nothing"))
                await timed(pilot, "escape", "home", lambda sc: isinstance(sc, HomeScreen))
                await home(pilot)
                for name, screen_type in (
                    ("stats", "StatsScreen"),
                    ("lab", "LabScreen"),
                    ("browse", "BrowseScreen"),
                    ("settings", "SettingsScreen"),
                ):
                    key = next(k for n, _, _, k in SCREENS if n == name)
                    await timed(pilot, key, name, is_type(screen_type))
                    await home(pilot)
                for mode in MODES:
                    await pilot.press("g")
                    await pilot.pause()
                    ids = [m.id for m in app.screen.modes]  # type: ignore[attr-defined]
                    if mode not in ids:
                        await home(pilot)
                        continue
                    try:
                        await timed(pilot, str(ids.index(mode) + 1), f"mode-{mode}", not_home)
                    except NothingShown:  # nothing to play: a notice, no screen
                        pass
                    else:
                        found.add(mode)
                    await home(pilot)
                await _results(pilot, app, timed)
                await home(pilot)
    finally:
        gc.unfreeze()
        session.close()
    out: dict[str, float | None] = {k: statistics.median(v) for k, v in times.items()}
    out.update({f"{k}-first": v[0] for k, v in times.items()})
    for mode in MODES:
        out.setdefault(f"mode-{mode}", None)
    return out


async def _results(pilot: Any, app: Any, timed: Any) -> None:
    """A learn round of two questions, answered; the timed key is the Enter after the last
    answer, which shows the results."""
    await pilot.press("enter")
    await pilot.pause()
    round_ = getattr(app.screen, "round", None)
    if round_ is None:
        raise RuntimeError("the learn round did not start")
    while (question := round_.question()) is not None:
        await asyncio.sleep(0.02)
        if question.choices:
            await pilot.press("1")
        else:
            await pilot.press("x", "enter")
        await pilot.pause()
        if not round_.awaiting_next:
            raise RuntimeError(f"the answer to a {question.kind} question was not taken")
        if round_.position >= round_.total - 1:
            break
        await pilot.press("enter")
        await pilot.pause()
    await timed(pilot, "enter", "results", lambda sc: type(sc).__name__ == "ResultsScreen")
