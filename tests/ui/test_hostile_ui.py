"""Hostile names on screen: a data folder or deck file named with markup and terminal escapes
is shown literally, with its control characters escaped, and never crashes the game."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from textual.widgets import Input, Static

from vocabgame.deck import load_catalog
from vocabgame.play import Session
from vocabgame.quiz import Kind
from vocabgame.store import DB_NAME, Store
from vocabgame.ui.app import VocabApp
from vocabgame.ui.screens.home import HomeScreen
from vocabgame.ui.screens.round import RoundScreen

from ..conftest import DATA
from .conftest import Clock, screen_text
from .test_play import answer, skip_to

# Closing markup that opens nothing (Textual raises on it), markup that would style, and an
# OSC 52 sequence that would write the terminal's clipboard.
OSC52 = "\x1b]52;c;aGk=\x07"
HOSTILE = f"x[/]y [bold]z{OSC52}"
SHOWN = "x[/]y [bold]z\\x1b]52;c;aGk=\\x07"


def toasts(app: VocabApp) -> list[str]:
    """The text of every notification on screen, as drawn."""
    return [str(toast.render()) for toast in app.screen.query("Toast")]


@pytest.mark.parametrize("trouble", ["read-only", "locked"])
async def test_a_store_error_naming_a_hostile_data_folder_is_shown_literally(
    tmp_path: Path, clock: Clock, trouble: str
) -> None:
    """Read-only: the game goes on and warns that nothing is saved. Locked: the answer is
    refused and the question stays. Either way the sentence names the folder, literally."""
    path = tmp_path / HOSTILE / DB_NAME
    store = Store.open(path)
    session = Session(store, load_catalog([DATA / "ui"]), clock=clock, fuzz=False)
    app = VocabApp(session, seed=7, start_round=True, settle_seconds=0)
    other = sqlite3.connect(path, isolation_level=None)
    try:
        async with app.run_test(size=(100, 30), notifications=True) as pilot:
            await pilot.pause()
            await skip_to(pilot, app, Kind.CHOICE)
            before = store.answers.count()
            if trouble == "read-only":
                store.conn.execute("PRAGMA query_only = ON")  # every write now fails
            else:
                store.conn.execute("PRAGMA busy_timeout = 50")
                other.execute("BEGIN EXCLUSIVE")
            await answer(pilot, app, True)
            await pilot.pause()
            await pilot.pause()  # the toast is drawn after the notification is raised
            assert isinstance(app.screen, RoundScreen)  # still playing: nothing crashed
            [note] = [n.message for n in app._notifications]
            assert SHOWN in note and "\x1b" not in note
            [drawn] = toasts(app)
            title = "Not saving" if trouble == "read-only" else "Answer not saved"
            assert drawn.startswith(title) and SHOWN in drawn
        assert app.return_code in (None, 0)
        assert store.answers.count() == before
    finally:
        if other.in_transaction:
            other.execute("ROLLBACK")
        other.close()
        session.close()


async def test_a_deck_file_with_a_hostile_name_is_listed_escaped_on_the_home_screen(
    tmp_path: Path, clock: Clock
) -> None:
    folder = tmp_path / "decks"
    folder.mkdir()
    bad = folder / f"{HOSTILE}.yaml"  # the '/' in it makes a subfolder 'x['
    bad.parent.mkdir(parents=True)
    bad.write_text("format: 1\n", encoding="utf-8")
    store = Store.open(tmp_path / "data" / DB_NAME)
    session = Session(store, load_catalog([DATA / "ui", folder]), clock=clock, fuzz=False)
    app = VocabApp(session, seed=7, settle_seconds=0)
    try:
        async with app.run_test(size=(120, 30)) as pilot:
            await pilot.pause()
            assert isinstance(app.screen, HomeScreen)
            problems = str(app.screen.query_one("#problems", Static).content)
            assert f"{SHOWN}.yaml" in problems
            assert "\x1b" not in problems and "\x07" not in problems
            assert "Serving basics" in screen_text(app)
    finally:
        session.close()


async def test_markup_in_a_deck_title_is_shown_literally(tmp_path: Path, clock: Clock) -> None:
    folder = tmp_path / "decks"
    folder.mkdir()
    text = (DATA / "ui" / "serving.yaml").read_text(encoding="utf-8")
    (folder / "serving.yaml").write_text(
        text.replace("title: Serving basics", 'title: "Serving [/] [bold]basics"', 1),
        encoding="utf-8",
    )
    store = Store.open(tmp_path / "data" / DB_NAME)
    session = Session(store, load_catalog([folder]), clock=clock, fuzz=False)
    app = VocabApp(session, deck="serving", seed=7, start_round=True, settle_seconds=0)
    try:
        async with app.run_test(size=(120, 30)) as pilot:
            await pilot.pause()
            assert isinstance(app.screen, RoundScreen)
            assert "Serving [/] [bold]basics" in screen_text(app)
            await pilot.press("escape")
            await pilot.pause()
            assert "Serving [/] [bold]basics" in screen_text(app)  # the results screen
    finally:
        session.close()


async def test_a_pasted_answer_holding_an_escape_is_shown_escaped(make_app) -> None:
    """What the player typed (or pasted) stays in its box after the answer, escaped, and the
    results show it escaped too."""
    app = make_app(deck="serving", start_round=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        round_ = app.screen.round
        round_.queue[0] = type(round_.queue[0])("serving", "ttft", "typed")
        app.screen.show_question()
        await pilot.pause()
        field = app.screen.query_one("#answer", Input)
        field.value = f"no{OSC52}"
        await pilot.press("enter")
        await pilot.pause()
        assert "✗ Not quite" in screen_text(app)
        assert field.value == "no\\x1b]52;c;aGk=\\x07"
        await pilot.press("q", "y")
        await pilot.pause()
        text = screen_text(app)
        assert "You answered: no\\x1b]52;c;aGk=\\x07" in text
        assert "\x1b" not in text and "\x07" not in text
    assert app.session.store.answers.all()[-1].answer == f"no{OSC52}"  # stored as given
