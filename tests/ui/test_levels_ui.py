"""Levels and common mistakes as a player meets them: by keys alone, then the screen read."""

from __future__ import annotations

from vocabgame.quiz import Kind
from vocabgame.ui.modes.interview import InterviewReportScreen, InterviewScreen
from vocabgame.ui.screens.modes import ModePickerScreen
from vocabgame.ui.screens.round import RoundScreen

from ..conftest import DATA
from .conftest import screen_text
from .test_play import keys_for, skip_to

LEVELS_DECKS = [DATA / "levels"]
MISTAKE = "Common mistake: Says batching makes each request's own tokens come faster;"


async def test_a_recall_shows_its_common_mistake_after_the_model_answer(make_app) -> None:
    app = make_app(folders=LEVELS_DECKS, start_round=True, levels=("L4", "L5"))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, RoundScreen)
        assert "All decks · L4-L5" in screen_text(app)
        await skip_to(pilot, app, Kind.RECALL)
        assert "Common mistake" not in screen_text(app)  # not before the reveal
        await pilot.press("enter")
        await pilot.pause()
        text = screen_text(app)
        assert text.index("Model answer: Each decode step") < text.index(MISTAKE)
        assert text.index("• the weights are read once per step") < text.index(MISTAKE)
        await pilot.press("3")
        await pilot.pause()
        text = screen_text(app)
        assert "You graded it Good" in text
        assert text.index("Model answer: Each decode step") < text.index(MISTAKE)


async def test_c_marks_the_mistake_while_grading_and_the_report_lists_it(make_app) -> None:
    app = make_app(folders=LEVELS_DECKS, start_round=True, mode="interview", levels=("L5",))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, InterviewScreen)
        # the answer, then Enter: how sure, not said
        await pilot.press(*keys_for("each request gets faster"), "enter", "enter")
        await pilot.pause()
        assert isinstance(app.screen, InterviewReportScreen)
        text = screen_text(app)
        assert "[ ] c  Says batching makes each request's own tokens come faster" in text
        assert "c: your answer made the common mistake." in text
        await pilot.press("c")
        await pilot.pause()
        assert "[x] c  Says batching" in screen_text(app)
        await pilot.press("c", "c", "1")  # off, on again; one key point ticked
        await pilot.pause()
        assert "[x] c  Says batching" in screen_text(app)
        await pilot.press("enter")
        await pilot.pause()
        text = screen_text(app)
        assert "Common mistakes your answers made" in text
        assert "Common mistake (your answer made it): Says batching" in text
    [report] = app.session.store.saved_reports.all()
    assert report.body["mistakes_made"] == [0]


async def test_a_mistake_left_unmarked_is_not_listed(make_app) -> None:
    app = make_app(folders=LEVELS_DECKS, start_round=True, mode="interview", levels=("L5",))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        await pilot.press(*keys_for("weights are read once per step"), "enter", "enter")
        await pilot.pause()
        await pilot.press("1", "2", "enter")
        await pilot.pause()
        text = screen_text(app)
        assert "Common mistakes your answers made" not in text
        assert "Common mistake: Says batching" in text


async def test_l_in_the_mode_picker_plays_one_level(make_app) -> None:
    app = make_app(folders=LEVELS_DECKS)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("g")
        await pilot.pause()
        assert isinstance(app.screen, ModePickerScreen)
        assert "l: level" in screen_text(app)
        await pilot.press("l")
        await pilot.pause()
        assert "· L3 as …" in screen_text(app)
        await pilot.press("l")
        await pilot.pause()
        assert "· L4 as …" in screen_text(app)
        await pilot.press("5")  # cram
        await pilot.pause()
        assert isinstance(app.screen, RoundScreen)
        assert app.screen.round.title.endswith("· L4")
        assert {k.item_id for k in app.screen.round.queue} == {"kv-cache", "kv-cache-shrinks"}


async def test_l_steps_through_every_level_and_back_to_all(make_app) -> None:
    app = make_app(folders=LEVELS_DECKS)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("g")
        await pilot.pause()
        seen = []
        for _ in range(5):
            await pilot.press("l")
            await pilot.pause()
            seen.append(app.screen.levels)
        assert seen == [("L3",), ("L4",), ("L5",), ("L6",), ()]
        assert "· L" not in screen_text(app).splitlines()[0]


async def test_a_level_with_no_item_says_so_and_stays_home(make_app) -> None:
    from vocabgame.ui.screens.home import HomeScreen

    app = make_app(folders=LEVELS_DECKS)
    async with app.run_test(size=(100, 30), notifications=True) as pilot:
        await pilot.press("g", "l", "l", "l", "l")  # L6: the deck has none
        await pilot.pause()
        assert "· L6 as …" in screen_text(app)
        await pilot.press("5")
        await pilot.pause()
        assert isinstance(app.screen, HomeScreen)
        assert [n.message for n in app._notifications] == ["no item is of level L6"]


def test_a_recall_card_shows_its_common_mistake() -> None:
    from vocabgame.deck import load_deck
    from vocabgame.ui.screens.card import card_text

    text = card_text(load_deck(DATA / "levels" / "levelled.yaml"), "why-batch-decode").plain
    assert text.index("Answer: Each decode step") < text.index(MISTAKE)
