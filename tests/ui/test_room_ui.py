"""A room at a meetup on screen, played by keys with Pilot beside players answering from the
core, each on their own store, on one fake clock."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, timedelta
from pathlib import Path

from textual.widgets import DataTable, Static

from vocabgame.deck import load_catalog
from vocabgame.play import Session
from vocabgame.play.room import RoomPlay, open_room
from vocabgame.players import add_player
from vocabgame.quiz import Kind
from vocabgame.store import DB_NAME, Store
from vocabgame.ui.app import VocabApp
from vocabgame.ui.commands import HomeCommands
from vocabgame.ui.screens.home import HomeScreen
from vocabgame.ui.screens.room import RoomScreen

from ..conftest import DATA
from .conftest import Clock, plain


def other_player(data_dir: Path, name: str, clock: Clock) -> tuple[Session, RoomPlay]:
    """A second player of the data folder, on their own store, joined from the core."""
    player = add_player(data_dir, name)
    store = Store.open(player.folder(data_dir) / DB_NAME)
    session = Session(store, load_catalog([DATA / "ui"]), clock=clock, tz=UTC, fuzz=False)
    from vocabgame.play.room import read_room

    room = read_room(data_dir)
    assert room is not None
    return session, RoomPlay(session, player, data_dir, room)


def right_choice(play: RoomPlay, right: bool = True) -> int:
    q = play.question()
    assert q is not None and q.kind == Kind.CHOICE
    return next(i for i, c in enumerate(q.choices) if (c.value == q.answer) == right)


async def test_a_room_joined_from_the_palette_plays_to_a_ranking(
    make_app: Callable[..., VocabApp], data_dir: Path, clock: Clock
) -> None:
    decks = load_catalog([DATA / "ui"]).decks
    room = open_room(data_dir, decks, clock(), seed=3, questions=2, seconds=20, lead_seconds=10)
    app = make_app(root=data_dir)
    bo_session, bo = other_player(data_dir, "[b]Bo[/b]", clock)
    async with app.run_test() as pilot:
        assert isinstance(app.screen, HomeScreen)
        entries = {text: run for text, run, _ in HomeCommands(app.screen).commands()}
        entries["Join the room"]()
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, RoomScreen)
        assert "starts in 10 s" in plain(screen.query_one("#title", Static).render())
        me = screen.play
        for index, (mine, bos) in enumerate([(True, True), (True, False)]):
            clock.now = room.opens(index) + timedelta(seconds=2 + index)
            screen.tick()
            await pilot.press(str(right_choice(me, mine) + 1))
            await pilot.pause()
            assert me.answer_choice(0) is None  # answered: waiting for the next
            clock.now += timedelta(seconds=3)
            bo.sync()
            bo.answer_choice(right_choice(bo, bos))
        clock.now = room.ends_at
        screen.tick()
        assert "final ranking" in plain(screen.query_one("#title", Static).render())
        board = screen.query_one(DataTable)
        rows = [[str(c) for c in board.get_row_at(r)] for r in range(board.row_count)]
        assert rows == [["1", "default", "2", "5.0", "✓✓"], ["2", "[b]Bo[/b]", "1", "5.0", "✓✗"]]
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, HomeScreen)
        entries = {text for text, _, _ in HomeCommands(app.screen).commands()}
        assert "Join the room" not in entries  # over: nothing to join
    mine_saved = app.session.store.conn.execute("SELECT COUNT(*) FROM reviews").fetchone()[0]
    bos_saved = bo_session.store.conn.execute("SELECT COUNT(*) FROM reviews").fetchone()[0]
    assert (mine_saved, bos_saved) == (2, 2)
    bo_session.close()


async def test_the_host_starts_a_room_from_the_palette_and_a_second_is_refused(
    make_app: Callable[..., VocabApp], data_dir: Path, clock: Clock
) -> None:
    from vocabgame.play.room import read_room

    app = make_app(root=data_dir)
    async with app.run_test() as pilot:
        entries = {text: run for text, run, _ in HomeCommands(app.screen).commands()}
        assert "Join the room" not in entries
        entries["Start a room"]()
        await pilot.pause()
        assert isinstance(app.screen, RoomScreen)
        room = read_room(data_dir)
        assert room is not None and room.seed == 7 and room.seconds == 30
        assert room.starts_at == clock() + timedelta(seconds=30)
        await pilot.press("escape")
        await pilot.pause()
        entries = {text: run for text, run, _ in HomeCommands(app.screen).commands()}
        assert "Start a room" not in entries and "Join the room" in entries
