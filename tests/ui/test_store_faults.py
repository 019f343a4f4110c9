"""The store fails under the player's fingers: every statement of an answer, an undo, a round
start and the end of a round refused in turn, and a store that turns read-only. The game says
one sentence, keeps running, and the screen never shows what the store does not have."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from textual.pilot import Pilot
from textual.widgets import Input

from vocabgame.deck import load_catalog
from vocabgame.play import Session
from vocabgame.store import DB_NAME, Store
from vocabgame.ui.app import VocabApp
from vocabgame.ui.screens.home import HomeScreen
from vocabgame.ui.screens.results import ResultsScreen
from vocabgame.ui.screens.round import RoundScreen

from ..conftest import DATA
from ..faults import ERRORS, FaultyConnection, contents, integrity, one_sentence
from .conftest import Clock, screen_text
from .test_play import answer


def faulty_app(data_dir: Path, clock: Clock) -> tuple[VocabApp, list[str]]:
    store = Store.open(data_dir / DB_NAME, factory=FaultyConnection)
    session = Session(store, load_catalog([DATA / "ui"]), clock=clock, fuzz=False)
    app = VocabApp(session, seed=7, settle_seconds=0)
    said: list[str] = []
    notify = app.notify

    def record(message: str, **kwargs: object) -> None:
        said.append(message)
        notify(message, **kwargs)  # type: ignore[arg-type]

    app.notify = record  # type: ignore[method-assign]
    return app, said


def conn(app: VocabApp) -> FaultyConnection:
    c = app.session.store.conn
    assert isinstance(c, FaultyConnection)
    return c


async def into_round(pilot: Pilot, app: VocabApp, answered: int) -> None:
    await pilot.press("enter")
    await pilot.pause()
    for _ in range(answered):
        await answer(pilot, app, True)
        await pilot.press("enter")
        await pilot.pause()


async def end_round(pilot: Pilot, app: VocabApp) -> None:
    """End the round by keys: q, or Escape while a text answer has the focus (the first
    Escape may only clear the input)."""
    if isinstance(app.focused, Input):
        await pilot.press("escape")
        await pilot.pause()
        if isinstance(app.screen, RoundScreen):
            await pilot.press("escape")
    else:
        await pilot.press("q")
    await pilot.pause()
    if not isinstance(app.screen, ResultsScreen | RoundScreen):  # a confirmation
        await pilot.press("y")
        await pilot.pause()


async def press_answer(pilot: Pilot, app: VocabApp) -> None:
    await answer(pilot, app, True)


async def press_undo(pilot: Pilot, app: VocabApp) -> None:
    await pilot.press("u")
    await pilot.pause()


async def press_start(pilot: Pilot, app: VocabApp) -> None:
    await pilot.press("enter")
    await pilot.pause()


# action: (answers given before it, on the round screen or not, the keys)
ACTIONS: dict[str, tuple[int, bool, Callable[[Pilot, VocabApp], object]]] = {
    "answer": (0, True, press_answer),  # the first question: a choice, answered in one key
    "undo": (2, True, press_undo),
    "round start": (0, False, press_start),
    "end round": (2, True, end_round),  # on a choice question: q ends the round at once
}


async def count_statements(data_dir: Path, clock: Clock, action: str) -> int:
    before, in_round, keys = ACTIONS[action]
    app, _ = faulty_app(data_dir, clock)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        if in_round:
            await into_round(pilot, app, before)
            if action == "undo":
                await answer(pilot, app, True)
        conn(app).arm(None)
        await keys(pilot, app)  # type: ignore[misc]
        return conn(app).statements


@pytest.mark.parametrize("action", list(ACTIONS))
async def test_each_refused_statement_is_one_sentence_and_the_game_goes_on(
    tmp_path: Path, clock: Clock, action: str
) -> None:
    before_count, in_round, keys = ACTIONS[action]
    total = await count_statements(tmp_path / "count", clock, action)
    assert total >= 3
    for k in range(1, total + 1):
        data_dir = tmp_path / f"k{k}"
        app, said = faulty_app(data_dir, clock)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            if in_round:
                await into_round(pilot, app, before_count)
                if action == "undo":
                    await answer(pilot, app, True)
            screen = type(app.screen)
            shown = screen_text(app)
            saved = contents(data_dir / DB_NAME)
            said.clear()
            conn(app).arm(k, ERRORS["full"])
            await keys(pilot, app)  # type: ignore[misc]
            await pilot.pause()
            assert app.is_running, (action, k)
            assert isinstance(app.screen, screen), (action, k)  # nothing moved on
            assert screen_text(app) == shown, (action, k)
            problems = [m for m in said if "full" in m]
            assert len(problems) == 1 and one_sentence(problems[0]), (action, k, said)
            assert contents(data_dir / DB_NAME) == saved, (action, k)
            assert integrity(data_dir / DB_NAME) == "ok"
            if isinstance(app.screen, RoundScreen):
                store = app.session.store
                assert len(store.answers.all()) == app.screen.round.answered


async def test_a_read_only_store_lets_the_player_play_and_says_so_once(
    make_app, data_dir: Path
) -> None:
    """As with a file the player cannot write (chmod 444): SQLite refuses every write."""
    app = make_app()
    said: list[str] = []
    notify = app.notify

    def record(message: str, **kwargs: object) -> None:
        said.append(message)
        notify(message, **kwargs)

    app.notify = record
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        app.session.store.conn.execute("PRAGMA query_only = ON")
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, RoundScreen)
        for _ in range(3):
            await answer(pilot, app, True)
            assert app.screen.round.awaiting_next  # the feedback is showing
            await pilot.press("enter")
            await pilot.pause()
        await pilot.press("ctrl+z")  # undo works on what was played, unsaved
        await pilot.pause()
        assert app.screen.round.answered == 2
        await end_round(pilot, app)
        assert isinstance(app.screen, ResultsScreen)
        assert "2 of 2 questions right" in screen_text(app)
    warnings = [m for m in said if "read-only" in m]
    assert len(warnings) == 1, said  # once, not on every answer
    assert "not being saved" in warnings[0]
    store = app.session.store
    assert store.answers.count() == 0 and store.scoreboard.count() == 0


async def test_a_store_opened_read_only_says_so_at_once_on_the_home_screen(
    data_dir: Path, clock: Clock, monkeypatch: pytest.MonkeyPatch
) -> None:
    import vocabgame.store as store_module

    Store.open(data_dir / DB_NAME).close()
    monkeypatch.setattr(store_module.os, "access", lambda path, mode: False)
    store = Store.open(data_dir / DB_NAME)
    assert store.read_only is not None
    app = VocabApp(Session(store, load_catalog([DATA / "ui"]), clock=clock), settle_seconds=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, HomeScreen)
        text = "\n".join(str(n.message) for n in app._notifications)
        assert "read-only" in text and "not being saved" in text
    store.close()
