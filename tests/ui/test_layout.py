"""Layout as the screenshots showed it: the title's separator, lines that wrap hanging under
their label, dialog keys on one line, and the choices across a browser's width. Each test
plays the screen by keys and reads what it draws."""

from __future__ import annotations

from textual.widgets import Static

from vocabgame.ui.screens.challenge import ChallengeScreen
from vocabgame.ui.screens.confirm import ConfirmScreen
from vocabgame.ui.screens.results import ResultsScreen
from vocabgame.ui.screens.round import RoundScreen
from vocabgame.ui.widgets.title import TitleBar

from .conftest import plain
from .test_play import answer, play_round


async def test_the_titles_dash_keeps_its_space_in_a_picture_of_the_screen(make_app) -> None:
    """A run of styled text that starts with a space loses it in SVG viewers: the space
    before the dim dash goes with the title, so the picture does not read "vocabgame—"."""
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        title = str(app.screen.query_one(TitleBar).content)
        assert title == "vocabgame — AI inference and serving vocabulary"
        picture = app.export_screenshot()
        assert ">vocabgame&#160;</text>" in picture
        assert ">—&#160;" in picture and ">&#160;—" not in picture


async def test_the_missed_lists_wrapped_lines_hang_under_their_label(make_app) -> None:
    app = make_app(start_round=True)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        await play_round(pilot, app, right=False)
        assert isinstance(app.screen, ResultsScreen)
        drawn = plain(app.screen.query_one("#summary", Static).content, width=36).splitlines()
        missed = drawn[next(i for i, line in enumerate(drawn) if line.startswith("Missed")) + 1 :]
        labels = ("  You answered: ", "  Right answer: ")
        indent = ""  # how far the line wrapping on from the last one must hang
        hung = 0
        for line in missed:
            if line.startswith("• "):
                indent = "  "  # under the prompt, past the bullet
            elif line.startswith(labels):
                indent = " " * len(labels[0])  # under the answer, past its label
            elif line.strip():
                assert line.startswith(indent), missed
                hung += 1
        assert hung > 2, missed  # the width made prompts and answers wrap


async def test_the_lab_challenges_verdicts_hang_under_their_mark(make_app) -> None:
    app = make_app(open_lab=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("x")
        assert isinstance(app.screen, ChallengeScreen)
        await pilot.press("1", "1")
        drawn = plain(app.screen.query_one("#challenge-text", Static).content, width=30)
        lines = drawn.splitlines()
        start = next(i for i, line in enumerate(lines) if line.startswith("The lab says"))
        verdicts = lines[start + 1 :]
        verdicts = verdicts[: next(i for i, line in enumerate(verdicts) if not line.strip())]
        assert any(line.startswith(("  ✓ right: ", "  ✗ wrong: ")) for line in verdicts)
        wrapped = [line for line in verdicts if not line.startswith(("  ✓", "  ✗"))]
        assert wrapped, verdicts  # the width makes a verdict wrap
        for line in wrapped:
            assert line.startswith(" " * len("  ✓ right: ")), verdicts


async def test_the_end_round_dialogs_keys_take_one_line_at_100_columns(make_app) -> None:
    app = make_app(start_round=True)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        await answer(pilot, app, True)
        await pilot.press("q")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmScreen)
        keys = app.screen.query_one("#keys", Static)
        assert keys.region.height == 1
        assert "y or Enter: End round   n or Escape: Keep playing" in plain(keys.content)
    app = make_app(start_round=True)
    async with app.run_test(size=(40, 20)) as pilot:  # no room: one key a line, unbroken
        await pilot.pause()
        await answer(pilot, app, True)
        await pilot.press("q")
        await pilot.pause()
        keys = app.screen.query_one("#keys", Static)
        assert plain(keys.content).splitlines() == [
            "y or Enter: End round",
            "n or Escape: Keep playing",
        ]
        assert keys.region.height == 2


async def test_the_choices_run_across_a_browsers_width(make_app) -> None:
    app = make_app(start_round=True)
    async with app.run_test(size=(143, 36)) as pilot:  # a browser window's terminal
        await pilot.pause()
        assert isinstance(app.screen, RoundScreen)
        choices = app.screen.query_one("#choices")
        assert choices.display
        assert choices.region.width == app.screen.region.width
