"""The round screen and the interview screen ask through one question view, so both keep the
same guard: a question takes no answer until it is painted and has been up for the settle
time, and an empty typed answer is refused with the same sentence."""

from __future__ import annotations

from vocabgame.quiz import Kind
from vocabgame.ui.app import VocabApp
from vocabgame.ui.modes.interview import InterviewScreen
from vocabgame.ui.screens.round import RoundScreen
from vocabgame.ui.widgets.question import EMPTY

from ..conftest import DATA
from .conftest import screen_text
from .test_play import answer, skip_to

INTERVIEW_DECKS = [DATA / "interview"]


async def _choice_question(pilot, app) -> None:
    """Answer (right) until the interview asks a choice question."""
    for _ in range(12):
        question = app.screen.interview.question()
        if question.kind == Kind.CHOICE:
            return
        await pilot.press(*question.answer, "enter", "enter")  # the answer; how sure: skipped
        await pilot.pause()
    raise AssertionError("no choice question in the interview")


async def test_the_interview_takes_no_key_in_a_new_questions_settle_time(make_app) -> None:
    app = make_app(folders=INTERVIEW_DECKS, start_round=True, mode="interview", questions=6)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, InterviewScreen)
        await _choice_question(pilot, app)
        asked = len(app.screen.interview.asked)
        app.settle_seconds = 30  # as slow to settle as a person is to read
        app.screen.view.hold()  # the question goes up again, as after a dialog
        await pilot.press("1", "enter")
        await pilot.pause()
        assert len(app.screen.interview.asked) == asked  # the key arrived too soon
        assert dimmed(app)  # ... and the choices said so
        app.screen.view.shown_at -= 100  # ... and now the question has been up for long
        await pilot.press("1", "enter")
        await pilot.pause()
        assert len(app.screen.interview.asked) == asked + 1


def dimmed(app: VocabApp) -> bool:
    """Whether the choices on screen are drawn as taking no keys yet."""
    return app.screen.query_one("#choices").has_class("settling")


SETTLE = 3.0  # long enough that a busy machine's keys all land inside it


async def test_a_new_questions_choices_are_dim_until_they_take_keys(make_app) -> None:
    """A key in a new question's settle time is not taken, and the choices show it: dim from
    the moment the question goes up until the settle time has passed, then as usual, and a
    key then answers."""
    app = make_app(start_round=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await skip_to(pilot, app, Kind.CHOICE)
        assert not dimmed(app)  # no settle time (the tests' default): never dim
        await answer(pilot, app, True)
        app.settle_seconds = SETTLE
        screen = app.screen
        assert isinstance(screen, RoundScreen)
        while True:  # on to the next choice question, pressing Enter as a player would
            await pilot.press("enter")
            await pilot.pause()
            question = screen.round.question()
            assert question is not None
            if question.kind == Kind.CHOICE:
                break
            app.settle_seconds = 0
            await answer(pilot, app, True)
            app.settle_seconds = SETTLE
        answered = app.session.store.answers.count()
        assert dimmed(app)
        await pilot.press("1")
        await pilot.pause()
        assert app.session.store.answers.count() == answered  # too soon: not taken
        assert dimmed(app)
        await pilot.pause(SETTLE + 0.2)  # the settle time passes
        assert not dimmed(app)
        await pilot.press("1")
        await pilot.pause()
        assert app.session.store.answers.count() == answered + 1


async def test_both_screens_refuse_an_empty_typed_answer_in_the_same_words(make_app) -> None:
    app = make_app(start_round=True)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        await skip_to(pilot, app, Kind.TYPED, Kind.NUMBER)
        assert isinstance(app.screen, RoundScreen)
        await pilot.press("enter")
        await pilot.pause()
        assert EMPTY in screen_text(app)
    app = make_app(folders=INTERVIEW_DECKS, start_round=True, mode="interview", questions=6)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        for _ in range(12):
            question = app.screen.interview.question()
            if question.kind != Kind.CHOICE:
                break
            await pilot.press("1", "enter", "enter")  # the answer; how sure: skipped
            await pilot.pause()
        else:
            raise AssertionError("no typed question in the interview")
        await pilot.press("enter")
        await pilot.pause()
        assert EMPTY in screen_text(app)
