"""The feel of a round, played by keys: units that mean what the hint says, worked examples in
plain notation, flags with notes, "I was right", undo that cannot farm points, and spacing."""

from __future__ import annotations

from textual.widgets import Input

from vocabgame.quiz import Kind
from vocabgame.ui.screens.round import RoundScreen

from .conftest import screen_text
from .test_play import answer, keys_for, skip_to


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
        before = app.session.store.answers.count()
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
        assert app.session.store.answers.count() == before and screen.round.streak == streak
        assert "Not quite" not in screen_text(app)
        answer.value = ""
        await pilot.press(*keys_for("20 milliseconds"), "enter")  # the same unit, spelt out
        await pilot.pause()
        assert "✓ Right" in screen_text(app)
    review = app.session.store.answers.all()[-1]
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


def notes(app) -> list[str]:
    return [n.message for n in app._notifications]


async def test_f_flags_with_a_note_and_f_again_takes_the_flag_back(make_app) -> None:
    from vocabgame.ui.screens.flag_note import FlagNoteScreen

    app = make_app(start_round=True)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        await skip_to(pilot, app, Kind.CHOICE)
        round_screen = app.screen
        key = round_screen.round.question().key
        store = app.session.store
        # named as the stats screen names it, the question as asked, never by its id
        named = "Users stare at a blank reply for seconds before anything ap… (scenario)"
        assert key.item_id == "blank-reply"
        await pilot.press("f")
        await pilot.pause()
        assert isinstance(app.screen, FlagNoteScreen)
        assert f"Flagged {named} for the deck's author." in screen_text(app)
        assert [k for k, _, _ in store.face_flags.all()] == [key]  # flagged before any note
        await pilot.press(*keys_for("choice 2 is also right"), "enter")
        await pilot.pause()
        assert app.screen is round_screen
        assert [(k, n) for k, _, n in store.face_flags.all()] == [(key, "choice 2 is also right")]
        assert f"Flagged {named} with your note. Thank you." in notes(app)
        assert store.answers.count() == 0  # the Enter that saved the note answered nothing
        await pilot.press("f")  # again: the flag is taken back, and the screen says so
        await pilot.pause()
        assert app.screen is round_screen and store.face_flags.all() == []
        assert f"Unflagged {named}: its flag is taken back." in notes(app)
        assert not any("blank-reply" in n for n in notes(app))
        await pilot.press("f")
        await pilot.pause()
        await pilot.press("escape")  # keeps the flag, without a note
        await pilot.pause()
        assert app.screen is round_screen
        assert [(k, n) for k, _, n in store.face_flags.all()] == [(key, "")]
        await pilot.press("f", "f")  # twice on one question: never two flags
        await pilot.pause()
        assert len(store.face_flags.all()) <= 1


async def test_i_was_right_overrides_a_typed_answer_and_undo_takes_it_back(
    make_app, data_dir, capsys
) -> None:
    import json

    from vocabgame.cli import main
    from vocabgame.model import FaceKey

    from ..conftest import DATA

    app = make_app(start_round=True)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, RoundScreen)
        screen.round.queue[:] = [FaceKey("serving", "ttft", "typed"), *screen.round.queue[1:]]
        screen.show_question()
        await pilot.pause()
        await pilot.press(*keys_for("time to last token"), "enter")
        await pilot.pause()
        assert "✗ Not quite" in screen_text(app)
        assert "o: I was right" in hint_text(app)
        app.settle_seconds = 30  # an o arriving with the Enter that answered is not taken
        await pilot.press("o")
        await pilot.pause()
        assert (
            "✗ Not quite" in screen_text(app) and app.session.store.answers.overridden_ids() == []
        )
        app.settle_seconds = 0
        await pilot.press("o")
        await pilot.pause()
        text = screen_text(app)
        assert "✓ Right · +10 points" in text
        assert "Counted as right: you said you were right." in text
        assert "It comes back later in this round." not in text
        assert "Score 10" in text and "o: I was right" not in hint_text(app)
        store = app.session.store
        [review] = store.answers.all()
        assert (review.correct, review.rating, review.points) == (True, 3, 10)
        assert len(store.answers.overridden_ids()) == 1
        [played] = store.scoreboard.all()
        assert (played.correct, played.score) == (1, 10)
        await pilot.press("u")  # undo still takes it all back
        await pilot.pause()
        assert (
            store.answers.count() == 0
            and store.schedules.card(FaceKey("serving", "ttft", "typed")) is None
        )
        assert "Score 0" in screen_text(app)
        await pilot.press(*keys_for("no idea"), "enter")
        await pilot.pause()
        await pilot.press("o")
        await pilot.pause()
    app.session.close()
    capsys.readouterr()
    folders = ["--data-dir", str(data_dir), "--decks", str(DATA / "ui")]
    assert main(["stats", *folders]) == 0
    assert "Overridden:     1 answer marked wrong and counted as right" in capsys.readouterr().out
    assert main(["stats", "--json", *folders]) == 0
    assert json.loads(capsys.readouterr().out)["overrides"] == 1


async def test_a_choice_cannot_be_overridden(make_app) -> None:
    app = make_app(start_round=True)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        await skip_to(pilot, app, Kind.CHOICE)
        await answer(pilot, app, False)
        assert "o: I was right" not in hint_text(app)
        await pilot.press("o")
        await pilot.pause()
        assert "✗ Not quite" in screen_text(app)
        assert app.session.store.answers.overridden_ids() == []


async def test_undo_then_answering_again_scores_no_more_than_the_first_answer(make_app) -> None:
    app = make_app(start_round=True)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        await skip_to(pilot, app, Kind.CHOICE)
        score = app.screen.round.score
        await answer(pilot, app, False)
        await pilot.press("u")
        await pilot.pause()
        await answer(pilot, app, True)
        text = screen_text(app)
        assert "✓ Right" in text and "+10 points" not in text
        assert "it scores at most what the first answer did (0 points)" in text
        assert f"Score {score} " in text
    [played] = app.session.store.scoreboard.all()
    assert played.score == score


async def test_a_double_enter_on_the_flag_note_does_not_answer_the_question(make_app) -> None:
    app = make_app(start_round=True)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        await skip_to(pilot, app, Kind.CHOICE)
        round_screen = app.screen
        answered = app.session.store.answers.count()
        app.settle_seconds = 30  # as slow to settle as a person is to read ...
        round_screen.view.shown_at -= 100  # ... and the question has been up for long
        await pilot.press("f")
        await pilot.pause()
        await pilot.press(*keys_for("unclear"), "enter", "enter")
        await pilot.pause()
        assert app.screen is round_screen
        assert app.session.store.answers.count() == answered  # the second Enter picked nothing
        assert [n for _, _, n in app.session.store.face_flags.all()] == ["unclear"]


async def test_an_all_decks_round_is_spaced_as_it_is_played(make_app, tmp_path) -> None:
    from vocabgame.play.spacing import TERM_GAP, traits_of

    from ..conftest import DATA
    from ..test_spacing import LOOKALIKES
    from .test_play import play_round

    folder = tmp_path / "decks"
    folder.mkdir()
    (folder / "look.yaml").write_text(LOOKALIKES, encoding="utf-8")
    app = make_app(folders=[DATA / "ui", folder])
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        await pilot.press("enter")  # the first row: all decks
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, RoundScreen) and "All decks" in screen_text(app)
        planned = len(screen.round.queue)
        await answer(pilot, app, False)
        assert "It comes back later in this round." in screen_text(app)
        await pilot.press("enter")
        await play_round(pilot, app, right=False)
    asked = [r.key for r in app.session.store.answers.all()]
    first_asked = list(dict.fromkeys(asked))
    assert planned == len(first_asked) == 15  # every new item of both decks, 15 a day
    items = [(k.deck_id, k.item_id) for k in first_asked]
    assert len(set(items)) == len(items)  # never two faces of one item
    traits = traits_of(app.session.catalog.decks)
    for index, key in enumerate(first_asked):
        for before in first_asked[max(0, index - TERM_GAP) : index]:
            assert not traits(key).shares_terms(traits(before)), (before, key)
    decks = [k.deck_id for k in first_asked]
    same_deck_in_a_row = sum(a == b for a, b in zip(decks, decks[1:], strict=False))
    assert same_deck_in_a_row == 2  # the fewest: 9 questions of one deck, 6 of the other
    for key in first_asked[: planned - 6]:
        first = asked.index(key)
        assert asked.index(key, first + 1) - first >= 6  # back after five other questions


async def test_a_drawn_number_gets_the_article_it_is_spoken_with(make_app, tmp_path) -> None:
    folder = tmp_path / "decks"
    folder.mkdir()
    (folder / "prefill.yaml").write_text(
        "format: 1\nid: prefill\ntitle: Prefill\ncalculations:\n"
        "  - id: steps\n"
        "    prompt: A {prompt}-token prompt gets {budget} tokens a step. How many steps?\n"
        "    given: {prompt: [8000], budget: [2000]}\n"
        "    answer: prompt / budget\n"
        "    unit: steps\n"
        "    explanation: Divide the prompt by the tokens each step gives it.\n",
        encoding="utf-8",
    )
    app = make_app(folders=[folder], deck="prefill", start_round=True)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        assert "An 8000-token prompt gets 2000 tokens a step." in screen_text(app)
        await pilot.press("4", "enter")
        await pilot.pause()
        text = screen_text(app)
        assert "Here: prompt = 8,000; budget = 2,000 tokens." in text
        assert "prompt ÷ budget = 8,000 ÷ 2,000 = 4 steps." in text
    [review] = app.session.store.answers.all()
    assert review.correct and review.answer == "4"
