"""The feel of a round, played by keys: units that mean what the hint says, worked examples in
plain notation, flags with notes, "I was right", undo that cannot farm points, and spacing."""

from __future__ import annotations

from textual.widgets import Input

from vocabgame.quiz import Kind
from vocabgame.ui.screens.round import RoundScreen

from .conftest import screen_text
from .test_play import keys_for, skip_to


def hint_text(app) -> str:
    return str(app.screen.query_one("#hint").content)


async def test_a_number_in_another_unit_is_refused_with_the_reason_and_no_penalty(
    make_app,
) -> None:
    app = make_app(start_round=True)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        await skip_to(pilot, app, Kind.NUMBER)
        screen = app.screen
        assert isinstance(screen, RoundScreen)
        before = app.session.store.review_count()
        streak = screen.round.streak
        await pilot.press(*keys_for("about twenty"), "enter")
        await pilot.pause()
        # the hint shows the question's own unit (ms), not some other one
        assert hint_text(app) == "That is not a number. Type it like 140, 140 ms, 1.4e2 or 1,400."
        answer = screen.query_one("#answer", Input)
        answer.value = ""
        await pilot.press(*keys_for("0.02 s"), "enter")
        await pilot.pause()
        assert hint_text(app) == (
            "The answer is asked in ms, not s: type it in ms, or the number alone "
            "(nothing was recorded)."
        )
        assert app.session.store.review_count() == before and screen.round.streak == streak
        assert "Not quite" not in screen_text(app)
        answer.value = ""
        await pilot.press(*keys_for("20 milliseconds"), "enter")  # the same unit, spelt out
        await pilot.pause()
        assert "✓ Right" in screen_text(app)
    review = app.session.store.reviews()[-1]
    assert review.correct and review.answer == "20 milliseconds"


async def test_the_worked_example_reads_as_arithmetic_not_code(make_app) -> None:
    app = make_app(start_round=True)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        await skip_to(pilot, app, Kind.NUMBER)
        await pilot.press(*keys_for("25"), "enter")
        await pilot.pause()
        text = screen_text(app)
        assert "✗ Not quite" in text
        assert "Here: e2e = 2,100 ms; ttft = 100 ms; tokens = 101 tokens." in text
        assert "(e2e − ttft) ÷ (tokens − 1) = (2,100 − 100) ÷ (101 − 1) = 20 ms." in text
        assert "*" not in text and "e2e - ttft" not in text
