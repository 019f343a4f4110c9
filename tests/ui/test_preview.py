"""`vocabgame preview`: an author plays a deck file's questions with the real screens, moves
between items, and sees each save of the file at once, errors included. Nothing is saved
where the player's progress lives."""

from __future__ import annotations

import shutil
from pathlib import Path

from textual.pilot import Pilot

from vocabgame.cli import main
from vocabgame.deck import Catalog
from vocabgame.play import Session
from vocabgame.store import DB_NAME, Store
from vocabgame.ui.preview import PreviewApp, PreviewScreen
from vocabgame.ui.screens.round import RoundScreen

from ..conftest import DATA
from .conftest import screen_text


def preview(tmp_path: Path, watching: bool = False, item: str | None = None) -> PreviewApp:
    deck = tmp_path / "decks" / "deck.yaml"
    deck.parent.mkdir()
    shutil.copy(DATA / "latency-basics.yaml", deck)
    store = Store.open(tmp_path / "scratch" / DB_NAME)
    return PreviewApp(
        Session(store, Catalog((), ())), deck, item=item, watching=watching, settle_seconds=0
    )


def shown(app: PreviewApp) -> str:
    """The screen's text, with the choices of the question on screen."""
    text = screen_text(app)
    if isinstance(app.screen, RoundScreen) and (question := app.screen.round.question()):
        text += "\n" + "\n".join(c.text for c in question.choices)
    return text


async def save_and_wait(
    pilot: Pilot, app: PreviewApp, content: str, text: str, seconds: float = 15
) -> str:
    """Save the deck file and let the watcher notice, until `text` shows. The save is
    repeated each second, as an author would, in case the watcher was not yet listening."""
    for tick in range(int(seconds / 0.1)):
        if tick % 10 == 0:
            app.path.write_text(content, encoding="utf-8")
        await pilot.pause(0.1)
        if text in shown(app):
            return shown(app)
    raise AssertionError(f"{text!r} never showed; the screen has:\n{shown(app)}")


async def stop_watching(pilot: Pilot, app: PreviewApp) -> None:
    """Stop the watcher before the test ends: a save repeated by `save_and_wait` on a busy
    machine may otherwise reload the deck while the app is closing."""
    app.workers.cancel_group(app, "watch")
    await pilot.pause()


def item_on_screen(app: PreviewApp) -> str:
    assert isinstance(app.screen, RoundScreen)
    question = app.screen.round.question()
    assert question is not None
    return question.key.item_id


async def test_preview_plays_every_face_in_order_and_saves_nothing(tmp_path, data_dir) -> None:
    app = preview(tmp_path)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, RoundScreen)
        round_ = app.screen.round
        assert [k.item_id for k in round_.queue][:3] == ["ttft", "ttft", "ttft"]
        assert "preview (no progress is kept)" in screen_text(app)
        await pilot.press("1")
        await pilot.pause()
        assert round_.answered == 1
    assert not (data_dir / DB_NAME).exists()  # the player's store was never opened
    with Store.open(tmp_path / "scratch" / DB_NAME) as scratch:
        assert (
            scratch.schedules.cards() == {} and scratch.scoreboard.count() == 0
        )  # nothing scheduled


async def test_keys_jump_between_items_and_show_every_face_of_one(tmp_path) -> None:
    app = preview(tmp_path)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        assert item_on_screen(app) == "ttft"
        await pilot.press("ctrl+n")
        await pilot.pause()
        assert item_on_screen(app) == "tpot"
        await pilot.press("ctrl+n", "ctrl+n")
        await pilot.pause()
        assert item_on_screen(app) == "weight-memory"
        await pilot.press("ctrl+p")
        await pilot.pause()
        assert item_on_screen(app) == "chat-slo"
        await pilot.press("ctrl+p", "ctrl+p")
        await pilot.pause()
        assert item_on_screen(app) == "ttft"
        await pilot.press("ctrl+o")
        await pilot.pause()
        queue = app.screen.round.queue
        assert {k.item_id for k in queue} == {"ttft"} and len(queue) == 3  # its three faces


async def test_a_saved_edit_reloads_on_the_same_item(tmp_path) -> None:
    app = preview(tmp_path, watching=True, item="tpot")
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        assert item_on_screen(app) == "tpot"
        text = app.path.read_text(encoding="utf-8")
        edited = text.replace("Average time between output tokens", "Mean gap between tokens")
        await save_and_wait(pilot, app, edited, "Mean gap between tokens")
        assert item_on_screen(app) == "tpot"
        await stop_watching(pilot, app)


async def test_a_broken_save_shows_its_errors_and_a_fix_resumes(tmp_path) -> None:
    app = preview(tmp_path, watching=True, item="chat-slo")
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        good = app.path.read_text(encoding="utf-8")
        broken = good.replace("title: Latency", "titel: Latency")
        text = await save_and_wait(pilot, app, broken, "error:")
        assert isinstance(app.screen, PreviewScreen)
        assert f"{app.path}:3:1: error: unknown key 'titel'" in text
        await pilot.press("ctrl+n")  # nothing to move to: the preview waits for a fix
        await save_and_wait(pilot, app, good, "Which metric should the target use?")
        assert item_on_screen(app) == "chat-slo"
        await stop_watching(pilot, app)


def test_preview_of_a_missing_file_is_one_sentence(tmp_path, capsys) -> None:
    assert main(["preview", str(tmp_path / "nope.yaml")]) == 2
    err = capsys.readouterr().err.strip()
    assert err.endswith("nope.yaml: no such deck file") and "\n" not in err


async def test_home_notices_an_edited_deck_and_shows_a_broken_one(
    tmp_path, make_app, clock
) -> None:
    """Edited decks in a running game: the home screen reads saved files again, keeps the
    progress of unchanged ids, and lists a file that no longer validates with its line."""
    from vocabgame.ui.screens.home import HomeScreen

    folder = tmp_path / "decks"
    folder.mkdir()
    deck = folder / "latency.yaml"
    shutil.copy(DATA / "latency-basics.yaml", deck)
    app = make_app(folders=[folder])
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, RoundScreen)
        await pilot.press("1")
        await pilot.pause()
        answered = app.session.store.answers.count()
        assert answered == 1
        text = deck.read_text(encoding="utf-8")
        deck.write_text(text.replace("title: Latency and throughput", "title: Latency 2"), "utf-8")
        await pilot.press("escape")  # end the round (and confirm)
        await pilot.pause()
        if not isinstance(app.screen, RoundScreen):
            await pilot.press("y")
            await pilot.pause()
        while not isinstance(app.screen, HomeScreen):
            await pilot.press("enter")
            await pilot.pause()
        assert "Latency 2" in screen_text(app)  # read again on the way back
        assert app.session.store.answers.count() == answered
        assert "1 answer so far" in screen_text(app)
        (folder / "broken.yaml").write_text("format: 1\nid: broken\ntitel: x\n", "utf-8")
        await pilot.press("r")
        await pilot.pause()
        shown = screen_text(app)
        assert "1 deck file could not be loaded" in shown
        assert (
            f"{folder / 'broken.yaml'}:1:1: error: the deck is missing required key 'title'"
            in shown
        )
