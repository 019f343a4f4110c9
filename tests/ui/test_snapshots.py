"""Pictures of the screens a player sees most, at 80x24. Review the SVGs as pictures after
`pytest --snapshot-update tests/ui`."""

from __future__ import annotations

from textual.pilot import Pilot
from textual.widgets import Input

from vocabgame.quiz import Kind

from .test_play import answer, skip_to


async def _no_blink(pilot: Pilot) -> None:
    for widget in pilot.app.screen.query(Input):
        widget.cursor_blink = False
    await pilot.pause()


async def _to_choice_question(pilot: Pilot) -> None:
    await pilot.pause()
    await skip_to(pilot, pilot.app, Kind.CHOICE)
    await _no_blink(pilot)


def test_home(snap_compare, make_app) -> None:
    assert snap_compare(make_app(), terminal_size=(80, 24))


def test_question(snap_compare, make_app) -> None:
    assert snap_compare(
        make_app(start_round=True), terminal_size=(80, 24), run_before=_to_choice_question
    )


def test_feedback_after_a_wrong_answer(snap_compare, make_app) -> None:
    async def wrong(pilot: Pilot) -> None:
        await _to_choice_question(pilot)
        await answer(pilot, pilot.app, False)
        await _no_blink(pilot)

    assert snap_compare(make_app(start_round=True), terminal_size=(80, 24), run_before=wrong)


def test_results(snap_compare, make_app) -> None:
    async def play(pilot: Pilot) -> None:
        await pilot.pause()
        for right in (True, False, True):
            await answer(pilot, pilot.app, right)
            await pilot.press("enter")
        await pilot.press("escape")  # ends the round whatever the next question is
        await pilot.pause()

    assert snap_compare(make_app(start_round=True), terminal_size=(80, 24), run_before=play)
