"""The footer names the keys a player needs to leave and to learn the rest: Escape while an
answer is typed (letters type then), and ? and q however narrow the terminal."""

from __future__ import annotations

from textual.widgets import Input
from textual.widgets._footer import FooterKey

from vocabgame.quiz import Kind
from vocabgame.ui.app import VocabApp
from vocabgame.ui.screens.confirm import ConfirmScreen
from vocabgame.ui.screens.round import RoundScreen

from .test_play import answer, skip_to


def footer(app: VocabApp) -> dict[str, str]:
    """The footer's keys as shown: each key's name and what it says it does."""
    return {key.key: key.description for key in app.screen.query(FooterKey)}


async def test_while_typing_the_footer_says_escape_clears_then_ends_the_round(make_app) -> None:
    app = make_app(start_round=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await answer(pilot, app, True)  # one answer kept, so ending the round asks first
        await pilot.press("enter")
        await pilot.pause()
        await skip_to(pilot, app, Kind.TYPED, Kind.NUMBER)
        screen = app.screen
        assert isinstance(screen, RoundScreen)
        await pilot.pause()
        keys = footer(app)
        assert keys.get("escape") == "End round"
        assert "q" not in keys  # q types a q
        await pilot.press("q", "x")
        await pilot.pause()
        assert screen.query_one("#answer", Input).value == "qx"
        assert footer(app).get("escape") == "Clear"
        await pilot.press("escape")
        await pilot.pause()
        assert screen.query_one("#answer", Input).value == ""
        assert footer(app).get("escape") == "End round"
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmScreen)


async def test_escape_is_not_shown_beside_q_when_nothing_is_typed(make_app) -> None:
    app = make_app(start_round=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await skip_to(pilot, app, Kind.CHOICE)
        await pilot.pause()
        keys = footer(app)
        assert keys.get("q") == "End round" and "escape" not in keys
        await pilot.press("escape")  # ... and still ends the round
        await pilot.pause()
        assert not isinstance(app.screen, RoundScreen)


async def test_the_results_and_the_interview_report_name_enter_as_their_footer_does(
    make_app,
) -> None:
    """The line above the footer and the footer call Enter one thing on each screen."""
    from vocabgame.ui.modes.interview import InterviewReportScreen
    from vocabgame.ui.screens.home import HomeScreen
    from vocabgame.ui.screens.results import ResultsScreen

    from .conftest import screen_text
    from .test_modes import INTERVIEW_DECKS, answer_interview
    from .test_play import play_round

    app = make_app(start_round=True)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        await play_round(pilot, app)
        assert isinstance(app.screen, ResultsScreen)
        assert footer(app)["enter"] == "Home"
        assert "Enter: home" in screen_text(app)
    app = make_app(folders=INTERVIEW_DECKS, start_round=True, mode="interview", questions=3)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        while not isinstance(app.screen, InterviewReportScreen):
            question = app.screen.interview.question()
            await answer_interview(pilot, app, question.key.face != "scenario")
        assert footer(app)["enter"] == "Next"  # ticking the recall answer
        await pilot.press("enter")
        await pilot.pause()
        assert footer(app)["enter"] == "Home"  # the report
        assert "Enter: home" in screen_text(app)
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, HomeScreen)
