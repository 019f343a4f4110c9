"""From 40x12 up, each screen fits, scrolls, or says it needs more room: the keys screen,
the mode picker, the home screen's decks, the footer's ? and q, the lab's charts."""

from __future__ import annotations

import pytest
from textual.containers import VerticalScroll
from textual.widgets import DataTable, OptionList, Static
from textual.widgets._footer import FooterKey

from vocabgame.quiz import Kind
from vocabgame.ui.app import VocabApp
from vocabgame.ui.screens.help import HelpScreen
from vocabgame.ui.screens.home import HomeScreen
from vocabgame.ui.screens.modes import ModePickerScreen

from .test_footer_keys import footer
from .test_play import skip_to

SMALL = [(40, 12), (60, 20)]
IDS = [f"{w}x{h}" for w, h in SMALL]


def on_screen(app: VocabApp, selector: str) -> bool:
    """Whether the widget `selector` names is shown whole inside the terminal."""
    region = app.screen.query_one(selector).region
    return (
        region.height > 0
        and region.x >= 0
        and region.right <= app.size.width
        and (region.bottom <= app.size.height)
    )


@pytest.mark.parametrize("size", SMALL, ids=IDS)
async def test_the_footer_keeps_the_keys_to_list_the_others_and_to_leave(make_app, size) -> None:
    app = make_app()
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        await pilot.pause()
        assert {"question_mark", "q"} <= set(footer(app))
        keys = list(app.screen.query(FooterKey))
        palette = [k.region.x for k in keys if k.has_class("-command-palette")]
        for key in keys:  # each whole on screen, none under the palette's key
            assert key.region.right <= min([app.size.width, *palette]) or key.region.x in palette
        await pilot.press("enter")  # a round
        await pilot.pause()
        await skip_to(pilot, app, Kind.CHOICE)
        await pilot.pause()
        assert {"question_mark", "q"} <= set(footer(app))


@pytest.mark.parametrize("size", SMALL, ids=IDS)
async def test_the_keys_screen_fits_and_scrolls_with_its_closing_line_in_view(
    make_app, size
) -> None:
    app = make_app()
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        await pilot.press("question_mark")
        await pilot.pause()
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        assert on_screen(app, "HelpScreen > Vertical")
        assert on_screen(app, "#close")
        keys = app.screen.query_one(VerticalScroll)
        assert keys.max_scroll_y > 0  # too many keys for the room: they scroll ...
        assert "more" in str(app.screen.query_one("#close", Static).content)  # ... and it says so
        await pilot.press("pagedown")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen) and keys.scroll_y > 0
        await pilot.press("x")  # any other key closes
        await pilot.pause()
        assert isinstance(app.screen, HomeScreen)


@pytest.mark.parametrize("size", SMALL, ids=IDS)
async def test_the_mode_picker_keeps_its_keys_line_and_scrolls_to_its_last_mode(
    make_app, size
) -> None:
    app = make_app()
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        await pilot.press("g")
        await pilot.pause()
        await pilot.pause()
        assert isinstance(app.screen, ModePickerScreen)
        assert on_screen(app, "#keys")
        assert "Enter: play" in str(app.screen.query_one("#keys", Static).content)
        modes = app.screen.query_one("#modes", OptionList)
        assert on_screen(app, "#modes")
        await pilot.press("end")
        await pilot.pause()
        assert modes.highlighted == modes.option_count - 1
        assert modes.scroll_y == modes.max_scroll_y  # the last mode in view, its keys too
        assert on_screen(app, "#keys")


async def test_on_a_40x12_terminal_the_home_screen_has_room_for_six_decks(make_app) -> None:
    app = make_app()
    async with app.run_test(size=(40, 12)) as pilot:
        await pilot.pause()
        await pilot.pause()
        table = app.screen.query_one("#decks", DataTable)
        assert table.region.height >= 7  # its header and six rows
        assert "Due: to review now" in str(app.screen.query_one("#intro-short", Static).content)


def lines(app: VocabApp, selector: str) -> list[str]:
    """The lines a widget draws, as text."""
    widget = app.screen.query_one(selector)
    return [widget.render_line(y).text.rstrip() for y in range(widget.size.height)]


@pytest.mark.parametrize("size", [(60, 20), (80, 24)], ids=["60x20", "80x24"])
async def test_the_labs_charts_keep_their_columns_over_their_batch_labels(make_app, size) -> None:
    app = make_app(open_lab=True)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        await pilot.pause()
        for chart in ("#lab-tpot-chart", "#lab-throughput-chart"):
            drawn = lines(app, chart)
            assert drawn[0].startswith(("TPOT by batch", "Tokens/s by batch"))
            # The last line labels the columns, the smallest batch first: no line wrapped.
            assert drawn[-1].split()[:3] == ["1", "4", "16"] and "1k" in drawn[-1], drawn
        assert not app.screen.query_one("#lab-no-room").display


async def test_on_a_short_terminal_the_lab_says_its_charts_need_more_rows(make_app) -> None:
    app = make_app(open_lab=True)
    async with app.run_test(size=(40, 12)) as pilot:
        await pilot.pause()
        await pilot.pause()
        assert not app.screen.query_one("#lab-charts").display
        assert on_screen(app, "#lab-no-room")
        assert "The charts need 20 rows." in lines(app, "#lab-no-room")[0]
        assert on_screen(app, "#lab-figures") and on_screen(app, "#lab-side")
