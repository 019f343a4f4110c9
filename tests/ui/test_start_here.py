"""A newcomer's way in: the decks an author numbered with `start_here` come first, the next one
not started is marked "start here", and a player with no answers finds the highlight on it."""

from __future__ import annotations

from pathlib import Path

from textual.widgets import DataTable

from vocabgame.ui.screens.home import HomeScreen

from ..conftest import DATA
from .conftest import screen_text
from .test_figures_agree import _round


def decks(tmp_path: Path) -> Path:
    """Three copies of the test deck: 'later' (start_here 2), 'first' (1) and 'other' (none)."""
    folder = tmp_path / "decks"
    folder.mkdir()
    text = (DATA / "ui" / "serving.yaml").read_text("utf-8")
    for name, title, place in (("a", "Other", None), ("b", "Later", 2), ("c", "First", 1)):
        header = f"id: {title.lower()}\ntitle: {title}\n"
        if place is not None:
            header += f"start_here: {place}\n"
        body = text.replace("id: serving\ntitle: Serving basics\n", header)
        (folder / f"{name}.yaml").write_text(body, "utf-8")
    return folder


def rows(app) -> list[str]:
    table = app.screen.query_one("#decks", DataTable)
    return [str(table.get_row_at(n)[0]) for n in range(table.row_count)]


async def test_a_newcomer_is_shown_where_to_begin_and_enter_plays_it(make_app, tmp_path) -> None:
    app = make_app(folders=[decks(tmp_path)])
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        assert rows(app) == ["All decks", "First · start here", "Later", "Other"]
        text = screen_text(app)
        assert "New here? Start with First (highlighted): press Enter" in text
        assert "Start here: the authors' first deck for someone new." in text
        assert app.screen.selected().id == "first"
        await _round(pilot, app)  # Enter plays the highlighted deck
        assert app.session.store.answers.count() > 0
        played = app.session.store.schedules.cards(["first", "later", "other"])
        assert {key.deck_id for key in played} == {"first"}
        assert isinstance(app.screen, HomeScreen)
        # Started: the mark moves on to the next deck in the authors' order.
        assert rows(app) == ["All decks", "First", "Later · start here", "Other"]
        assert "New here?" not in screen_text(app)
        assert "Learned 0 of" in screen_text(app)


async def test_with_answers_the_highlight_stays_where_the_player_left_it(
    make_app, tmp_path
) -> None:
    folder = decks(tmp_path)
    app = make_app(folders=[folder])
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        await pilot.press("down")  # Later
        await _round(pilot, app)
        # First is still the one to begin with, but the highlight does not jump back to it.
        assert rows(app) == ["All decks", "First · start here", "Later", "Other"]
        assert app.screen.selected().id == "later"
