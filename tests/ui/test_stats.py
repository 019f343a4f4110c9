"""The stats screen, played by keys: opened from home and from a round's results, its scope
switched, its weakest questions and confusions a key away from a round of them; and, after a
scripted fortnight (tests/fortnight.py), the figures worked out by hand on screen."""

from __future__ import annotations

from datetime import date, timedelta

from textual.pilot import Pilot
from textual.widgets import Static

from vocabgame.deck import load_catalog
from vocabgame.model import FaceKey
from vocabgame.play import ModeId, Session
from vocabgame.play.overview import as_json
from vocabgame.store import DB_NAME, Store
from vocabgame.ui.app import VocabApp
from vocabgame.ui.screens.home import HomeScreen
from vocabgame.ui.screens.results import ResultsScreen
from vocabgame.ui.screens.round import RoundScreen
from vocabgame.ui.screens.stats import HEAT, StatsScreen, heatmap

from ..conftest import DATA
from ..faults import answer_right
from ..fortnight import START, TTFT_TYPED, play_fortnight
from .conftest import screen_text
from .test_play import play_round


async def _open_stats(pilot: Pilot) -> None:
    await pilot.pause()
    await pilot.press("t")
    await pilot.pause()


def _played(make_session, clock) -> None:
    clock.now = START
    play_fortnight(make_session(), clock)


async def test_after_a_fortnight_the_screen_shows_the_figures_worked_out_by_hand(
    make_app, make_session, clock
) -> None:
    _played(make_session, clock)
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await _open_stats(pilot)
        assert isinstance(app.screen, StatsScreen)
        text = screen_text(app)
        assert "Stats: Serving basics" in text
        assert "6 of 10 questions answered at least once" in text
        assert "Due now 0 · later today 0 · tomorrow 0 · this week 0" in text
        assert "True retention 98% (65/66) over 30 days · desired 90%" in text
        assert "Above target" in text
        assert "Day streak 5 · longest 8" in text
        assert "81 answers in 12 weeks" in text
        assert "93% (13/14)  true or false" in text
        assert "0% (0/1)  type the term" in text
        assert "93% (13/14)  scenario" in text
        # missed once in 14 answers (a lapse after it was learned: "lapses 1"); its days
        # counted across the 4 a.m. rollover, as Anki counts them (14.1 in 24-hour periods)
        assert (
            "1 Users stare at a blank reply" in text and "missed 1 of 14 · stability 15.8" in text
        )
        assert "96% (78/81)  latency" in text
        assert (
            "a picked Time per output token when the answer was Time to first token: 1 time" in text
        )
        # learn by the name it is played by (stored as "review")
        assert "practice: 90" in text and "learn: 90" in text and "review" not in text
        assert "Flagged questions (1)" in text and "the choices leak it" in text


async def test_from_home_switch_scope_and_play_the_weakest(make_app, make_session, clock) -> None:
    _played(make_session, clock)
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await _open_stats(pilot)
        screen = app.screen
        assert isinstance(screen, StatsScreen) and screen.deck_id == "serving"
        await pilot.press("s")  # the deck -> every deck
        await pilot.pause()
        assert screen.deck_id is None and "Stats: every deck" in screen_text(app)
        await pilot.press("s")  # and back
        await pilot.press("t")  # the first tag of the deck
        await pilot.pause()
        assert "Stats: Serving basics · tag latency" in screen_text(app)
        assert screen.view is not None and screen.view.figures.scope == "deck serving"
        weakest = screen.view.weakest[0][1].key
        reviews = len(app.session.store.answers.all())
        await pilot.press("1")
        await pilot.pause()
        assert isinstance(app.screen, RoundScreen)
        round_ = app.screen.round
        assert round_.queue == [weakest] and round_.mode == ModeId.MISSES
        await play_round(pilot, app)
        assert isinstance(app.screen, ResultsScreen)
        assert len(app.session.store.answers.all()) == reviews + 1  # the answer is kept
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is screen  # back on the stats, with the answer counted
        assert "82 answers in 12 weeks" in screen_text(app)


async def test_a_confusion_is_a_key_away_from_a_round_of_both_terms(
    make_app, make_session, clock
) -> None:
    _played(make_session, clock)
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await _open_stats(pilot)
        await pilot.press("a")
        await pilot.pause()
        assert isinstance(app.screen, RoundScreen)
        asked = {(k.item_id, k.face) for k in app.screen.round.queue}
        assert asked == {(t, f) for t in ("ttft", "tpot") for f in ("definition", "term", "typed")}


async def test_from_a_rounds_results_by_key(make_app) -> None:
    app = make_app(start_round=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await play_round(pilot, app)
        assert isinstance(app.screen, ResultsScreen)
        await pilot.press("t")
        await pilot.pause()
        assert isinstance(app.screen, StatsScreen)
        assert "6 of 10 questions answered at least once" in screen_text(app)
        await pilot.press("escape", "escape")
        await pilot.pause()
        assert isinstance(app.screen, HomeScreen)


async def test_empty_stats_offer_no_round(make_app) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await _open_stats(pilot)
        screen = app.screen
        assert isinstance(screen, StatsScreen)
        text = screen_text(app)
        assert "0 of 10 questions answered at least once" in text
        assert "No reviews of graduated questions" in text
        await pilot.press("1", "w", "a")
        await pilot.pause()
        assert app.screen is screen


def test_the_heatmap_is_a_column_a_week_and_a_row_a_weekday() -> None:
    # Ten days from Monday 2026-11-23 to Wednesday 2026-12-02, n % 3 answers on day n.
    days = [(date(2026, 11, 23) + timedelta(days=n), n % 3) for n in range(10)]
    text = heatmap(days)
    rows = text.plain.splitlines()
    assert rows[0] == "Mon · ■ "  # day 0: none; day 7: one
    assert rows[2] == "Wed ■ · "  # day 2: two; day 9: none
    assert rows[3] == "    ·   "  # Thursday, day 3: none; 12-03 is past the last day: blank
    assert rows[7].endswith("more · 9 answers in 12 weeks")
    # The most answers in a day get the brightest block, one of two a dimmer one.
    assert HEAT[3] in {span.style for span in text.spans}
    colour = {str(span.style) for span in text.spans if text.plain[span.start] == "■"}
    assert colour >= {HEAT[1], HEAT[3]}


def test_every_heatmap_row_starts_in_the_same_column() -> None:
    # Twelve weeks from a Friday (today a Thursday): the first week's Friday to Sunday are
    # left out, or their rows would start a column before Monday's to Thursday's.
    friday = date(2026, 9, 11)
    days = [(friday + timedelta(days=n), 1 if n in (0, 3, 83) else 0) for n in range(84)]
    rows = heatmap(days).plain.splitlines()[:7]
    assert [len(row) - len(row[4:].lstrip()) for row in rows] == [4] * 7
    assert rows[0] == "Mon ■ " + "· " * 11  # from Monday 09-14 (one answer) to this week
    assert rows[3] == "    " + "· " * 11 + "■ "  # today, Thursday 12-03, one answer
    assert rows[4] == "Fri " + "· " * 11 + "  "  # Friday 12-04 is not yet
    assert heatmap(days).plain.endswith("more · 2 answers in 12 weeks")  # 09-14 on, shown


def test_snapshot_with_a_fortnight_of_history(snap_compare, make_app, make_session, clock) -> None:
    _played(make_session, clock)
    assert snap_compare(make_app(), terminal_size=(80, 24), run_before=_open_stats)


def test_snapshot_with_no_history(snap_compare, make_app) -> None:
    assert snap_compare(make_app(), terminal_size=(80, 24), run_before=_open_stats)


async def test_deck_text_and_notes_are_shown_literally(tmp_path, clock) -> None:
    """Markup and terminal escapes in a deck's title, a term and a flag's note are shown as
    text: never styled, never sent to the terminal."""
    folder = tmp_path / "decks"
    folder.mkdir()
    text = (DATA / "ui" / "serving.yaml").read_text(encoding="utf-8")
    text = text.replace("title: Serving basics", 'title: "Serving [/] [bold]basics"', 1)
    text = text.replace("term: Time to first token", 'term: "Time [/] [bold]first"', 1)
    (folder / "serving.yaml").write_text(text, encoding="utf-8")
    session = Session(
        Store.open(tmp_path / "data" / DB_NAME), load_catalog([folder]), clock=clock, fuzz=False
    )
    drill = session.start_misses_round("serving", "drill", [TTFT_TYPED])
    assert drill is not None
    drill.answer_text("Time per output token")
    drill.finish()
    session.store.face_flags.add(TTFT_TYPED, clock(), "see [red]here[/] \x1b]52;c;aGk=\x07")
    app = VocabApp(session, seed=7, settle_seconds=0)
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            await _open_stats(pilot)
            shown = screen_text(app)
            assert "Stats: Serving [/] [bold]basics" in shown
            assert "when the answer was Time [/] [bold]first: 1 time" in shown
            assert "Time [/] [bold]first (type the term)" in shown
            assert "see [red]here[/] \\x1b]52;c;aGk=\\x07" in shown
    finally:
        session.close()


async def test_mock_interview_reports_are_listed_with_their_command(make_app, clock) -> None:
    app = make_app()
    store = app.session.store
    first = store.saved_reports.save(
        ModeId.INTERVIEW, clock(), ("serving",), questions=3, correct=2, seconds=125.0, body={}
    )
    store.saved_reports.save(
        ModeId.INTERVIEW, clock(), ("other-deck",), questions=5, correct=1, seconds=60.0, body={}
    )
    async with app.run_test(size=(80, 24)) as pilot:
        await _open_stats(pilot)
        assert isinstance(app.screen, StatsScreen)
        text = screen_text(app)
        # the deck's own report only (the other one asked about another deck)
        assert "Mock interviews (1)" in text
        assert f"2 of 3 right in 2:05 (vocabgame report {first} --markdown)" in text
        await pilot.press("s")  # every deck: both
        await pilot.pause()
        assert "Mock interviews (2)" in screen_text(app)


async def test_at_100_columns_the_lower_half_is_full_width_and_names_questions_as_asked(
    tmp_path, clock
) -> None:
    """The weakest, the confusions, the flags: as wide as the figures above them; a
    calculation by its prompt filled in, a confusable group by its terms, never an id or a
    template; a question just missed says so."""
    folder = tmp_path / "decks"
    folder.mkdir()
    text = (DATA / "ui" / "serving.yaml").read_text(encoding="utf-8")
    text += (
        "confusables:\n"
        "  - id: latency-pair\n"
        "    terms: [ttft, tpot]\n"
        "    distinction: TTFT is the wait for the first token; TPOT the pace after it.\n"
        "    cues:\n"
        "      - {text: The wait before the reply starts., answer: ttft}\n"
    )
    (folder / "serving.yaml").write_text(text, encoding="utf-8")
    session = Session(
        Store.open(tmp_path / "data" / DB_NAME), load_catalog([folder]), clock=clock, fuzz=False
    )
    cue = FaceKey("serving", "latency-pair", "cue-1")
    calc = FaceKey("serving", "tpot-calc", "calculation")
    missed = session.start_misses_round("serving", "again", [cue])
    assert missed is not None
    question = missed.question()
    assert question is not None
    missed.answer_choice(next(i for i, c in enumerate(question.choices) if c.value == "tpot"))
    missed.finish()
    learn = session.start_round("serving", size=10, seed=1)
    assert learn is not None and cue in learn.queue
    while (question := learn.question()) is not None:
        if question.key == cue:  # missed again: now it has a schedule, the weakest
            learn.answer_choice(
                next(i for i, c in enumerate(question.choices) if c.value == "tpot")
            )
        else:
            answer_right(learn)
        learn.advance()
    learn.finish()
    session.store.face_flags.add(calc, clock(), "")
    app = VocabApp(session, seed=7, settle_seconds=0)
    try:
        async with app.run_test(size=(100, 40)) as pilot:
            await _open_stats(pilot)
            assert isinstance(app.screen, StatsScreen)
            shown = screen_text(app)
            assert "TTFT vs TPOT (which term fits a cue)" in shown
            assert "latency-pair" not in shown
            assert "A request took 2100 ms end to end, 100 ms to the first toke…" in shown
            assert "{e2e}" not in shown and "{ttft}" not in shown
            # missed before it was learned (lapses 0), and again when the round asked it again
            assert "TTFT vs TPOT (which term fits a cue)  missed 3 of 3" in shown
            assert "lapses" not in shown
            top = app.screen.query_one("#top", Static)
            lower = [
                w
                for w in app.screen.query(Static)
                if "Weakest questions" in str(getattr(w.content, "plain", w.content))
            ]
            assert len(lower) == 1 and lower[0].size.width == top.size.width > 90
        # `vocabgame stats --json` names them the same way
        labels = {w["label"] for w in as_json(session.insights("serving"))["weakest"]}
        assert "TTFT vs TPOT (which term fits a cue)" in labels
    finally:
        session.close()
