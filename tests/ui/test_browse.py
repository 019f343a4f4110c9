"""Reading a deck before being tested on it: the browse screen from home's `b`."""

from __future__ import annotations

from pathlib import Path

from textual.widgets import Input

from benchmarks import big
from vocabgame.play import ModeId
from vocabgame.ui.screens.browse import PAGE, BrowseScreen, EntryList
from vocabgame.ui.screens.home import HomeScreen
from vocabgame.ui.screens.round import RoundScreen

from ..conftest import DATA
from ..test_session import answer as answer_round
from .conftest import screen_text
from .test_play import answer


async def test_b_shows_each_term_with_its_definition_example_and_sources(make_app) -> None:
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("b")
        await pilot.pause()
        assert isinstance(app.screen, BrowseScreen)
        text = screen_text(app)
        assert "Time to first token" in text and "Time per output token" in text
        assert "Time from sending a request until its first output token arrives." in text
        assert "Caveat: Says nothing about how fast the rest of the reply streams." in text
        assert "Example: A chat reply that starts after 0.8 s has a TTFT of 800 ms." in text
        assert "Source: vLLM benchmark serving https://github.com/vllm-project/vllm" in text
        assert app.screen.sub_title == "2 terms and groups to read"  # not the app's tagline
        shown = app.screen.query_one("#entry").content
        definition = shown.plain.index("Time from sending")
        bold = [s for s in shown.spans if "bold" in str(s.style) and s.start <= definition < s.end]
        assert not bold and not shown.style  # the name and labels stand out, not the text
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, HomeScreen)


GROUP = """
confusables:
  - id: cmp-ttft-tpot
    terms: [ttft, tpot]
    distinction: TTFT is the wait before anything appears; TPOT is the pace after it.
    cues:
      - {text: "How long the screen stays blank", answer: ttft}
      - {text: "How fast the words stream once they start", answer: tpot}
"""


def deck_with_a_group(tmp_path: Path) -> Path:
    """The UI test deck with a group of two terms often confused."""
    (tmp_path / "serving.yaml").write_text((DATA / "ui" / "serving.yaml").read_text() + GROUP)
    return tmp_path


async def test_a_search_narrows_the_list_and_a_group_shows_its_distinction(
    make_app, tmp_path: Path
) -> None:
    app = make_app(folders=[deck_with_a_group(tmp_path)])
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("b", "slash")
        await pilot.pause()
        assert isinstance(app.focused, Input)
        await pilot.press(*"pace after")  # words of the group's distinction only
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, BrowseScreen)
        assert [e.kind for e in screen.shown] == ["group"]
        text = screen_text(app)
        assert "The distinction:" in text and "Often confused: Time to first token" in text
        assert "TTFT is the wait before anything appears; TPOT is the pace after it." in text
        assert "Time from sending a request" not in text  # the terms are filtered out
        await pilot.press("escape")  # clears the search first
        await pilot.pause()
        assert isinstance(app.screen, BrowseScreen) and len(screen.shown) == len(screen.entries)


async def test_enter_asks_the_highlighted_terms_questions_and_moves_no_due_date(
    make_app,
) -> None:
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("b", "slash", *"TPOT", "enter", "enter")
        await pilot.pause()
        assert isinstance(app.screen, RoundScreen)
        round_ = app.screen.round
        assert round_.mode == ModeId.CRAM
        assert {k.item_id for k in round_.queue} == {"tpot"} and len(round_.queue) == 3
        await answer(pilot, app, True)
        await pilot.pause()
    store = app.session.store
    assert store.schedules.cards() == {}  # read, then asked at once: kept as practice
    last = store.answers.all()[-1]
    assert last.key.item_id == "tpot" and last.mode == ModeId.CRAM


# -- 18: how much today holds, from the player's own answer times --------------------------------


async def test_home_says_what_today_holds_in_minutes_from_the_players_answer_times(
    make_app, clock
) -> None:
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        # 10 new questions at a new player's 12 seconds each.
        assert "Today: 0 due · 10 new · about 2 minutes" in screen_text(app)
        rnd = app.session.start_round("serving", size=3)
        for _ in range(3):
            rnd.question()
            clock.advance(seconds=60)  # a slow player: a minute a question
            answer_round(rnd, True)
            rnd.advance()
        rnd.finish()
        app.screen.refresh_home()
        await pilot.pause()
        home = app.session.home()
        left = home.decks[0].due + home.decks[0].new
        assert home.seconds_per_question == 60
        assert f"about {left} minutes" in screen_text(app)


# -- a deck of many terms: listed a page at a time, End and the scroll reach its last ----------


def many_terms(tmp_path: Path, items: int) -> Path:
    (tmp_path / "big.yaml").write_text(big.deck_text(items))
    return tmp_path


async def test_a_big_deck_lists_a_page_and_end_or_the_scroll_reach_its_last_term(
    make_app, tmp_path: Path
) -> None:
    items = PAGE * 2 + 7  # more than the page the list starts with
    app = make_app(folders=[many_terms(tmp_path, items)])
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("b")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, BrowseScreen) and len(screen.entries) == items
        listed = screen.query_one("#entries", EntryList)
        assert listed.option_count < items  # one page and the next, not every term
        await pilot.press("end")
        await pilot.pause()
        assert listed.highlighted == items - 1 and listed.option_count == items
        assert f"The meaning of term number {items - 1}," in screen_text(app)
        await pilot.press("up")
        await pilot.pause()
        assert f"The meaning of term number {items - 2}," in screen_text(app)
        await pilot.press("home")
        await pilot.pause()
        assert "The meaning of term number 0," in screen_text(app)

        # Scrolling alone (a mouse wheel, the scrollbar) lists the pages it comes to.
        await pilot.press("slash", "z", "escape")  # a search, cleared: listed from the start
        await pilot.pause()
        assert isinstance(app.screen, BrowseScreen) and listed.option_count < items
        while listed.scroll_y < listed.max_scroll_y or listed.option_count < items:
            before = listed.option_count
            listed.scroll_end(animate=False, immediate=True)
            await pilot.pause()
            assert listed.option_count > before or listed.option_count == items
        assert listed.option_count == items

        # A search looks in every entry, listed or not.
        await pilot.press("slash", *f"{items - 3},")  # "405,": in its definition alone
        await pilot.pause()
        assert [e.item_id for e in screen.shown] == [f"t{items - 3:06d}"]
        assert f"The meaning of term number {items - 3}," in screen_text(app)
