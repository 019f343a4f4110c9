"""Who is playing? The chooser a browser tab of `vocabgame serve` opens on, and the
leaderboard screen, played by keys with Pilot."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC
from pathlib import Path

import pytest
from textual.widgets import DataTable, Input, OptionList, Static

from vocabgame.deck import load_catalog
from vocabgame.play import Session
from vocabgame.players import Player, add_player, read_registry
from vocabgame.store import DB_NAME, Store
from vocabgame.ui.app import VocabApp
from vocabgame.ui.choosing import ChoosingApp
from vocabgame.ui.screens.home import HomeScreen
from vocabgame.ui.screens.leaderboard import LeaderboardScreen
from vocabgame.ui.screens.players import PlayerChooser

from ..conftest import DATA
from .conftest import Clock, plain


@pytest.fixture
def make_choosing(data_dir: Path, clock: Clock) -> Callable[[], ChoosingApp]:
    opened: list[Session] = []

    def open_player(player: Player) -> Session:
        store = Store.open(player.folder(data_dir) / DB_NAME)
        session = Session(store, load_catalog([DATA / "ui"]), clock=clock, tz=UTC, fuzz=False)
        opened.append(session)
        return session

    yield lambda: ChoosingApp(data_dir, open_player, seed=7, settle_seconds=0)
    for session in opened:
        session.close()


def _names(app: ChoosingApp) -> list[str]:
    listing = app.screen.query_one(OptionList)
    return [str(listing.get_option_at_index(i).prompt) for i in range(listing.option_count)]


async def test_it_opens_on_who_is_playing_and_enter_plays_as_the_one_picked(
    make_choosing: Callable[[], ChoosingApp], data_dir: Path
) -> None:
    ana = add_player(data_dir, "Ana")
    app = make_choosing()
    async with app.run_test() as pilot:
        assert isinstance(app.screen, PlayerChooser)
        assert "Who is playing?" in plain(app.screen.query_one("#title", Static).render())
        assert _names(app) == ["default", "Ana"]
        await pilot.press("down", "enter")
        await pilot.pause()
        assert isinstance(app.screen, HomeScreen)
        assert app.player == ana
        assert app.session.store.path == data_dir / "players" / "2" / DB_NAME
    assert not (data_dir / DB_NAME).exists()  # the default player's store untouched


async def test_a_name_typed_adds_a_player_on_the_leaderboard_and_plays_as_them(
    make_choosing: Callable[[], ChoosingApp], data_dir: Path
) -> None:
    app = make_choosing()
    async with app.run_test() as pilot:
        await pilot.press("tab")
        assert isinstance(app.focused, Input)
        await pilot.press(*"[b]Zoë[/b]", "enter")
        await pilot.pause()
        assert isinstance(app.screen, HomeScreen)
    [_, zoe] = read_registry(data_dir).players
    assert (zoe.name, zoe.leaderboard, zoe.id) == ("[b]Zoë[/b]", True, "2")
    assert app.session.store.path == data_dir / "players" / "2" / DB_NAME


async def test_a_name_taken_in_another_case_is_one_sentence_and_no_player(
    make_choosing: Callable[[], ChoosingApp], data_dir: Path
) -> None:
    add_player(data_dir, "Ana")
    app = make_choosing()
    async with app.run_test() as pilot:
        await pilot.press("tab", *"ANA", "enter")
        await pilot.pause()
        assert isinstance(app.screen, PlayerChooser)
        said = plain(app.screen.query_one("#problem", Static).render())
        assert said == (
            "There is already a player named 'Ana'; names differing only in case are the same name."
        )
    assert [p.name for p in read_registry(data_dir).players] == ["default", "Ana"]


async def test_markup_in_a_name_is_shown_as_written(
    make_choosing: Callable[[], ChoosingApp], data_dir: Path
) -> None:
    add_player(data_dir, "[red]Bo[/red] \\[x]")
    app = make_choosing()
    async with app.run_test():
        assert _names(app) == ["default", "[red]Bo[/red] \\[x]"]


async def test_w_shows_the_leaderboard_of_those_who_agreed(
    make_choosing: Callable[[], ChoosingApp], data_dir: Path
) -> None:
    add_player(data_dir, "Ana", leaderboard=True)
    add_player(data_dir, "Bo")
    app = make_choosing()
    async with app.run_test() as pilot:
        await pilot.press("w")
        await pilot.pause()
        assert isinstance(app.screen, LeaderboardScreen)
        board = app.screen.query_one(DataTable)
        assert board.row_count == 1 and str(board.get_row_at(0)[1]) == "Ana"
        note = plain(app.screen.query_one("#note", Static).render())
        assert "2 player(s) chose not to appear." in note
        await pilot.press("escape")
        assert isinstance(app.screen, PlayerChooser)


async def test_the_home_screens_palette_offers_the_leaderboard(
    make_app: Callable[..., VocabApp], data_dir: Path
) -> None:
    from vocabgame.ui.commands import HomeCommands

    add_player(data_dir, "Ana", leaderboard=True)
    app = make_app(root=data_dir)
    async with app.run_test() as pilot:
        entries = {text: run for text, run, _ in HomeCommands(app.screen).commands()}
        entries["Leaderboard"]()
        await pilot.pause()
        assert isinstance(app.screen, LeaderboardScreen)
        assert str(app.screen.query_one(DataTable).get_row_at(0)[1]) == "Ana"


async def test_at_40x12_many_players_scroll_and_the_new_name_box_stays_in_view(
    make_choosing: Callable[[], ChoosingApp], data_dir: Path
) -> None:
    for name in ("Ana", "Bo", "Cy", "Dee", "Eve", "Fay", "Gus"):
        add_player(data_dir, name)
    app = make_choosing()
    async with app.run_test(size=(40, 12)):
        box = app.screen.query_one(Input).region
        assert box.height and box.bottom <= 11  # above the footer's line
        assert app.screen.query_one(OptionList).option_count == 8
