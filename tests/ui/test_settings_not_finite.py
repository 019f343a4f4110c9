"""The settings screen refuses NaN and infinities, as it refuses any value out of range: the
reason under the field, and nothing saved."""

from __future__ import annotations

from textual.widgets import Input

from vocabgame.settings import Settings
from vocabgame.ui.screens.settings import SettingsScreen

from .conftest import screen_text
from .test_play import keys_for

REFUSED = [
    ("desired_retention", "nan", "Desired retention is a number from 0.7 to 0.99, not nan."),
    ("desired_retention", "-inf", "Desired retention is a number from 0.7 to 0.99, not -inf."),
    ("round_size", "1e999", "Round size is a whole number, not inf."),
]


async def test_nan_or_infinity_on_the_settings_screen_is_refused_and_nothing_saved(
    make_app,
) -> None:
    app = make_app()
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.pause()
        await pilot.press("s")
        await pilot.pause()
        for field, text, reason in REFUSED:
            assert isinstance(app.screen, SettingsScreen)  # nothing saved, so still here
            box = app.screen.query_one(f"#set-{field}", Input)
            box.focus()
            box.value = ""
            await pilot.press(*keys_for(text), "enter")
            await pilot.pause()
            assert reason in " ".join(screen_text(app).split())
            box.value = str(getattr(Settings(), field))
        assert isinstance(app.screen, SettingsScreen)
    assert app.session.store.preferences.read()[0] == Settings()
