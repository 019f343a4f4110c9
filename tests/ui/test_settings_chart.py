"""The settings screen's chart of what each desired retention would cost (`vocabgame.simulate`):
the screen opens at once, the chart follows, with the setting now and the cheapest marked."""

from __future__ import annotations

from collections.abc import Callable

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
