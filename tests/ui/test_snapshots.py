"""Pictures of the screens a player sees most: at 80x24, and the round at 60x20 and 40x12,
where the question must stay in view, and the home and keys screens at 40x12, the smallest
terminal the game fits. Review the SVGs as pictures after
`pytest --snapshot-update tests/ui`."""

from __future__ import annotations

import pytest
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


async def _wrong(pilot: Pilot) -> None:
    await _to_choice_question(pilot)
    await answer(pilot, pilot.app, False)
    await _no_blink(pilot)


async def _right(pilot: Pilot) -> None:
    await _to_choice_question(pilot)
    await answer(pilot, pilot.app, True)
    await _no_blink(pilot)


def test_home(snap_compare, make_app) -> None:
    assert snap_compare(make_app(), terminal_size=(80, 24))


def test_home_at_40x12(snap_compare, make_app) -> None:
    assert snap_compare(make_app(), terminal_size=(40, 12))


def test_keys_at_40x12(snap_compare, make_app) -> None:
    async def keys(pilot: Pilot) -> None:
        await pilot.pause()
        await pilot.press("question_mark")
        await pilot.pause()
        await pilot.pause()

    assert snap_compare(make_app(), terminal_size=(40, 12), run_before=keys)


def test_settings(snap_compare, make_app) -> None:
    async def settings(pilot: Pilot) -> None:
        await pilot.pause()
        await pilot.press("s")
        for _ in range(200):  # the chart of what a retention costs comes just after the screen
            if "Working out" not in str(pilot.app.screen.query_one("#retention-chart").content):
                break
            await pilot.pause(0.05)
        await _no_blink(pilot)

    assert snap_compare(make_app(), terminal_size=(80, 24), run_before=settings)


SIZES = [(80, 24), (60, 20), (40, 12)]


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_question(snap_compare, make_app, size) -> None:
    assert snap_compare(
        make_app(start_round=True), terminal_size=size, run_before=_to_choice_question
    )


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_feedback_after_a_wrong_answer(snap_compare, make_app, size) -> None:
    assert snap_compare(make_app(start_round=True), terminal_size=size, run_before=_wrong)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_feedback_after_a_right_answer(snap_compare, make_app, size) -> None:
    assert snap_compare(make_app(start_round=True), terminal_size=size, run_before=_right)


def test_results(snap_compare, make_app) -> None:
    async def play(pilot: Pilot) -> None:
        await pilot.pause()
        for right in (True, False, True):
            await answer(pilot, pilot.app, right)
            await pilot.press("enter")
        await pilot.press("escape", "y")  # ends the round whatever the next question is
        await pilot.pause()

    assert snap_compare(make_app(start_round=True), terminal_size=(80, 24), run_before=play)
