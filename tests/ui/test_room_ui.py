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
            assert plain(screen.query_one("#verdict", Static).render()) == ""
            assert "1. " in plain(screen.query_one("#question", Static).render())
            await pilot.press(str(right_choice(me, mine) + 1))
            await pilot.pause()
            assert me.answer_choice(0) is None  # answered: waiting for the next
            assert plain(screen.query_one("#verdict", Static).render()) == "✓ Right."
            shown = plain(screen.query_one("#question", Static).render())
            assert shown == "Waiting for the next question."
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


async def test_three_games_play_one_room_and_each_shows_the_ranking_of_their_answers(
    data_dir: Path, clock: Clock
) -> None:
    catalog = load_catalog([DATA / "ui"])
    room = open_room(data_dir, catalog.decks, clock(), seed=4, questions=2, seconds=20)
    names = ["Ana", "Bo", "Cy"]
    apps = []
    for name in names:
        folder = add_player(data_dir, name).folder(data_dir)
        session = Session(Store.open(folder / DB_NAME), catalog, clock=clock, tz=UTC, fuzz=False)
        apps.append(VocabApp(session, root=data_dir, seed=7, settle_seconds=0))
    # Per question, per player: right, wrong or no answer; each answers a second after the last.
    script = [(True, True, None), (False, True, True)]
    async with (
        apps[0].run_test() as p0,
        apps[1].run_test() as p1,
        apps[2].run_test() as p2,
    ):
        pilots = (p0, p1, p2)
        for app, pilot in zip(apps, pilots, strict=True):
            # Each app runs in a task of its own: what it does is done there, not from here.
            app.call_later(app.show_room)
            await pilot.pause()
        screens = [app.screen for app in apps]
        assert all(isinstance(s, RoomScreen) for s in screens)
        for index, answers in enumerate(script):
            clock.now = room.opens(index)
            for who, right in enumerate(answers):
                clock.advance(seconds=1)
                screen = screens[who]
                assert isinstance(screen, RoomScreen)
                apps[who].call_later(screen.tick)
                await pilots[who].pause()
                if right is not None:
                    await pilots[who].press(str(right_choice(screen.play, right) + 1))
        clock.now = room.ends_at
        for app, pilot, screen in zip(apps, pilots, screens, strict=True):
            assert isinstance(screen, RoomScreen)
            app.call_later(screen.tick)
            await pilot.pause()
            board = screen.query_one(DataTable)
            rows = [[str(c) for c in board.get_row_at(r)] for r in range(board.row_count)]
            # Bo 2 right (2 + 2 s), Ana 1 right (1 s), Cy 1 right (3 s).
            assert rows == [
                ["1", "Bo", "2", "4.0", "✓✓"],
                ["2", "Ana", "1", "1.0", "✓✗"],
                ["3", "Cy", "1", "3.0", "·✓"],
            ]
    for app, answers in zip(apps, zip(*script, strict=True), strict=True):
        saved = app.session.store.conn.execute("SELECT correct FROM reviews ORDER BY id")
        # A question seen and left unanswered is saved as the time running out.
        assert [bool(c) for (c,) in saved] == [bool(a) for a in answers]
        app.session.close()
