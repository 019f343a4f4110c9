"""What the game says once when it opens: a stored setting it could not use is named, with the
default that applies instead, and it is said once only."""

from __future__ import annotations

import json
from pathlib import Path

from vocabgame.deck import load_catalog
from vocabgame.play import Session
from vocabgame.store import DB_NAME, Store
from vocabgame.ui.app import VocabApp

from ..conftest import DATA
from .conftest import Clock
from .test_hostile_ui import toasts


async def test_a_damaged_stored_setting_is_said_once_when_the_game_opens(
    tmp_path: Path, clock: Clock
) -> None:
    store = Store.open(tmp_path / DB_NAME)
    store.conn.execute(
        "INSERT INTO settings (key, value) VALUES ('round_size', ?)", (json.dumps("lots"),)
    )
    session = Session(store, load_catalog([DATA / "ui"]), clock=clock, fuzz=False)
    assert session.settings.round_size == 20  # the default applies
    app = VocabApp(session, seed=7, settle_seconds=0)
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        await pilot.pause()
        await pilot.pause()  # the toast is drawn after the notification is raised
        said = [n.message for n in app._notifications if "round size" in n.message.lower()]
        assert len(said) == 1 and "damaged" in said[0] and "20" in said[0]
        assert any("damaged" in drawn for drawn in toasts(app))
        await pilot.press("enter")  # a round, and back: nothing says it again
        await pilot.pause()
        await pilot.press("q")
        await pilot.pause()
        said = [n.message for n in app._notifications if "damaged" in n.message]
        assert len(said) <= 1
    session.close()
