"""Pictures of the game modes' screens (interview, challenge, drill), the mode picker and the
keys screen, at 100x30 and the smallest at 60x20, each reached by keys from the home screen.
They pin down what the screens look like, so a change meant to leave them alone can show it
did. Review the SVGs as pictures after `pytest -n 0 --snapshot-update <this file>`.

The session clock stands still (the `clock` fixture), so the interview's clock and the
challenge's countdown read the same in every run, whenever their intervals redraw them."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import pytest
from textual.pilot import Pilot

from vocabgame.model import FaceKey
from vocabgame.quiz import Kind
from vocabgame.ui.app import VocabApp
from vocabgame.ui.modes.challenge import ChallengeResultsScreen, ChallengeScreen
from vocabgame.ui.modes.drill import DrillScreen
from vocabgame.ui.modes.interview import InterviewReportScreen, InterviewScreen
from vocabgame.ui.screens.browse import BrowseScreen
from vocabgame.ui.screens.help import HelpScreen
from vocabgame.ui.screens.home import HomeScreen
from vocabgame.ui.screens.modes import ModePickerScreen
from vocabgame.ui.screens.round import RoundScreen

from .test_modes import INTERVIEW_DECKS, answer_interview
from .test_play import answer, skip_to
from .test_snapshots import _no_blink

WIDE = (100, 30)
SMALL = (60, 20)
BOTH = pytest.mark.parametrize("size", [WIDE, SMALL], ids=lambda s: f"{s[0]}x{s[1]}")

# The picker's keys for each mode (its order: learn, interview, drill, challenge, cram).
INTERVIEW, DRILL, CHALLENGE = "2", "3", "4"


def interview_app(make_app: Callable[..., VocabApp]) -> VocabApp:
    return make_app(folders=INTERVIEW_DECKS)


async def pick_mode(pilot: Pilot, key: str, screen: type) -> None:
    """From the home screen, as a player does: `g`, then the mode's number."""
    await pilot.pause()
    assert isinstance(pilot.app.screen, HomeScreen)
    await pilot.press("g", key)
    await pilot.pause()
    assert isinstance(pilot.app.screen, screen)


async def quiet(pilot: Pilot) -> None:
    """Wait, as a player would, until every toast has gone, so none is caught half-way."""
    for _ in range(50):
        if not len(pilot.app._notifications):
            break
        await pilot.pause(0.1)
    await pilot.pause()
    await _no_blink(pilot)


def snap(
    snap_compare, app: VocabApp, size: tuple[int, int], play: Callable[[Pilot], Awaitable[None]]
) -> bool:
    return snap_compare(app, terminal_size=size, run_before=play)


# -- the mode picker and the keys screen ------------------------------------------------------


@BOTH
def test_mode_picker(snap_compare, make_app, size) -> None:
    async def play(pilot: Pilot) -> None:
        await pilot.pause()
        await pilot.press("g")
        await pilot.pause()
        assert isinstance(pilot.app.screen, ModePickerScreen)

    assert snap(snap_compare, make_app(), size, play)


@BOTH
def test_keys_on_the_home_screen(snap_compare, make_app, size) -> None:
    async def play(pilot: Pilot) -> None:
        await pilot.pause()
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(pilot.app.screen, HelpScreen)

    assert snap(snap_compare, make_app(), size, play)


@BOTH
def test_browse_a_deck(snap_compare, make_app, size) -> None:
    async def play(pilot: Pilot) -> None:
        await pilot.pause()
        await pilot.press("b")
        await pilot.pause()
        assert isinstance(pilot.app.screen, BrowseScreen)

    assert snap(snap_compare, make_app(), size, play)


@BOTH
def test_keys_in_a_round(snap_compare, make_app, size) -> None:
    async def play(pilot: Pilot) -> None:
        await pilot.pause()
        await pilot.press("enter")  # a round of the highlighted deck
        await pilot.pause()
        assert isinstance(pilot.app.screen, RoundScreen)
        await skip_to(pilot, pilot.app, Kind.CHOICE)  # `?` would be typed into an answer box
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(pilot.app.screen, HelpScreen)

    assert snap(snap_compare, make_app(), size, play)


# -- the interview ----------------------------------------------------------------------------


async def _interview_to_the_ticks(pilot: Pilot) -> None:
    """Every question answered (the scenario wrongly, the recall typed), up to the ticks."""
    await pick_mode(pilot, INTERVIEW, InterviewScreen)
    while isinstance(pilot.app.screen, InterviewScreen):
        question = pilot.app.screen.interview.question()
        assert question is not None
        await answer_interview(pilot, pilot.app, question.key.face != "scenario")
    assert isinstance(pilot.app.screen, InterviewReportScreen)
    assert pilot.app.screen.pending  # the recall waits for its ticks
    await pilot.press("2")  # the second key point covered, the first not
    await pilot.pause()


@BOTH
def test_interview_question(snap_compare, make_app, size) -> None:
    async def play(pilot: Pilot) -> None:
        await pick_mode(pilot, INTERVIEW, InterviewScreen)
        await _no_blink(pilot)

    assert snap(snap_compare, interview_app(make_app), size, play)


@BOTH
def test_interview_how_sure(snap_compare, make_app, size) -> None:
    """After the first answer: the question stays, the keys for how sure take its place."""

    async def play(pilot: Pilot) -> None:
        await pick_mode(pilot, INTERVIEW, InterviewScreen)
        question = pilot.app.screen.interview.question()
        assert question is not None and question.kind == "choice"
        await pilot.press("1", "enter")
        await pilot.pause()
        assert pilot.app.screen.asking_sure
        await _no_blink(pilot)

    assert snap(snap_compare, interview_app(make_app), size, play)


def test_interview_ticks(snap_compare, make_app) -> None:
    async def play(pilot: Pilot) -> None:
        await _interview_to_the_ticks(pilot)
        await _no_blink(pilot)

    assert snap(snap_compare, interview_app(make_app), WIDE, play)


def test_interview_report(snap_compare, make_app) -> None:
    async def play(pilot: Pilot) -> None:
        await _interview_to_the_ticks(pilot)
        await pilot.press("enter")
        await pilot.pause()
        assert pilot.app.screen.report is not None
        await _no_blink(pilot)

    assert snap(snap_compare, interview_app(make_app), WIDE, play)


# -- the challenge ----------------------------------------------------------------------------


async def _choose(pilot: Pilot, right: bool) -> None:
    screen = pilot.app.screen
    assert isinstance(screen, ChallengeScreen)
    question = screen.challenge.question()
    assert question is not None
    index = next(i for i, c in enumerate(question.choices) if (c.value == question.answer) == right)
    await pilot.press(str(index + 1))
    await pilot.pause()


def test_challenge_question(snap_compare, make_app) -> None:
    async def play(pilot: Pilot) -> None:
        await pick_mode(pilot, CHALLENGE, ChallengeScreen)
        await _no_blink(pilot)

    assert snap(snap_compare, interview_app(make_app), WIDE, play)


def test_challenge_results(snap_compare, make_app, clock) -> None:
    async def play(pilot: Pilot) -> None:
        await pick_mode(pilot, CHALLENGE, ChallengeScreen)
        clock.advance(seconds=6)  # answered with 24 s of 30 left: a bonus of 8
        await _choose(pilot, True)
        await pilot.press("enter")
        await pilot.pause()
        await _choose(pilot, False)
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(pilot.app.screen, ChallengeResultsScreen)
        await quiet(pilot)  # the time bonus's toast

    assert snap(snap_compare, interview_app(make_app), WIDE, play)


# -- the drill --------------------------------------------------------------------------------


def drill_app(make_app: Callable[..., VocabApp]) -> VocabApp:
    """The game after a player took TPOT for TTFT in the scenario: one pair to drill."""
    app = make_app()
    rnd = app.session.start_misses_round(
        "serving", "x", [FaceKey("serving", "blank-reply", "scenario")]
    )
    question = rnd.question()
    rnd.answer_choice(next(i for i, c in enumerate(question.choices) if c.value == "tpot"))
    return app


def test_drill_question(snap_compare, make_app) -> None:
    async def play(pilot: Pilot) -> None:
        await pick_mode(pilot, DRILL, DrillScreen)
        await _no_blink(pilot)

    assert snap(snap_compare, drill_app(make_app), WIDE, play)


def test_drill_feedback(snap_compare, make_app) -> None:
    async def play(pilot: Pilot) -> None:
        await pick_mode(pilot, DRILL, DrillScreen)
        await answer(pilot, pilot.app, True)
        await _no_blink(pilot)

    assert snap(snap_compare, drill_app(make_app), WIDE, play)
