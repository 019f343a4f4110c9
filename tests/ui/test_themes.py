"""Themes that do not lean on colour alone: every theme the settings offer draws right and
wrong with ✓ and ✗, and the game's own two themes colour them with their own hues (sky blue
and vermillion in the colour-blind-safe one, never green against red)."""

from __future__ import annotations

import pytest
from rich.style import Style
from rich.text import Text
from textual.widgets import Static

from vocabgame.quiz import Kind
from vocabgame.settings import SPEC
from vocabgame.ui import palette
from vocabgame.ui.screens.round import RoundScreen
from vocabgame.ui.screens.settings import SettingsScreen

from .conftest import screen_text
from .test_play import answer, skip_to

THEMES = SPEC["theme"].choices


def colour_of(text: Text, mark: str) -> str | None:
    """The colour `mark` is drawn in, as a name or #rrggbb."""
    start = text.plain.index(mark)
    style = Style.null()
    for span in text.spans:
        if span.start <= start < span.end:
            style += Style.parse(str(span.style)) if isinstance(span.style, str) else span.style
    style = Style.parse(str(text.style)) + style if text.style else style
    return (
        None
        if style.color is None
        else (style.color.name if style.color.triplet is None else style.color.triplet.hex)
    )


@pytest.mark.parametrize("theme", THEMES)
async def test_right_and_wrong_carry_a_mark_in_every_theme(make_app, theme) -> None:
    app = make_app()
    app.session.change_settings(app.session.settings.changed(theme=theme))
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        assert app.theme == theme
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, RoundScreen)
        verdicts = []
        for right in (True, False):
            await skip_to(pilot, app, Kind.CHOICE)
            await pilot.pause()
            await answer(pilot, app, right)
            verdicts.append(app.screen.query_one("#label", Static).content)
            assert ("✓" if right else "✗") in screen_text(app)
            await pilot.press("enter")
            await pilot.pause()
        good, bad = verdicts
        assert isinstance(good, Text) and good.plain.startswith("✓ Right")
        assert isinstance(bad, Text) and bad.plain.startswith("✗ Not quite")
        own = {t.name: t for t in palette.THEMES}.get(theme)
        if own is None:  # Textual's themes: the terminal's green and red
            assert (colour_of(good, "✓"), colour_of(bad, "✗")) == ("green", "red")
        else:
            assert colour_of(good, "✓") == own.success.lower()
            assert colour_of(bad, "✗") == own.error.lower()


async def test_a_theme_chosen_in_the_settings_is_used_at_once(make_app) -> None:
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        await pilot.press("s")
        await pilot.pause()
        assert isinstance(app.screen, SettingsScreen)
        app.screen.query_one("#set-theme").focus()
        steps = THEMES.index("colour-blind-safe") - THEMES.index(app.session.settings.theme)
        await pilot.press("enter", *["down"] * steps, "enter")  # open the list, pick, close
        await pilot.pause()
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert app.theme == "colour-blind-safe"
        assert app.session.settings.theme == "colour-blind-safe"
        assert palette.right() == f"bold {palette.COLOUR_BLIND_SAFE.success}"
