"""The settings screen's chart of what each desired retention would cost (`vocabgame.simulate`):
the screen opens at once, the chart follows, with the setting now and the cheapest marked."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

import pytest
from textual.pilot import Pilot
from textual.widgets import Static

from vocabgame.ui.app import VocabApp
from vocabgame.ui.screens.settings import SettingsScreen

from .conftest import plain


async def drawn(pilot: Pilot[object], chart: Static) -> str:
    """The chart's text once it is drawn (it is worked out just after the screen shows)."""
    for _ in range(200):
        text = plain(chart.content, width=100)
        if "Working out" not in text:
            return text
        await pilot.pause(0.05)
    raise AssertionError("the chart was never drawn")


async def test_the_chart_marks_the_setting_and_the_cheapest(
    make_app: Callable[..., VocabApp],
) -> None:
    app = make_app()
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.pause()
        await pilot.press("s")
        await pilot.pause()
        assert isinstance(app.screen, SettingsScreen)
        chart = app.screen.query_one("#retention-chart", Static)
        text = await drawn(pilot, chart)
        assert "Minutes a day over the next 30 days" in text
        lines = [line for line in text.splitlines() if line[:4].replace(".", "").isdigit()]
        assert [line[:4] for line in lines] == [
            "0.70",
            "0.75",
            "0.80",
            "0.85",
            "0.90",
            "0.95",
            "0.97",
        ]
        assert "now" in lines[4]  # the default retention, 0.9
        assert sum("cheapest" in line for line in lines) == 1
        # a higher retention costs more minutes: the bars grow down the chart
        assert lines[-1].count("█") > lines[0].count("█")


async def test_a_retention_off_the_grid_is_shown_too(make_app: Callable[..., VocabApp]) -> None:
    app = make_app()
    app.session.change_settings(app.session.settings.changed(desired_retention=0.88))
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.pause()
        await pilot.press("s")
        await pilot.pause()
        text = await drawn(pilot, app.screen.query_one("#retention-chart", Static))
        assert any(line.startswith("0.88") and "now" in line for line in text.splitlines())


async def test_leaving_the_screen_while_the_chart_is_worked_out_is_safe(
    make_app: Callable[..., VocabApp], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A player who opens the settings and goes back while the chart is being worked out:
    the work finds no screen to draw on and stops; the game goes on."""
    import vocabgame.simulate
    from vocabgame.ui.screens.home import HomeScreen

    simulate_one = vocabgame.simulate.simulate_one
    started = asyncio.Event()

    def first_then_wait(*args, **kwargs):  # type: ignore[no-untyped-def]
        started.set()
        return simulate_one(*args, **kwargs)

    monkeypatch.setattr(vocabgame.simulate, "simulate_one", first_then_wait)
    app = make_app()
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.pause()
        await pilot.press("s")
        assert isinstance(app.screen, SettingsScreen)
        await asyncio.wait_for(started.wait(), 10)  # the first retention is simulated
        app.pop_screen()  # as Escape does, while the rest are still to come
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert isinstance(app.screen, HomeScreen) and app.is_running
        monkeypatch.setattr(vocabgame.simulate, "simulate_one", simulate_one)
        await pilot.press("s")  # and the screen opens and draws again
        await pilot.pause()
        assert isinstance(app.screen, SettingsScreen)
        chart = app.screen.query_one("#retention-chart", Static)
        assert "Minutes a day" in await drawn(pilot, chart)
