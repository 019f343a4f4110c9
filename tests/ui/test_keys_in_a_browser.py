"""Keys that survive a browser: every action has a key that browsers leave to the page, undo
and flag work while typing without Ctrl, and the keys screen shows only the keys that work in
the front end the game is played in."""

from __future__ import annotations

import pytest
from textual.binding import Binding
from textual.widgets import Input

from vocabgame.quiz import Kind
from vocabgame.ui.app import VocabApp
from vocabgame.ui.screens.help import HelpScreen, key_rows, works_in_browser
from vocabgame.ui.screens.home import HomeScreen
from vocabgame.ui.screens.results import ResultsScreen
from vocabgame.ui.screens.round import RoundScreen

from .test_play import skip_to


@pytest.mark.parametrize("screen", [HomeScreen, RoundScreen, ResultsScreen])
def test_every_action_has_a_key_a_browser_leaves_to_the_page(screen: type) -> None:
    for binding in screen.BINDINGS:
        assert isinstance(binding, Binding)
        keys = binding.key.split(",")
        assert any(works_in_browser(k) for k in keys), (screen.__name__, binding.action)


def test_browsers_take_ctrl_chords_and_their_own_function_keys() -> None:
    assert not any(map(works_in_browser, ["ctrl+f", "ctrl+z", "ctrl+w", "ctrl+q", "alt+f"]))
    assert not any(map(works_in_browser, ["f1", "f3", "f5", "f6", "f7", "f10", "f11", "f12"]))
    assert all(map(works_in_browser, ["u", "f", "q", "1", "enter", "escape", "f2", "f4"]))


def test_a_row_whose_keys_all_need_a_terminal_is_left_out_in_a_browser() -> None:
    bindings = [
        Binding("u,f2,ctrl+z", "undo", tooltip="undo"),
        Binding("ctrl+q", "quit", tooltip="quit"),
    ]
    assert key_rows(bindings) == [("u / F2 / Ctrl+Z", "undo"), ("Ctrl+Q", "quit")]
    assert key_rows(bindings, browser=True) == [("u / F2", "undo")]


async def test_f2_undoes_and_f4_flags_while_an_answer_is_typed(make_app) -> None:
    app = make_app(start_round=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await skip_to(pilot, app, Kind.TYPED, Kind.NUMBER)
        screen = app.screen
        assert isinstance(screen, RoundScreen)
        key = screen.round.question().key
        answered = app.session.store.answers.count()
        assert answered > 0
        await pilot.press("u", "f", "f4")
        await pilot.pause()
        assert screen.query_one("#answer", Input).value == "uf"  # letters type
        [(flagged, _, _)] = app.session.store.face_flags.all()
        assert flagged == key
        await pilot.press("escape")  # no note for the flag
        await pilot.pause()
        assert app.screen is screen
        await pilot.press("f2")
        await pilot.pause()
        assert app.session.store.answers.count() == answered - 1


@pytest.mark.parametrize("web", [False, True])
async def test_the_keys_screen_shows_the_keys_of_this_front_end(
    make_app, monkeypatch: pytest.MonkeyPatch, web: bool
) -> None:
    monkeypatch.setattr(VocabApp, "is_web", property(lambda self: web))
    app = make_app(start_round=True)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        await skip_to(pilot, app, Kind.CHOICE)
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        rows = {what: keys for keys, what in app.screen.rows}
    tooltip = {b.action: b.tooltip for b in RoundScreen.BINDINGS if isinstance(b, Binding)}
    assert rows[tooltip["undo"]] == ("u / F2" if web else "u / F2 / Ctrl+Z")
    assert rows[tooltip["flag"]] == ("f / F4" if web else "f / F4 / Ctrl+F")
    assert ("quit" in rows) is not web  # Ctrl+Q quits the browser, not the game
    assert not web or not any("Ctrl" in keys for keys in rows.values())
