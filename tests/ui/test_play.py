"""Play whole rounds with the keyboard, then check the screen and what the store recorded."""

from __future__ import annotations

import random
import re

from textual.pilot import Pilot
from textual.widgets import Input

from vocabgame.kinds import build_question
from vocabgame.quiz import Kind, Question
from vocabgame.ui.app import VocabApp
from vocabgame.ui.screens.help import HelpScreen
from vocabgame.ui.screens.home import HomeScreen
from vocabgame.ui.screens.results import ResultsScreen
from vocabgame.ui.screens.round import RoundScreen

from .conftest import screen_text

KEY_NAMES = {" ": "space", ",": "comma", ".": "full_stop", "-": "minus", "/": "slash"}


def keys_for(text: str) -> list[str]:
    return [KEY_NAMES.get(ch, ch) for ch in text]


async def answer(pilot: Pilot, app: VocabApp, right: bool) -> None:
    """Answer the question on screen, rightly or not, with keys alone."""
    screen = app.screen
    assert isinstance(screen, RoundScreen)
    question = screen.round.question()
    assert question is not None
    if question.kind == Kind.CHOICE:
        index = next(
            i for i, c in enumerate(question.choices) if (c.value == question.answer) == right
        )
        await pilot.press(str(index + 1))
    elif question.kind == Kind.TYPED:
        await pilot.press(*keys_for(question.answer if right else "no idea"), "enter")
    elif question.kind == Kind.NUMBER:
        await pilot.press(*keys_for(question.answer if right else "123456"), "enter")
    else:
        await pilot.press("enter", "3" if right else "1")
    await pilot.pause()


async def skip_to(pilot: Pilot, app: VocabApp, *kinds: Kind) -> None:
    """Answer rightly until the question on screen is of one of `kinds`."""
    while app.screen.round.question().kind not in kinds:
        await answer(pilot, app, True)
        await pilot.press("enter")


async def play_round(pilot: Pilot, app: VocabApp, right: bool = True) -> None:
    while isinstance(app.screen, RoundScreen):
        await answer(pilot, app, right)
        await pilot.press("enter")
        await pilot.pause()


def hint_text(app: VocabApp) -> str:
    return str(app.screen.query_one("#hint").content)


async def test_a_whole_round_played_by_keys_is_saved_and_shown(make_app, clock) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        assert isinstance(app.screen, HomeScreen)
        assert "Serving basics" in screen_text(app)
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, RoundScreen)
        asked = app.screen.round.total
        await play_round(pilot, app)
        assert isinstance(app.screen, ResultsScreen)
        text = screen_text(app)
        assert "Round complete" in text
        assert f"{asked} of {asked} questions right (100%)" in text
        assert "New personal best!" in text
        assert "Nothing missed." in text
    store = app.session.store
    reviews = store.answers.all()
    assert len(reviews) == asked == 6
    assert all(r.correct and r.rating == 3 and r.mode == "review" for r in reviews)
    [played] = store.scoreboard.all(finished_only=True)
    assert (played.questions, played.correct, played.best_streak) == (6, 6, 6)
    # 10 points each, plus 2 per answer already in the streak: 10+12+14+16+18+20.
    assert played.score == 90


async def test_progress_streak_and_due_carry_over_to_the_next_start(make_app, clock) -> None:
    first = make_app()
    async with first.run_test(size=(80, 24)) as pilot:
        await pilot.press("enter")
        await play_round(pilot, first, right=False)
        await pilot.press("enter")  # back home
        await pilot.pause()
        await pilot.press("q")
    clock.advance(days=1)
    again = make_app()
    async with again.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        text = screen_text(again)
        assert "Day streak: 1 day" in text
        home = again.session.home()
        [row] = home.decks
        assert row.due == 6  # every face answered wrong yesterday is due today
        assert row.best == 0
        assert "12 answers so far" in text  # six wrong, each retried once


async def test_wrong_choice_explains_why_not_and_comes_back(make_app) -> None:
    app = make_app(deck="serving", start_round=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, RoundScreen)
        while screen.round.question().key.item_id != "blank-reply":
            await answer(pilot, app, True)
            await pilot.press("enter")
        question = screen.round.question()
        wrong = next(i for i, c in enumerate(question.choices) if c.value == "tpot")
        await pilot.press(str(wrong + 1))
        await pilot.pause()
        text = screen_text(app)
        assert "✗ Not quite" in text
        # The choices stay: the right one marked ✓, the pick marked ✗, no answer line twice.
        assert re.search(r"✓ \d Time to first token", text)
        assert re.search(r"✗ \d Time per output token", text)
        assert "Answer:" not in text
        assert "Why not your choice: It measures the pace after the first token." in text
        assert "Source: vLLM benchmark serving" in text
        assert "It comes back later in this round." in text
    review = app.session.store.answers.all()[-1]
    assert (review.key.item_id, review.correct, review.rating, review.answer) == (
        "blank-reply",
        False,
        1,
        "Time per output token",
    )


async def test_undo_takes_the_answer_back_from_the_store(make_app) -> None:
    app = make_app(start_round=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        first = app.screen.round.question()
        await answer(pilot, app, True)
        assert app.session.store.answers.count() == 1
        await pilot.press("u")
        await pilot.pause()
        assert app.session.store.answers.count() == 0
        assert app.session.store.schedules.card(first.key) is None
        assert app.screen.round.question() == first  # asked again, same choices
        assert "Score 0" in screen_text(app)


async def test_ending_early_keeps_every_answer(make_app) -> None:
    app = make_app(start_round=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await answer(pilot, app, True)
        await pilot.press("enter")
        await answer(pilot, app, True)
        await pilot.press("q", "y")
        await pilot.pause()
        assert isinstance(app.screen, ResultsScreen)
        text = screen_text(app)
        assert "Round ended early" in text
        assert "2 of 2 questions right" in text
    store = app.session.store
    assert store.answers.count() == 2
    [played] = store.scoreboard.all()
    assert not played.finished and played.questions == 2


async def test_a_typed_term_accepts_an_alias(make_app) -> None:
    app = make_app(start_round=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        round_ = app.screen.round
        # Answer the ttft item's first face, then play until its typed face is planned again.
        round_.queue[:] = [k for k in round_.queue if k.item_id == "ttft"]
        round_.queue[0] = type(round_.queue[0])("serving", "ttft", "typed")
        app.screen.show_question()
        await pilot.pause()
        assert isinstance(app.screen.focused, Input)
        await pilot.press("t", "t", "f", "t", "enter")
        await pilot.pause()
        assert "✓ Right" in screen_text(app)
    [review] = app.session.store.answers.all()
    assert review.correct and review.answer == "ttft"


async def test_a_calculation_rejects_text_then_accepts_the_number(make_app) -> None:
    app = make_app(start_round=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await skip_to(pilot, app, Kind.NUMBER)
        await pilot.press(*keys_for("about twenty"), "enter")
        await pilot.pause()
        assert "That is not a number" in screen_text(app)
        before = app.session.store.answers.count()
        await pilot.press(*["backspace"] * 12, *keys_for("20 ms"), "enter")
        await pilot.pause()
        assert "✓ Right" in screen_text(app)
        assert app.session.store.answers.count() == before + 1


async def test_recall_reveals_then_takes_the_players_grade(make_app) -> None:
    app = make_app(start_round=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await skip_to(pilot, app, Kind.RECALL)
        await pilot.press("enter")
        await pilot.pause()
        text = screen_text(app)
        assert "Model answer: They measure different phases" in text
        assert "• TTFT covers queueing and prefill" in text
        await pilot.press("2")
        await pilot.pause()
        text = screen_text(app)
        assert "You graded it Hard" in text
        assert "Model answer: They measure different phases" in text  # still there to compare
    review = app.session.store.answers.all()[-1]
    assert (review.key.item_id, review.rating, review.correct) == ("two-metrics", 2, True)


async def test_flag_is_kept_for_the_author_even_while_typing(make_app) -> None:
    app = make_app(start_round=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await skip_to(pilot, app, Kind.TYPED, Kind.NUMBER)
        key = app.screen.round.question().key
        await pilot.press("f", "ctrl+f", "escape")  # Escape: no note
        await pilot.pause()
        assert app.screen.query_one("#answer", Input).value == "f"  # f types; Ctrl+F flags
    [(flagged, _, _)] = app.session.store.face_flags.all()
    assert flagged == key


async def test_deck_text_is_shown_as_written_never_as_markup(make_app, tmp_path) -> None:
    folder = tmp_path / "decks"
    folder.mkdir()
    (folder / "markup.yaml").write_text(
        "format: 1\nid: markup\ntitle: '[bold]Markup[/bold] deck'\n"
        "claims:\n  - id: c\n    statement: '[red]not red[/red] and [link=x]no link[/link]'\n"
        "    answer: true\n    explanation: '[b]plain[/b]'\n",
        encoding="utf-8",
    )
    app = make_app(folders=[folder], start_round=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert "[red]not red[/red] and [link=x]no link[/link]" in screen_text(app)
        await pilot.press("1")
        await pilot.pause()
        assert "[b]plain[/b]" in screen_text(app)


async def test_stats_json_agrees_with_what_was_played(make_app, data_dir, capsys) -> None:
    from vocabgame.cli import main

    from ..conftest import DATA

    app = make_app(deck="serving", start_round=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await play_round(pilot, app)
    app.session.close()
    capsys.readouterr()
    assert main(["stats", "--json", "--data-dir", str(data_dir), "--decks", str(DATA / "ui")]) == 0
    import json

    stats = json.loads(capsys.readouterr().out)
    assert (stats["reviews"], stats["rounds"]) == (6, 1)
    [serving] = [d for d in stats["decks"] if d["id"] == "serving"]
    assert (serving["seen"], serving["total"], serving["best"]) == (6, 10, 90)


async def test_nothing_to_play_says_why_and_stays_home(make_app) -> None:
    app = make_app()
    app.session.change_settings(app.session.settings.changed(new_per_day=0))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, HomeScreen)
        [note] = list(app._notifications)
        assert "today's new items are used up" in note.message
    assert app.session.store.scoreboard.all() == []


async def test_a_locked_database_keeps_the_question_and_says_so(make_app, data_dir) -> None:
    import sqlite3

    app = make_app(start_round=True)
    app.session.store.conn.execute("PRAGMA busy_timeout = 50")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await skip_to(pilot, app, Kind.CHOICE)
        question = app.screen.round.question()
        before = app.session.store.answers.count()
        score, streak = app.screen.round.score, app.screen.round.streak
        other = sqlite3.connect(data_dir / "vocabgame.db", isolation_level=None)
        other.execute("BEGIN EXCLUSIVE")
        try:
            await answer(pilot, app, True)
            await pilot.pause()
            notes = [n.message for n in app._notifications]
            assert any("in use by another vocabgame" in m for m in notes)
            assert app.screen.round.question() == question  # still asked, nothing lost
            assert (app.screen.round.score, app.screen.round.streak) == (score, streak)
            assert "✓ Right" not in screen_text(app)
        finally:
            other.execute("ROLLBACK")
            other.close()
        await answer(pilot, app, True)  # once the lock is gone the same answer is saved
        await pilot.pause()
        assert "✓ Right" in screen_text(app)
    assert app.session.store.answers.count() == before + 1


async def test_question_mark_shows_the_keys_and_any_key_closes_them(make_app) -> None:
    app = make_app(start_round=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await skip_to(pilot, app, Kind.CHOICE)
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        assert app.screen.query_one("Vertical").size.width >= 60  # not an empty box
        await pilot.press("x")
        await pilot.pause()
        assert isinstance(app.screen, RoundScreen)
        assert app.session.store.answers.count() == app.screen.round.answered  # x answered nothing


async def test_with_nothing_due_or_new_a_practice_round_says_so(make_app, tmp_path) -> None:
    folder = tmp_path / "decks"
    folder.mkdir()
    (folder / "one.yaml").write_text(
        "format: 1\nid: one\ntitle: One claim\n"
        "claims:\n  - id: c\n    statement: Decode is usually memory-bound.\n"
        "    answer: true\n    explanation: Each step reads all the weights.\n",
        encoding="utf-8",
    )
    app = make_app(folders=[folder], deck="one", start_round=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await play_round(pilot, app)  # the only item seen, its card due later
        await pilot.press("enter")  # home
        await pilot.pause()
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, RoundScreen)
        assert app.screen.round.mode == "practice"
        assert "One claim · practice (nothing due)" in screen_text(app)
    assert [r.mode for r in app.session.store.answers.all()] == ["review"]


async def test_a_double_enter_after_the_feedback_never_answers_the_next_question(
    make_app,
) -> None:
    """Two Enters arriving together (a bouncy key, a fast finger): the first leaves the
    feedback, the second must not pick a choice of a question the player has not seen."""
    from textual.events import Key

    app = make_app(start_round=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await skip_to(pilot, app, Kind.CHOICE)
        await answer(pilot, app, True)
        screen = app.screen
        assert isinstance(screen, RoundScreen)
        await skip_to_feedback_then_choice(pilot, app)
        answered = app.session.store.answers.count()
        streak = screen.round.streak
        # Both keys are queued before either is handled, as a terminal delivers them.
        app.post_message(Key("enter", "\r"))
        app.post_message(Key("enter", "\r"))
        await pilot.pause()
        await pilot.pause()
        assert app.session.store.answers.count() == answered  # nothing answered unseen
        assert screen.round.streak == streak and not screen.round.awaiting_next
        assert "✓ Right" not in screen_text(app) and "Not quite" not in screen_text(app)
        await pilot.press("enter")  # an Enter after the question is on screen does pick
        await pilot.pause()
        assert app.session.store.answers.count() == answered + 1


async def test_an_answer_key_pressed_just_after_leaving_the_feedback_is_ignored(
    make_app,
) -> None:
    """In a real terminal the second Enter can arrive after the next question is painted;
    a question takes no answer until it has been up long enough to be read."""
    app = make_app(start_round=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, RoundScreen)
        await skip_to(pilot, app, Kind.CHOICE)
        await answer(pilot, app, True)
        app.settle_seconds = 30  # from here on, as slow to settle as a person is to read
        answered = app.session.store.answers.count()
        await pilot.press("enter", "enter", "1", "space")
        await pilot.pause()
        assert app.session.store.answers.count() == answered
        assert not screen.round.awaiting_next and screen.round.question() is not None


async def skip_to_feedback_then_choice(pilot: Pilot, app: VocabApp) -> None:
    """Stay on the feedback of a choice question that is followed by a choice question."""
    screen = app.screen
    assert isinstance(screen, RoundScreen)
    decks = {d.id: d for d in app.session.catalog.decks}
    while True:
        following = screen.round.queue[screen.round.position + 1]
        if (
            build_question(decks[following.deck_id], following, random.Random(0)).kind
            == Kind.CHOICE
        ):
            return
        await pilot.press("enter")
        await pilot.pause()
        await answer(pilot, app, True)


async def test_the_feedback_takes_the_focus_and_the_footer_keeps_its_keys(make_app) -> None:
    """The choices give way to the feedback at once and the focus follows a frame later: once
    it has, the arrows scroll the feedback and the footer (rebuilt after that frame) shows the
    round's keys, none of them disabled."""
    from textual.widgets._footer import FooterKey

    app = make_app(start_round=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await skip_to(pilot, app, Kind.CHOICE)
        screen = app.screen
        assert isinstance(screen, RoundScreen)
        assert app.focused is screen.query_one("#choices")
        await answer(pilot, app, True)
        await pilot.pause()
        assert app.focused is screen.query_one("#body")
        keys = {key.description: key for key in screen.query(FooterKey)}
        assert {"Undo", "Flag", "End round", "Keys"} <= set(keys)
        assert not any(key.has_class("-disabled") for key in keys.values())


async def at_a_choice(pilot: Pilot, app: VocabApp) -> tuple[RoundScreen, Question]:
    """The round screen once it asks a choice question, and that question."""
    await pilot.pause()
    await skip_to(pilot, app, Kind.CHOICE)
    screen = app.screen
    assert isinstance(screen, RoundScreen)
    question = screen.round.question()
    assert question is not None
    return screen, question


def right_and_wrong(question: Question) -> tuple[int, int]:
    """The right choice's index and a wrong one's, with a third choice left unmarked."""
    assert len(question.choices) >= 3
    right = next(n for n, c in enumerate(question.choices) if c.value == question.answer)
    return right, (right + 1) % len(question.choices)


async def test_an_answer_first_marks_the_choices_in_place_then_shows_the_whole_feedback(
    make_app,
) -> None:
    """The frame after the key shows the verdict and the choices marked where they stand
    (nothing moves, so it comes at once); the explanation replaces the list a frame later."""
    app = make_app(start_round=True)
    async with app.run_test(size=(80, 24)) as pilot:
        screen, question = await at_a_choice(pilot, app)
        right = next(n for n, c in enumerate(question.choices) if c.value == question.answer)
        wrong = (right + 1) % len(question.choices)
        answered = app.session.store.answers.count()
        screen.pick(wrong)  # what the key does; the screen is not painted yet
        assert app.session.store.answers.count() == answered + 1  # saved before it shows
        text = screen_text(app)
        assert "✗ Not quite" in text
        assert f"✓ {right + 1} {question.choices[right].text}" in text
        assert f"✗ {wrong + 1} {question.choices[wrong].text}" in text
        assert not screen.query_one("#body").display and "Why:" not in text
        await pilot.pause()
        text = screen_text(app)
        assert not screen.query_one("#choices").display and screen.query_one("#body").display
        assert "Why:" in text and f"✓ {right + 1} {question.choices[right].text}" in text
        assert "Enter: next" in hint_text(app)


async def test_each_picks_marks_are_made_while_the_question_is_read(make_app, monkeypatch) -> None:
    """Once a choice question is painted, the marks of every pick are made and drawn: the
    key then only swaps them in (no marks made after it), and they show what that pick
    gets, also after the terminal changed width in between (they are drawn again at the
    new width when painted)."""
    from vocabgame.ui.widgets.choices import ChoiceList

    app = make_app(start_round=True)
    async with app.run_test(size=(80, 24)) as pilot:
        screen, question = await at_a_choice(pilot, app)
        made: list[int] = []
        real = ChoiceList.marks

        def marks(self: ChoiceList, rows: object) -> object:
            made.append(1)
            return real(self, rows)  # type: ignore[arg-type]

        monkeypatch.setattr(ChoiceList, "marks", marks)
        right = next(n for n, c in enumerate(question.choices) if c.value == question.answer)
        wrong = (right + 1) % len(question.choices)
        await pilot.resize_terminal(70, 24)
        await pilot.pause()
        screen.pick(wrong)
        assert made == []
        text = screen_text(app)
        assert f"✓ {right + 1} {question.choices[right].text}" in text
        assert f"✗ {wrong + 1} {question.choices[wrong].text}" in text


async def test_the_keys_frame_draws_the_marked_choices_and_no_other(make_app, monkeypatch) -> None:
    """Marking keeps what the other choices were drawn as: the frame after the key draws
    only the choices it marks (swapping a prompt Textual's own way drops every option's lines,
    and the frame drew them all again)."""
    from vocabgame.ui.widgets.choices import ChoiceList

    app = make_app(start_round=True)
    async with app.run_test(size=(80, 24)) as pilot:
        screen, question = await at_a_choice(pilot, app)
        choices = screen.query_one("#choices", ChoiceList)
        right, wrong = right_and_wrong(question)
        kind = type(choices.get_option_at_index(0).prompt)
        drawn: list[int] = []
        real = kind.render_strips

        def render_strips(self: object, *args: object) -> object:
            drawn.append(id(self))
            return real(self, *args)  # type: ignore[arg-type]

        monkeypatch.setattr(kind, "render_strips", render_strips)
        screen.pick(wrong)
        await pilot.pause()
        # Pilot takes a process starved of CPU (a loaded machine) for an idle one: wait, up
        # to a few seconds, until the frame after the key has drawn something.
        for _ in range(100):
            if drawn:
                break
            await pilot.pause(0.03)
        await pilot.pause()
        prompts = {
            n: id(choices.get_option_at_index(n).prompt) for n in range(len(question.choices))
        }
        drawn_choices = {n for n, prompt in prompts.items() if prompt in drawn}
        assert drawn_choices == {right, wrong}
        assert "✗ Not quite" in screen_text(app)


async def test_the_keys_frame_paints_the_marked_rows_and_no_other(make_app, monkeypatch) -> None:
    """A mark takes the lines its choice took, so the frame after the key paints only the
    marked rows of the list (and the verdict); repainting the whole list made that frame
    cost more than a highlight move's."""
    from vocabgame.ui.widgets.choices import ChoiceList

    app = make_app(start_round=True)
    async with app.run_test(size=(80, 24)) as pilot:
        screen, question = await at_a_choice(pilot, app)
        choices = screen.query_one("#choices", ChoiceList)
        right, wrong = right_and_wrong(question)
        rows: dict[int, list[int]] = {}  # each choice's lines in the list
        for n in range(len(question.choices)):
            prompt = choices.get_option_at_index(n).prompt
            start = sum(len(lines) for lines in rows.values())
            rows[n] = list(range(start, start + prompt.height_at(prompt.width_drawn)))
        painted: list[int] = []
        real = ChoiceList.render_line

        def render_line(self: ChoiceList, y: int) -> object:
            painted.append(self.scroll_offset.y + y)
            return real(self, y)

        monkeypatch.setattr(ChoiceList, "render_line", render_line)
        screen.pick(wrong)
        await pilot.pause()
        assert sorted(set(painted)) == sorted(rows[right] + rows[wrong])
        assert "✗ Not quite" in screen_text(app)


async def test_a_mark_that_makes_a_choice_wrap_once_more_moves_the_choices_below(
    make_app,
) -> None:
    """The mark takes a cell of the text's width: a choice that just filled its line takes
    two once marked, and the list is laid out again, the next choice a line lower."""
    from rich.text import Text

    from vocabgame.ui.widgets.choices import ChoiceList

    def lines(choices: ChoiceList) -> list[str]:
        """The list's lines as drawn (inside its border), the blank ones left out."""
        drawn = (choices.render_line(y).text.strip() for y in range(choices.size.height))
        return [line for line in drawn if line]

    app = make_app(start_round=True)
    async with app.run_test(size=(40, 24)) as pilot:
        screen, _ = await at_a_choice(pilot, app)
        choices = screen.query_one("#choices", ChoiceList)
        for length in range(60, 0, -1):  # the longest choice that fits on one line
            text = " ".join(["x"] * length)
            choices.put([text, "second"])
            await pilot.pause()
            prompt = choices.get_option_at_index(0).prompt
            if prompt.height_at(prompt.width_drawn) == 1:
                break
        assert lines(choices) == [f"1  {text}", "2  second"]
        blank = (Text(" "), Text(""), Text(""))
        choices.mark(choices.marks([(Text("✓"), Text("1"), Text(text)), blank]))
        await pilot.pause()
        shown = lines(choices)
        assert len(shown) == 3 and shown[0].startswith("✓ 1") and shown[2] == "2  second"
        assert " ".join(shown[:2]).count("x") == length


async def test_an_undo_that_comes_with_the_answer_puts_the_question_back(make_app) -> None:
    """A key pressed between the verdict's frame and the whole feedback's acts on the answer;
    the whole feedback then never shows over the question put back."""
    from textual.events import Key

    app = make_app(start_round=True)
    async with app.run_test(size=(80, 24)) as pilot:
        screen, question = await at_a_choice(pilot, app)
        answered = app.session.store.answers.count()
        app.post_message(Key("1", "1"))
        app.post_message(Key("u", "u"))
        await pilot.pause()
        await pilot.pause()
        assert app.session.store.answers.count() == answered
        assert screen.phase.value == "asking" and screen.round.question() == question
        assert screen.query_one("#choices").display and not screen.query_one("#body").display
        text = screen_text(app)
        assert "✓" not in text and "✗" not in text
        assert f"1  {question.choices[0].text}" in text


async def test_an_enter_that_comes_with_the_answer_does_not_skip_the_feedback(make_app) -> None:
    """An Enter queued with the digit that answers (a bounce, a roll of two fingers) arrives
    before the focus has left the choices: the list takes it and the feedback stays."""
    from textual.events import Key

    app = make_app(start_round=True)
    async with app.run_test(size=(80, 24)) as pilot:
        screen, _ = await at_a_choice(pilot, app)
        answered = app.session.store.answers.count()
        position = screen.round.position
        app.post_message(Key("1", "1"))
        app.post_message(Key("enter", "\r"))
        await pilot.pause()
        await pilot.pause()
        assert app.session.store.answers.count() == answered + 1
        assert screen.round.position == position and screen.phase.value == "feedback"
        assert app.focused is screen.query_one("#body")
        await pilot.press("enter")  # an Enter once the feedback has the focus goes on
        await pilot.pause()
        assert screen.round.position == position + 1
