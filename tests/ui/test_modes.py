"""Each game mode played to its end by keys, then the screen and the store checked."""

from __future__ import annotations

import pytest
from textual.pilot import Pilot

from vocabgame.quiz import Kind
from vocabgame.ui.app import VocabApp
from vocabgame.ui.modes.challenge import ChallengeResultsScreen, ChallengeScreen
from vocabgame.ui.modes.drill import DrillScreen
from vocabgame.ui.modes.interview import InterviewReportScreen, InterviewScreen
from vocabgame.ui.screens.home import HomeScreen
from vocabgame.ui.screens.results import ResultsScreen
from vocabgame.ui.screens.round import RoundScreen

from ..conftest import DATA
from .conftest import screen_text
from .test_play import answer, keys_for, play_round

INTERVIEW_DECKS = [DATA / "interview"]


async def answer_interview(pilot: Pilot, app: VocabApp, right: bool, sure: str = "enter") -> None:
    """Answer the question asked (right or wrong), then press `sure`: how sure (1 to 4), or
    Enter to skip saying it."""
    screen = app.screen
    assert isinstance(screen, InterviewScreen)
    question = screen.interview.question()
    assert question is not None
    if question.kind == Kind.CHOICE:
        index = [i for i, c in enumerate(question.choices) if (c.value == question.answer) == right]
        await pilot.press(str(index[-1] + 1), "enter")
    else:
        await pilot.press(*keys_for("memory bound"), "enter")
    await pilot.pause()
    if isinstance(app.screen, InterviewScreen) and app.screen.asking_sure:
        await pilot.press(sure)
        await pilot.pause()


async def test_an_interview_played_by_keys_ends_in_a_saved_report(make_app, clock) -> None:
    app = make_app(
        folders=INTERVIEW_DECKS, start_round=True, mode="interview", questions=3, minutes=5
    )
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, InterviewScreen)
        text = screen_text(app)
        assert "5:00 left" in text and "Question 1 of 3" in text
        clock.advance(seconds=70)
        app.screen.tick()  # what the interval does once a second
        assert "3:50 left" in screen_text(app)
        for _ in range(3):
            question = app.screen.interview.question()
            if question.kind == "recall":  # typed here, not answered in the head
                assert "Recall: type your answer" in screen_text(app)
                assert "in your head" not in screen_text(app)
            await answer_interview(pilot, app, question.key.face != "scenario")
            # no feedback: straight to the next question (or the report)
            assert "Right" not in screen_text(app) and "Wrong" not in screen_text(app)
        assert isinstance(app.screen, InterviewReportScreen)
        assert "Which key points did you cover?" in screen_text(app)
        await pilot.press("2", "enter")
        await pilot.pause()
        text = screen_text(app)
        assert "Mock interview 1: 2 of 3 right" in text
        assert "[ ] decode is limited by memory bandwidth" in text
        assert "[x] the weights are read once per step for the whole batch" in text
        assert "Weakest" in text and "Why not:" in text
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, HomeScreen)
    store = app.session.store
    [report] = store.saved_reports.all()
    assert (report.questions, report.correct) == (3, 2)
    recall = [r for r in store.answers.all() if r.key.face == "recall"]
    assert [(r.rating, r.mode) for r in recall] == [(2, "interview")]  # 1 of 2 points: Hard


async def test_after_each_answer_a_key_says_how_sure_and_the_report_scores_it(
    make_app, data_dir
) -> None:
    """Before any model answer shows, 1-4 says how sure the player is (Enter skips): kept
    with each answer, then the ticks grade the recall, and the report shows the Brier score
    and the calibration table of what was said."""
    app = make_app(folders=INTERVIEW_DECKS, start_round=True, mode="interview", questions=3)
    said = {"4": 0.95, "1": 0.25, "enter": None}
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        faces = []
        for key in said:
            screen = app.screen
            assert isinstance(screen, InterviewScreen)
            question = screen.interview.question()
            faces.append(question.key.face)
            await pilot.press(*keys_for("memory bound") if question.kind != Kind.CHOICE else "1")
            if question.kind == Kind.CHOICE:
                right = next(
                    i for i, c in enumerate(question.choices) if c.value == question.answer
                )
                await pilot.press(str(right + 1))
            await pilot.press("enter")
            await pilot.pause()
            # the answer is given, nothing of the right one is shown: how sure?
            text = screen_text(app)
            assert "How sure are you? 1 guessing · 2 unsure · 3 fairly sure · 4 certain" in text
            assert "Press 1–4 (25%, 50%, 75%, 95% sure), or Enter to skip." in text
            assert "Model answer" not in text and "Right" not in text
            assert screen.asking_sure
            await pilot.press("9")  # no level: nothing happens
            await pilot.pause()
            assert app.screen is screen and screen.asking_sure
            await pilot.press(key)
            await pilot.pause()
        assert isinstance(app.screen, InterviewReportScreen)
        assert "Which key points did you cover?" in screen_text(app)
        await pilot.press("1", "2", "enter")  # every key point: the recall was right
        await pilot.pause()
        text = screen_text(app)
        assert "How sure you were" in text
        assert "You said how sure you were of 2 of 3 answers." in text
        await pilot.press("enter", "t")  # home, then the stats screen
        await pilot.pause()
        stats_text = screen_text(app)
        assert "How sure you were, in mock interviews" in stats_text
    store = app.session.store
    rows = store.conn.execute("SELECT face, confidence, correct FROM reviews ORDER BY id")
    kept = {face: (confidence, bool(correct)) for face, confidence, correct in rows}
    assert {face: kept[face][0] for face in faces} == dict(zip(faces, said.values(), strict=True))
    scored = [kept[face] for face in faces if kept[face][0] is not None]
    by_hand = sum((c - right) ** 2 for c, right in scored) / len(scored)
    [report] = store.saved_reports.all()
    assert report.body["calibration"]["brier"] == round(by_hand, 4)
    assert by_hand == pytest.approx((0.05**2 + 0.75**2) / 2)  # 95% and 25% said, both right
    assert "Brier score 0.282" in text  # 0.2825, kept to 4 places, shown to 3
    assert "underconfident by 40 points" in text
    assert stats_text.count("Brier score 0.282 over 2 answers") == 1
    assert "  2 unsure (50%)               0       —" in stats_text
    levels = {row["level"]: row["answers"] for row in report.body["calibration"]["levels"]}
    assert levels == {1: 1, 2: 0, 3: 0, 4: 1}


async def test_an_interview_digit_marks_a_choice_that_enter_gives(make_app) -> None:
    """With no feedback to catch a slip, a digit only marks a choice: another digit changes
    it, and only Enter gives the marked one as the answer; the line under says so."""
    app = make_app(folders=INTERVIEW_DECKS, start_round=True, mode="interview", questions=6)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, InterviewScreen)
        while screen.interview.question().kind != Kind.CHOICE:
            await answer_interview(pilot, app, True)
        question = screen.interview.question()
        right = next(i for i, c in enumerate(question.choices) if c.value == question.answer)
        wrong = (right + 1) % len(question.choices)
        asked = len(screen.interview.asked)
        assert "Enter gives it, not before" in screen_text(app)
        await pilot.press(str(wrong + 1))  # a slip ...
        await pilot.pause()
        assert len(screen.interview.asked) == asked  # ... not given yet
        assert screen.query_one("#choices").highlighted == wrong
        await pilot.press(str(right + 1))  # ... changed
        await pilot.pause()
        assert screen.query_one("#choices").highlighted == right
        assert len(screen.interview.asked) == asked
        await pilot.press("enter")
        await pilot.pause()
        assert len(screen.interview.asked) == asked + 1
        assert screen.interview.asked[-1].outcome.grade.correct


async def test_the_report_is_drawn_weakest_first_and_m_saves_it_where_it_says(
    make_app, data_dir
) -> None:
    from textual.widgets import Markdown

    from vocabgame.play.modes.interview import markdown

    app = make_app(folders=INTERVIEW_DECKS, start_round=True, mode="interview", questions=3)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        for _ in range(3):
            question = app.screen.interview.question()
            await answer_interview(pilot, app, question.key.face != "scenario")
        assert isinstance(app.screen, InterviewReportScreen)
        # the grading screen says which interview and which answer
        assert "Mock interview · Serving basics · grading recall answer 1 of 1" in screen_text(app)
        await pilot.press("m")  # nothing to save before the ticks are done
        await pilot.pause()
        assert not (data_dir / "reports").exists()
        await pilot.press("2", "enter")
        await pilot.pause()
        text = screen_text(app)
        assert app.screen.query_one(Markdown).display  # drawn, not shown as its source
        assert "| --- |" not in text and "# Mock" not in text and "## " not in text
        # the score, then the weakest, before the table of every question
        assert text.index("2 of 3 right") < text.index("Weakest") < text.index("Questions")
        assert "m: save as Markdown" in text
        await pilot.press("m")
        await pilot.pause()
        saved = data_dir / "reports" / "interview-1.md"
        [report] = app.session.store.saved_reports.all()
        assert saved.read_text(encoding="utf-8") == markdown(report)
        assert f"Saved to {saved}." in screen_text(app)
        # a folder that cannot be written: one sentence, and the report stays
        saved.unlink()
        (data_dir / "reports").rmdir()
        (data_dir / "reports").write_text("in the way", encoding="utf-8")
        await pilot.press("m")
        await pilot.pause()
        assert isinstance(app.screen, InterviewReportScreen)
        [hint] = [line for line in screen_text(app).splitlines() if "Could not save" in line]
        assert hint.startswith(f"Could not save the report to {saved} (")
        assert "Traceback" not in hint and hint.endswith("Enter: home")


async def test_the_clock_running_out_ends_the_interview(make_app, clock) -> None:
    app = make_app(folders=INTERVIEW_DECKS, start_round=True, mode="interview", minutes=1)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, InterviewScreen)
        clock.advance(seconds=20)
        await answer_interview(pilot, app, False)
        clock.advance(seconds=41)
        app.screen.tick()
        await pilot.pause()
        assert isinstance(app.screen, InterviewReportScreen)
        if app.screen.pending:  # the first question was the recall: tick nothing
            await pilot.press("enter")
            await pilot.pause()
        text = screen_text(app)
        assert "0 of 1 right" in text and "(time ran out)" in text
    assert len(app.session.store.saved_reports.all()) == 1


async def test_a_challenge_played_by_keys_with_a_countdown_and_a_high_score(
    make_app, clock
) -> None:
    app = make_app(folders=INTERVIEW_DECKS, start_round=True, mode="challenge")
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, ChallengeScreen)
        assert screen.challenge.round.total == 2  # the scenario and the claim
        assert "30 s left" in screen_text(app)
        clock.advance(seconds=6)
        screen.tick()
        assert "24 s left" in screen_text(app)
        question = screen.challenge.question()
        right = next(i for i, c in enumerate(question.choices) if c.value == question.answer)
        await pilot.press(str(right + 1))
        await pilot.pause()
        assert "Score 18" in screen_text(app)  # 10, and a bonus of 8 for 24 s left of 30
        assert "undo" not in screen_text(app)  # the hint offers no undo the clock forbids
        await pilot.press("enter")
        await pilot.pause()
        clock.advance(seconds=31)
        screen.tick()  # the countdown runs out: wrong, and the answer shows
        await pilot.pause()
        text = screen_text(app)
        assert "Time ran out." in text
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, ChallengeResultsScreen)
        text = screen_text(app)
        assert "New high score!" in text and "Top 10" in text
        assert " 1.    18   1 of 2 right   2026-11-30" in text
    store = app.session.store
    [run] = store.saved_reports.all("challenge")
    assert (run.questions, run.correct, run.body["score"], run.body["timed_out"]) == (2, 1, 18, 1)
    assert [r.correct for r in store.answers.all()] == [True, False]


async def test_the_challenge_verdict_shows_the_points_given_with_the_time_bonus(
    make_app, clock
) -> None:
    """The verdict says what the answer added to the score, split into the right answer's
    points and the time bonus; no toast says it instead."""
    app = make_app(folders=INTERVIEW_DECKS, start_round=True, mode="challenge")
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, ChallengeScreen)
        clock.advance(seconds=3)
        question = screen.challenge.question()
        right = next(i for i, c in enumerate(question.choices) if c.value == question.answer)
        await pilot.press(str(right + 1))
        await pilot.pause()
        text = screen_text(app)
        assert "✓ Right · +19 points (10 + 9 for time)" in text  # 27 s left of 30
        assert "Score 19" in text
        assert not app._notifications  # the bonus is in the verdict, not in a toast


async def test_the_challenge_results_show_one_score_the_runs(make_app, clock) -> None:
    app = make_app(folders=INTERVIEW_DECKS, start_round=True, mode="challenge")
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, ChallengeScreen)
        for _ in range(2):
            clock.advance(seconds=3)
            question = screen.challenge.question()
            right = next(i for i, c in enumerate(question.choices) if c.value == question.answer)
            await pilot.press(str(right + 1), "enter")
            await pilot.pause()
        assert isinstance(app.screen, ChallengeResultsScreen)
        text = screen_text(app)
        # 10 + 9 for time, then 12 (a streak of 1) + 9: the round's own 22 is nowhere
        assert "Score        40\n" in text
        assert text.count("Score") == 1 and "22" not in text
        assert " 1.    40   2 of 2 right" in text


async def test_an_abandoned_challenge_is_partial_and_no_high_score(make_app, clock) -> None:
    app = make_app(folders=INTERVIEW_DECKS, start_round=True, mode="challenge")
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, ChallengeScreen)
        question = screen.challenge.question()
        right = next(i for i, c in enumerate(question.choices) if c.value == question.answer)
        await pilot.press(str(right + 1), "enter")
        await pilot.pause()
        await pilot.press("q", "y")  # end the run after 1 of its 2 questions
        await pilot.pause()
        assert isinstance(app.screen, ChallengeResultsScreen)
        text = screen_text(app)
        assert "Partial run: 1 of 2 questions answered, so it is not in the table." in text
        assert "New high score!" not in text and "1 of 1 right" not in text
        assert "No runs yet: answer every question of a run to enter the table." in text
        assert "a run enters the top-10 table only when every question is answered" in text
    [run] = app.session.store.saved_reports.all("challenge")
    assert (run.questions, run.body["score"], run.body["finished"]) == (1, 20, False)


async def test_the_challenge_status_says_the_question_in_the_rounds_words(make_app, clock) -> None:
    app = make_app(folders=INTERVIEW_DECKS, start_round=True, mode="challenge")
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, ChallengeScreen)
        assert "Question 1 of 2   Score 0   Streak 0   30 s left" in screen_text(app)
    app = make_app(folders=INTERVIEW_DECKS, start_round=True, mode="challenge")
    async with app.run_test(size=(56, 30)) as pilot:  # narrow: the round's short form
        await pilot.pause()
        assert "Q 1/2  Score 0  Streak 0   30 s left" in screen_text(app)


async def test_the_challenge_offers_no_undo_in_its_footer_or_keys_screen(make_app) -> None:
    from textual.widgets._footer import FooterKey

    from vocabgame.ui.screens.help import HelpScreen

    app = make_app(folders=INTERVIEW_DECKS, start_round=True, mode="challenge")
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, ChallengeScreen)
        question = screen.challenge.question()
        await pilot.press(str(len(question.choices)))
        await pilot.pause()
        keys = {key.description for key in screen.query(FooterKey)}
        assert "Flag" in keys and "Undo" not in keys
        await pilot.press("u")  # the key does nothing: the answer stands
        await pilot.pause()
        assert screen.challenge.round.answered == 1 and app.screen is screen
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        text = screen_text(app)
        assert "flag the question" in text and "undo" not in text.lower()


async def test_cram_by_keys_keeps_practice_and_leaves_the_cards(make_app) -> None:
    app = make_app(start_round=True, mode="cram", size=3)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, RoundScreen)
        assert "cram (the schedule stays)" in screen_text(app)
        await play_round(pilot, app)
        assert isinstance(app.screen, ResultsScreen)
        assert "3 answers kept as practice: every due date stays as it was." in screen_text(app)
    store = app.session.store
    assert len(store.answers.all()) == 3 and store.schedules.cards() == {}
    assert store.scoreboard.count() == 0


async def end_early(pilot: Pilot) -> None:
    """End the round from an answer's feedback, and confirm it."""
    for key in ("q", "y"):
        await pilot.press(key)
        await pilot.pause()


DEFAULT_NOTE = "A round counts for your day streak and best score when every question is answered"


async def test_results_of_misses_and_cram_say_what_their_mode_counts_for(make_app) -> None:
    """A misses review or a cram round counts for nothing and moves no due date: its results
    say its mode's note, not the daily round's, and show no next review."""
    app = make_app(start_round=True, size=3)
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.pause()
        await answer(pilot, app, False)  # one miss, then end the round early
        await end_early(pilot)
        assert isinstance(app.screen, ResultsScreen)
        text = screen_text(app)
        assert f"Every answer is saved. {DEFAULT_NOTE}." in text  # the daily round's own
        assert "Next review" in text
        await pilot.press("r")  # review the miss
        await pilot.pause()
        await play_round(pilot, app)
        assert isinstance(app.screen, ResultsScreen)
        text = screen_text(app)
        assert "Reviewing your misses counts for no best score or day streak." in text
        # said once: the count first, the mode's note without repeating it
        assert text.count("kept as practice") == 1 and "every due date stays as it was" in text
        assert DEFAULT_NOTE not in text and "Next review" not in text
    app = make_app(start_round=True, mode="cram", size=3)
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.pause()
        await answer(pilot, app, True)
        await end_early(pilot)
        assert isinstance(app.screen, ResultsScreen)
        text = screen_text(app)
        assert "1 answer kept as practice: every due date stays as it was." in text
        assert "A cram round counts for no best score or day streak." in text
        assert text.count("kept as practice") == 1
        assert DEFAULT_NOTE not in text and "Next review" not in text


async def test_a_drill_by_keys_shows_the_distinction_and_retires_the_pair(make_app) -> None:
    from vocabgame.model import FaceKey

    app = make_app(start_round=True, mode="drill")
    session = app.session
    rnd = session.start_misses_round(
        "serving", "x", [FaceKey("serving", "blank-reply", "scenario")]
    )
    question = rnd.question()
    rnd.answer_choice(next(i for i, c in enumerate(question.choices) if c.value == "tpot"))
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, DrillScreen)
        assert app.screen.round.total == 3  # two definition picks and the scenario
        await answer(pilot, app, True)
        text = screen_text(app)
        assert "What tells them apart" in text or "Easy to confuse" in text
        assert "Average gap between output tokens" in text
        await pilot.press("enter")
        await pilot.pause()
        await play_round(pilot, app)
        assert isinstance(app.screen, ResultsScreen)
        text = screen_text(app)
        assert "Retired (right in a row): Time per output token vs Time to first token." in text
    assert len(session.store.confusables.drill_answers()) == 3
    assert session.start("drill") is None  # its only pair is retired; the deck has no groups


async def test_the_drill_says_a_distinction_once_when_its_why_is_that_distinction(
    make_app,
) -> None:
    """A confusable group's own question explains itself by the group's distinction: the
    drill does not repeat it word for word under "What tells them apart"."""
    app = make_app(folders=[DATA / "store-compat"], start_round=True, mode="drill")
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, DrillScreen)
        assert app.screen.round.question().key.item_id == "pd"  # the group's own cue
        await answer(pilot, app, True)
        text = screen_text(app)
        distinction = "Prefill reads the prompt once; decode then makes one token per step."
        assert f"Why: {distinction}" in text
        assert text.count(distinction) == 1 and "What tells them apart" not in text


async def test_the_home_screen_offers_each_mode_with_a_line_saying_what_it_is(make_app) -> None:
    from vocabgame.play.modes import pickable
    from vocabgame.ui.screens.modes import ModePickerScreen

    app = make_app(folders=INTERVIEW_DECKS, size=3)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("g")
        await pilot.pause()
        assert isinstance(app.screen, ModePickerScreen)
        text = screen_text(app)
        assert [m.id for m in pickable()] == ["review", "interview", "drill", "challenge", "cram"]
        for mode in pickable():
            assert mode.title in text and mode.description in text
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, HomeScreen)
        await pilot.press("g", "5")  # cram
        await pilot.pause()
        assert isinstance(app.screen, RoundScreen) and app.screen.round.mode == "cram"
        await app.screen.app.pop_screen()
        await pilot.press("g", "2")  # interview
        await pilot.pause()
        assert isinstance(app.screen, InterviewScreen)
        await pilot.press("escape", "y")
        await pilot.pause()
        assert isinstance(app.screen, InterviewReportScreen)
        assert "Not saved" not in screen_text(app)
        await pilot.press("enter")  # nothing asked: no recall to tick
        await pilot.pause()
        assert isinstance(app.screen, HomeScreen)
        assert app.session.store.saved_reports.all() == []  # nothing asked, nothing kept
        await pilot.press("g", "4")  # challenge
        await pilot.pause()
        assert isinstance(app.screen, ChallengeScreen)
