"""How the screens feel: what the home screen counts and offers, what a small terminal keeps in
view, how feedback and results read, and how a round is ended. Each test presses the keys a
player would, then checks the screen and the store."""

from __future__ import annotations

import json
import re
from pathlib import Path

from textual.containers import VerticalScroll
from textual.widgets import DataTable, Input, Static

from vocabgame.cli import main
from vocabgame.play import ModeId
from vocabgame.quiz import Kind
from vocabgame.settings import SPECS
from vocabgame.ui.screens.confirm import ConfirmScreen
from vocabgame.ui.screens.home import HomeScreen
from vocabgame.ui.screens.results import ResultsScreen
from vocabgame.ui.screens.round import RoundScreen
from vocabgame.ui.screens.settings import SettingsScreen

from ..conftest import DATA
from .conftest import plain, screen_text
from .test_play import answer, keys_for, play_round, skip_to

SECOND_DECK = """\
format: 1
id: second
title: Second deck
description: Five claims about decode.
tags: [decode]
claims:
"""


def two_decks(tmp_path: Path) -> list[Path]:
    """The UI test deck and a second deck of five claims, as two deck folders."""
    folder = tmp_path / "more-decks"
    folder.mkdir(exist_ok=True)
    claims = "".join(
        f"  - {{id: c{i}, statement: Claim {i} holds., answer: true, explanation: Because.}}\n"
        for i in range(5)
    )
    (folder / "second.yaml").write_text(SECOND_DECK + claims, encoding="utf-8")
    return [DATA / "ui", folder]


def row_of(app, deck_id: str):
    return next(row for row in app.session.home().decks if row.id == deck_id)


def table_row(app, deck_id: str) -> str:
    table = app.screen.query_one("#decks", DataTable)
    index = table.get_row_index(deck_id)
    return "  ".join(plain(cell) for cell in table.get_row_at(index))


# -- 3: home figures count questions, and refresh ---------------------------------------------


async def test_home_new_counts_the_questions_rounds_then_ask(make_app, data_dir, capsys) -> None:
    app = make_app(folders=[DATA / "ui"])
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        text = screen_text(app)
        assert "Counts are questions" in text
        # Serving basics: 2 terms asked 3 ways + 4 other items = 10 questions, all new.
        assert re.search(r"Serving basics\s+0/10\s+0\s+0\s+10\s+—", text)
        asked = 0
        while row_of(app, "serving").new:
            new_before = row_of(app, "serving").new
            await pilot.press("enter")
            await pilot.pause()
            assert isinstance(app.screen, RoundScreen)
            assert app.screen.round.mode == ModeId.LEARN
            total = app.screen.round.total
            asked += total
            await play_round(pilot, app)
            await pilot.press("enter")  # home again
            await pilot.pause()
            # Nothing was due (the clock stood still): every question asked was a new one.
            assert row_of(app, "serving").new == new_before - total
        assert asked == 10  # what "New" said is exactly what the rounds asked
        assert re.search(r"Serving basics\s+10/10\s+0\s+0\s+0\s+", screen_text(app))
    app.session.close()
    capsys.readouterr()
    assert main(["stats", "--json", "--data-dir", str(data_dir), "--decks", str(DATA / "ui")]) == 0
    [serving] = [d for d in json.loads(capsys.readouterr().out)["decks"] if d["id"] == "serving"]
    # (the command reads the real clock, so due differs; the counts of questions do not)
    assert (serving["seen"], serving["total"], serving["new"]) == (10, 10, 0)
    assert main(["stats", "--data-dir", str(data_dir), "--decks", str(DATA / "ui")]) == 0
    out = capsys.readouterr().out
    assert "Counts are questions" in out
    assert re.search(r"Serving basics\s+10/10\s+0\s+\d+\s+0\s+", out)


async def test_home_due_counts_refresh_on_the_minute(make_app, clock) -> None:
    app = make_app(folders=[DATA / "ui"])
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("enter")
        await play_round(pilot, app)
        await pilot.press("enter")
        await pilot.pause()
        home = app.screen
        assert isinstance(home, HomeScreen)
        assert re.search(r"Serving basics\s+6/10\s+0\s+0\s+4\s+", table_row(app, "serving"))
        clock.advance(minutes=11)  # the learning steps have passed: six questions due
        assert re.search(r"\s+0\s+4\s+", table_row(app, "serving"))  # not yet redrawn
        home.refresh_home()  # what the one-minute timer calls
        await pilot.pause()
        assert re.search(r"Serving basics\s+6/10\s+0\s+6\s+4\s+", table_row(app, "serving"))


async def test_a_mode_picked_starts_without_the_home_figures_read_first(make_app) -> None:
    """The home screen is under the picker: a mode picked takes the picker's place with the
    round at once, so the home screen is neither shown (restyled, laid out) nor read in
    between, only when it is back on top (at 100k faces that read was a third of the wait for
    the round, and showing it again another 40 ms)."""
    from textual import events

    app = make_app(folders=[DATA / "ui"])
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        reads: list[int] = []
        home = app.session.home
        app.session.home = lambda: reads.append(1) or home()  # type: ignore[method-assign]
        home_screen, resumed = app.screen, []
        post = home_screen.post_message

        def note(message: object) -> bool:
            if isinstance(message, events.ScreenResume):
                resumed.append(1)
            return post(message)  # type: ignore[arg-type]

        home_screen.post_message = note  # type: ignore[method-assign]
        await pilot.press("g")
        await pilot.pause()
        await pilot.press("1")  # learn
        await pilot.pause()
        assert isinstance(app.screen, RoundScreen) and reads == [] and resumed == []
        assert app.screen_stack[-2] is home_screen  # the picker is gone
        await app.pop_screen()
        await pilot.pause()
        assert isinstance(app.screen, HomeScreen) and reads == [1] and resumed == [1]
        await pilot.press("g")
        await pilot.pause()
        await pilot.press("escape")  # no mode: the home screen is back, and read
        await pilot.pause()
        assert isinstance(app.screen, HomeScreen) and reads == [1, 1]


async def test_the_home_screens_keys_can_be_asked_before_its_table_is_composed(
    make_app,
) -> None:
    """Textual may ask a screen's `check_action` before the screen is composed (a footer on
    the screen below, rebuilt as a new home screen is pushed, reads the bindings of the app's
    screen): no deck is selected then, and no key of a deck offered, rather than a crash."""
    app = make_app(folders=[DATA / "ui"])
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        home = app.screen
        assert isinstance(home, HomeScreen) and home.check_action("browse", ()) is True
        fresh = HomeScreen()
        fresh.home = home.home  # its figures read, its table not yet there
        assert fresh.selected() is None
        assert fresh.check_action("browse", ()) is False


async def test_home_redraws_itself_on_a_timer(make_app, clock, monkeypatch) -> None:
    from vocabgame.ui.screens import home as home_screen

    monkeypatch.setattr(home_screen, "REFRESH_SECONDS", 0.5)  # a minute, for a test
    app = make_app(folders=[DATA / "ui"])
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("enter")
        await play_round(pilot, app)
        await pilot.press("enter")
        await pilot.pause()
        clock.advance(minutes=11)
        for _ in range(40):  # no key pressed: only the timer can redraw it
            await pilot.pause(0.25)
            if re.search(r"\s+6\s+4\s+", table_row(app, "serving")):
                break
        assert re.search(r"Serving basics\s+6/10\s+0\s+6\s+4\s+", table_row(app, "serving"))


# -- 4: narrow terminals keep the question ------------------------------------------------------


def on_top(app, selector: str) -> bool:
    """The widget is on screen and nothing covers its first cell: the player sees it."""
    widget = app.screen.query_one(selector)
    region = widget.region
    if not widget.display or region.height == 0 or region.y < 0:
        return False
    if region.bottom > app.screen.size.height:
        return False
    at, _ = app.screen.get_widget_at(region.x + 1, region.y)
    return at is widget or widget in at.ancestors


WORDY = "Prefill reads the whole prompt once and fills the KV cache for every layer"


def wordy_deck(tmp_path: Path) -> list[Path]:
    """One scenario whose prompt and choices each take several lines on a small screen."""
    folder = tmp_path / "wordy"
    folder.mkdir(exist_ok=True)
    choices = ", ".join(f"'{WORDY}, choice {n}.'" for n in range(4))
    (folder / "wordy.yaml").write_text(
        "format: 1\nid: wordy\ntitle: A deck with a long title that will not fit\n"
        f"scenarios:\n  - id: s\n    prompt: '{WORDY}; {WORDY}. Which one?'\n"
        f"    choices: [{choices}]\n    answer: '{WORDY}, choice 0.'\n"
        "    explanation: Because.\n",
        encoding="utf-8",
    )
    return [folder]


async def test_the_prompt_stays_in_view_at_every_size(make_app, tmp_path) -> None:
    for size in ((80, 24), (60, 20), (40, 12)):
        for folders in ([DATA / "ui"], wordy_deck(tmp_path)):
            app = make_app(folders=folders, start_round=True)
            async with app.run_test(size=size) as pilot:
                await pilot.pause()
                while isinstance(app.screen, RoundScreen):
                    screen = app.screen
                    question = screen.round.question()
                    assert on_top(app, "#prompt"), (size, question.key)
                    if question.kind == Kind.CHOICE:
                        choices = screen.query_one("#choices")
                        hint = screen.query_one("#hint")
                        # The list is a box of its own between the prompt and the hint.
                        assert choices.region.bottom <= hint.region.y, size
                        for _ in question.choices:  # to the last choice: the list scrolls
                            await pilot.press("down")
                        await pilot.pause()
                        assert on_top(app, "#prompt"), size
                        assert on_top(app, "#choices"), size
                    await answer(pilot, app, True)
                    assert on_top(app, "#prompt"), (size, "feedback")
                    assert on_top(app, "#label"), (size, "verdict")
                    await pilot.press("enter")
                    await pilot.pause()
            app.session.close()


async def test_the_round_header_never_runs_together(make_app) -> None:
    for size in ((80, 24), (60, 20), (40, 12)):
        app = make_app(folders=[DATA / "ui"], start_round=True)
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            title = app.screen.query_one("#deck-title", Static)
            score = app.screen.query_one("#score", Static)
            assert title.region.right <= score.region.x, size
            assert score.region.right <= size[0], size
            assert plain(score.content).startswith(("Question 1 of", "Q 1/")), size
        app.session.close()


async def test_the_home_table_keeps_every_column_on_small_terminals(make_app, tmp_path) -> None:
    for size in ((60, 20), (40, 12)):
        app = make_app(folders=two_decks(tmp_path))
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            table = app.screen.query_one("#decks", DataTable)
            widths = sum(c.get_render_width(table) for c in table.columns.values())
            assert widths <= table.scrollable_content_region.width, size
            assert [str(c.label) for c in table.columns.values()][-1] == "Best", size
            assert table.region.height >= 3, size  # the header and rows, not squeezed out
            assert table.region.bottom <= size[1] - 1, size  # above the footer
        app.session.close()


# -- 5: long feedback scrolls with the keyboard --------------------------------------------------


LONG = " ".join(["Prefill reads the prompt once while decode reads the weights per token."] * 6)


async def test_long_feedback_scrolls_with_the_keys_at_80x24(make_app, tmp_path) -> None:
    folder = tmp_path / "long"
    folder.mkdir()
    (folder / "long.yaml").write_text(
        "format: 1\nid: long\ntitle: Long\nscenarios:\n  - id: s\n"
        "    prompt: Which phase is memory-bound?\n    choices: [Decode, Prefill, Neither]\n"
        f"    answer: Decode\n    explanation: {LONG}\n"
        f"    why_not: {{Prefill: {LONG}, Neither: {LONG}}}\n",
        encoding="utf-8",
    )
    app = make_app(folders=[folder], start_round=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await answer(pilot, app, False)
        body = app.screen.query_one("#body", VerticalScroll)
        assert body.max_scroll_y > 0
        assert body.scroll_y == 0
        assert "↓ PgDn: more below" in screen_text(app)  # the hint says that it scrolls
        await pilot.press("down")
        await pilot.pause()
        assert body.scroll_y == 1
        await pilot.press("end")
        await pilot.pause()
        assert body.scroll_y == body.max_scroll_y
        await pilot.press("home")
        await pilot.pause()
        await pilot.press("pagedown")
        await pilot.pause()
        assert body.scroll_y > 1
        assert app.session.store.answers.count() == app.screen.round.answered  # keys scrolled only


# -- 8: a round ended before any answer ----------------------------------------------------------


async def test_a_round_ended_before_any_answer_says_nothing_was_answered(make_app) -> None:
    app = make_app(start_round=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("q")  # nothing answered: no question asked, it just ends
        await pilot.pause()
        assert isinstance(app.screen, ResultsScreen)
        text = screen_text(app)
        assert "Nothing was answered in this round" in text
        assert "0 of 0" not in text and "Accuracy" not in text
    assert app.session.store.answers.count() == 0


# -- 10: the daily new limit is per deck, and can be raised -------------------------------------


async def test_the_new_limit_is_per_deck_and_learn_more_raises_it(make_app, tmp_path) -> None:
    app = make_app(folders=two_decks(tmp_path))
    app.session.change_settings(app.session.settings.changed(new_per_day=2))
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        table = app.screen.query_one("#decks", DataTable)
        table.move_cursor(row=table.get_row_index("serving"))
        await pilot.press("enter")
        await pilot.pause()
        assert app.screen.round.total == 2  # two new items of this deck today
        await play_round(pilot, app)
        await pilot.press("enter")
        await pilot.pause()
        # The other deck keeps its own two.
        assert (row_of(app, "second").new_items_left, row_of(app, "second").new) == (2, 2)
        serving = row_of(app, "serving")
        assert serving.limit_reached
        assert "All 2 new items for today are started." in screen_text(app)
        assert "m: learn 4 more today" in screen_text(app)  # four items never started
        await pilot.press("m")
        await pilot.pause()
        assert app.session.extra_new_today() == {"serving": 4}  # kept in the store
        assert not row_of(app, "serving").limit_reached
        await pilot.press("enter")
        await pilot.pause()
        started = {k.item_id for k in app.screen.round.queue} - {"ttft", "tpot", "blank-reply"}
        assert started, "the raised limit lets new items start"
    again = make_app(folders=two_decks(tmp_path))
    assert again.session.extra_new_today() == {"serving": 4}


async def test_when_the_limit_is_reached_a_practice_round_is_a_key_away(make_app, tmp_path) -> None:
    app = make_app(folders=two_decks(tmp_path))
    app.session.change_settings(app.session.settings.changed(new_per_day=1))
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        table = app.screen.query_one("#decks", DataTable)
        table.move_cursor(row=table.get_row_index("second"))
        await pilot.press("enter")
        await play_round(pilot, app)
        await pilot.press("enter")
        await pilot.pause()
        assert "p: a practice round" in screen_text(app)
        await pilot.press("p")
        await pilot.pause()
        assert isinstance(app.screen, RoundScreen)
        assert app.screen.round.mode == ModeId.PRACTICE


async def test_settings_are_edited_in_the_game_with_reasons_for_bad_values(make_app) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("s")
        await pilot.pause()
        assert isinstance(app.screen, SettingsScreen)
        text = screen_text(app)
        for label in ("Desired retention", "New items a day", "Round size", "Theme"):
            assert label in text
        size = app.screen.query_one("#set-round_size", Input)
        size.focus()
        size.value = ""
        await pilot.press(*keys_for("0"), "enter")
        await pilot.pause()
        assert isinstance(app.screen, SettingsScreen)
        assert "Round size 0 is outside 1 to 500." in screen_text(app)
        assert app.session.store.preferences.read()[0].round_size == 20  # nothing saved
        size.value = ""
        await pilot.press(*keys_for("7"))
        per_day = app.screen.query_one("#set-new_per_day", Input)
        per_day.focus()
        per_day.value = ""
        await pilot.press(*keys_for("5"), "ctrl+s")
        await pilot.pause()
        assert isinstance(app.screen, HomeScreen)
        assert "5 new items a deck a day" in screen_text(app)
    saved = app.session.store.preferences.read()[0]
    assert (saved.round_size, saved.new_per_day) == (7, 5)


async def test_a_settings_error_shows_under_its_field_and_goes_once_fixed(make_app) -> None:
    """The screen opens on its first field with no error line; a bad value's line is put
    under its own field, and hidden once the value is allowed."""
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("s")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, SettingsScreen)
        assert screen.focused is screen.query_one("#set-desired_retention")
        assert not screen.query(".error")
        size = screen.query_one("#set-round_size", Input)
        size.value = "0"
        await pilot.press("ctrl+s")
        await pilot.pause()
        error = screen.query_one("#error-round_size", Static)
        assert error.display and error.parent is size.parent
        siblings = list(size.parent.children)
        assert siblings.index(error) == siblings.index(size) + 1
        size.value = "7"
        screen.query_one("#set-new_per_day", Input).value = "-1"
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert not error.display and screen.query_one("#error-new_per_day", Static).display
        assert "outside" in screen_text(app) and "Round size" not in plain(
            screen.query_one("#error-new_per_day", Static).content
        )


async def test_the_fields_below_the_first_screenful_come_after_its_first_frame(
    make_app,
) -> None:
    """The settings open with the fields in view; the rest are mounted once the first frame
    is drawn, and Ctrl+S before then saves the fields not there yet unchanged."""
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = SettingsScreen()
        await app.push_screen(screen)  # composed and mounted, not yet refreshed
        assert screen.query("#set-desired_retention")
        assert not screen.query("#set-theme")
        screen.query_one("#set-round_size", Input).value = "9"
        screen.action_save()
        await pilot.pause()
        assert isinstance(app.screen, HomeScreen)
        saved = app.session.store.preferences.read()[0]
        assert (saved.round_size, saved.theme) == (9, app.session.settings.theme)
        await pilot.press("s")
        await pilot.pause()
        assert app.screen.query("#set-theme")  # every field, once drawn
        assert len(app.screen.query(".setting")) == len(SPECS)


async def test_up_and_down_move_between_the_settings_fields_as_the_screen_says(
    make_app,
) -> None:
    """The intro says "Tab or ↑ ↓ move between fields": ↓ takes the focus to the next field
    (the list scrolls to it), ↑ back; the list's own ↑ ↓ scrolled it and left the focus."""
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("s")
        await pilot.pause()
        screen = app.screen
        assert "↑ ↓ move between fields" in screen_text(app)
        ids = [f"set-{spec.key}" for spec in SPECS]
        for n in range(1, 8):
            await pilot.press("down")
            await pilot.pause()
            assert screen.focused is not None and screen.focused.id == ids[n]
            assert screen.focused.region.height > 0  # scrolled into view
        await pilot.press("up")
        await pilot.pause()
        assert screen.focused is not None and screen.focused.id == ids[6]


async def test_escape_leaves_the_settings_without_saving(make_app) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("s")
        await pilot.pause()
        app.screen.query_one("#set-round_size", Input).value = "9"
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, HomeScreen)
    assert app.session.store.preferences.read()[0].round_size == 20


# -- 11: ending a round asks once answers were given ----------------------------------------------


async def test_q_asks_before_ending_a_round_with_answers(make_app) -> None:
    app = make_app(start_round=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await answer(pilot, app, True)
        await pilot.press("q")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmScreen)
        assert "End this round now?" in screen_text(app)
        await pilot.press("n")
        await pilot.pause()
        assert isinstance(app.screen, RoundScreen)
        await pilot.press("q")
        await pilot.pause()
        await pilot.press("escape")  # Escape stays too
        await pilot.pause()
        assert isinstance(app.screen, RoundScreen)
        await pilot.press("q", "enter")
        await pilot.pause()
        assert isinstance(app.screen, ResultsScreen)
    [played] = app.session.store.scoreboard.all()
    assert played.ended_at is not None and not played.finished


async def test_escape_clears_the_typed_answer_before_it_leaves(make_app) -> None:
    app = make_app(start_round=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await skip_to(pilot, app, Kind.TYPED, Kind.NUMBER)
        answered = app.screen.round.answered
        await pilot.press(*keys_for("qq"))
        field = app.screen.query_one("#answer", Input)
        assert field.value == "qq"  # q types, it does not end the round
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, RoundScreen) and field.value == ""
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("y")
        await pilot.pause()
        assert isinstance(app.screen, ResultsScreen)
    assert app.session.store.answers.count() == answered


# -- 15: feedback that reads at a glance ---------------------------------------------------------


async def test_a_right_pick_is_marked_and_nothing_on_screen_is_said_twice(make_app) -> None:
    app = make_app(folders=[DATA / "ui"], deck="serving", start_round=True)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        round_ = app.screen.round
        # The definition shown, pick the term: ttft's "term" face.
        round_.queue[0] = type(round_.queue[0])("serving", "ttft", "term")
        app.screen.show_question()
        await pilot.pause()
        await answer(pilot, app, True)
        text = screen_text(app)
        definition = "Time from sending a request until its first output token arrives."
        assert text.count(definition) == 1  # the prompt, not again in the feedback
        assert re.search(r"✓ \d Time to first token", text)
        assert "✗" not in text and "Answer:" not in text
        assert "Example: A chat reply that starts after 0.8 s has a TTFT of 800 ms." in text
        assert "Source: vLLM benchmark serving" in text
        assert "more below" not in text  # it all fits: no promise of more
        assert "https://" not in text  # the addresses are a key away
        await pilot.press("l")
        await pilot.pause()
        assert "https://github.com/vllm-project/vllm" in screen_text(app)


async def test_a_source_title_is_a_terminal_link(make_app) -> None:
    app = make_app(folders=[DATA / "ui"], deck="serving", start_round=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await answer(pilot, app, True)
        feedback = app.screen.query_one("#feedback", Static)
        links = {
            span.style.link
            for part in feedback.content.renderables
            if hasattr(part, "spans")
            for span in part.spans
            if hasattr(span.style, "link") and span.style.link
        }
        assert links == {"https://github.com/vllm-project/vllm/blob/main/vllm/benchmarks/serve.py"}


# -- 16: results list each miss once, and review them at once -----------------------------------


async def test_results_list_each_miss_once_and_r_reviews_them(make_app) -> None:
    app = make_app(folders=[DATA / "ui"], deck="serving", start_round=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        round_ = app.screen.round
        missed = round_.question().key
        prompt = round_.question().prompt
        await answer(pilot, app, False)  # comes back three questions later
        await pilot.press("enter")
        while isinstance(app.screen, RoundScreen):
            await answer(pilot, app, app.screen.round.question().key != missed)
            await pilot.press("enter")
            await pilot.pause()
        assert isinstance(app.screen, ResultsScreen)
        text = screen_text(app)
        assert "Missed 1 question" in text
        assert text.count(prompt) == 1
        assert "You answered:" in text and "Right answer:" in text
        cards_before = app.session.store.schedules.cards()
        await pilot.press("r")
        await pilot.pause()
        assert isinstance(app.screen, RoundScreen)
        assert app.screen.round.queue == [missed]
        assert app.screen.round.mode == ModeId.MISSES
        await answer(pilot, app, True)
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, ResultsScreen)
        assert "Nothing missed." in screen_text(app)
        assert "New personal best" not in screen_text(app)  # a drill, not a round for bests
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, HomeScreen)
    store = app.session.store
    assert (
        store.schedules.cards() == cards_before
    )  # reviewing misses right away leaves the schedule
    assert len(store.scoreboard.all()) == 1  # nor does it count as a round (best score, day streak)
    assert store.answers.all()[-1].key == missed and store.answers.all()[-1].mode == ModeId.MISSES


# -- 17: home details and a capped width ---------------------------------------------------------


async def test_home_shows_the_highlighted_decks_details(make_app, tmp_path) -> None:
    app = make_app(folders=two_decks(tmp_path))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        details = app.screen.query_one("#details", Static)
        table = app.screen.query_one("#decks", DataTable)
        table.move_cursor(row=table.get_row_index("serving"))
        await pilot.pause()
        text = plain(details.content)
        assert "The two latency figures every serving benchmark reports" in text
        assert "Tags: latency, metrics" in text
        assert "0 of 10 questions answered at least once" in text
        await pilot.press("down")
        await pilot.pause()
        text = plain(details.content)
        assert "Five claims about decode." in text and "Tags: decode" in text


async def test_home_lines_stay_readable_on_a_wide_terminal(make_app, tmp_path) -> None:
    app = make_app(folders=two_decks(tmp_path))
    async with app.run_test(size=(160, 40)) as pilot:
        await pilot.pause()
        home = app.screen.query_one("#home")
        assert home.size.width <= 120
        details = app.screen.query_one("#details")
        table = app.screen.query_one("#decks")
        assert details.region.x >= table.region.right  # beside the table when there is room


async def test_a_theme_chosen_in_the_settings_applies_at_once(make_app) -> None:
    from textual.widgets import Select

    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("s")
        await pilot.pause()
        theme = app.screen.query_one("#set-theme", Select)
        theme.focus()
        await pilot.press("enter")  # open the list
        await pilot.pause()
        await pilot.press("down", "enter")  # the theme after the dark one
        await pilot.pause()
        assert theme.value == "textual-light"
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert isinstance(app.screen, HomeScreen)
        assert app.theme == "textual-light"
    assert app.session.store.preferences.read()[0].theme == "textual-light"
