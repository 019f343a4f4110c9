"""The figures one screen gives agree with another's and with what a round then holds: home,
the stats screen (opened with t) and `vocabgame stats --json`, after rounds played by keys."""

from __future__ import annotations

import functools
import json
import re
from datetime import UTC

import pytest
from textual.pilot import Pilot

import vocabgame.play
from vocabgame.cli import main
from vocabgame.ui.app import VocabApp
from vocabgame.ui.screens.home import HomeScreen
from vocabgame.ui.screens.results import ResultsScreen
from vocabgame.ui.screens.stats import StatsScreen

from ..conftest import DATA
from ..faults import answer_right
from .conftest import screen_text
from .test_play import play_round


@pytest.fixture
def stats_json(data_dir, clock, monkeypatch, capsys):
    """`vocabgame stats --json ARGS` on the test's data folder, at the test's clock."""
    monkeypatch.setattr(
        vocabgame.play,
        "open_session",
        functools.partial(vocabgame.play.open_session, clock=clock, tz=UTC),
    )

    def run(*args: str) -> dict:
        capsys.readouterr()
        folders = ["--data-dir", str(data_dir), "--decks", str(DATA / "ui")]
        assert main(["stats", "--json", *folders, *args]) == 0
        return json.loads(capsys.readouterr().out)

    return run


async def _round(pilot: Pilot, app: VocabApp) -> None:
    """Enter on home, every answer right, back home from the results."""
    await pilot.press("enter")
    await pilot.pause()
    await play_round(pilot, app)
    assert isinstance(app.screen, ResultsScreen)
    await pilot.press("escape")
    await pilot.pause()
    assert isinstance(app.screen, HomeScreen)


async def _stats(pilot: Pilot, app: VocabApp) -> str:
    await pilot.press("t")
    await pilot.pause()
    assert isinstance(app.screen, StatsScreen)
    return screen_text(app)


async def test_due_now_is_one_figure_on_home_the_stats_screen_and_in_json(
    make_app, clock, stats_json
) -> None:
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        await _round(pilot, app)  # six new questions, each due again in minutes
        assert "0 due now" in screen_text(app)
        text = await _stats(pilot, app)
        assert "Due now 0 · later today 6 · tomorrow 0" in text
        await pilot.press("escape")
        await pilot.pause()
        clock.advance(hours=1)  # now they are due
        app.screen.refresh_home()
        await pilot.pause()
        assert "6 due now" in screen_text(app)
        assert "Due now 6 · later today 0" in await _stats(pilot, app)
    out = stats_json("--deck", "serving")
    assert out["decks"][0]["due"] == out["due_now"] == 6
    assert (out["due_later_today"], out["due_today"]) == (0, 6)
    assert out["forecast"][0]["due"] == out["due_today"]


@pytest.mark.parametrize("width", [40, 60, 80])
async def test_the_forecast_counts_fit_under_their_days(make_app, clock, width) -> None:
    app = make_app()
    async with app.run_test(size=(width, 30)) as pilot:
        await pilot.pause()
        await _round(pilot, app)
        await _stats(pilot, app)
        await pilot.pause()
        days = app.screen.query_one("#forecast-days")
        lines = [line.rstrip() for line in str(days.render()).splitlines()]
        assert len(lines) == 2, lines  # the counts on one line, the days on the next
        counts, labels = lines
        assert len(counts) <= days.content_region.width >= len(labels)
        assert counts.split()[0] == "6"
        assert len(counts.split()) == len(re.findall(r"\S+", labels))


def _row(app: VocabApp):
    return next(r for r in app.screen.home.decks if r.id == "serving")


async def test_a_cram_round_moves_no_count_of_new_or_started_items(
    make_app, clock, stats_json
) -> None:
    app = make_app()
    app.session.change_settings(app.session.settings.changed(new_per_day=2, round_size=6))
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        await _round(pilot, app)  # the two new items the day allows
        before = _row(app)
        assert (before.seen, before.new, before.started_today) == (2, 2, 2)
        await pilot.press("g", "5")  # cram: the four items never started are asked too
        await pilot.pause()
        crammed = {k.item_id for k in app.screen.round.queue}
        assert len(crammed) == 6
        await play_round(pilot, app)
        await pilot.press("escape")
        await pilot.pause()
        after = _row(app)
        assert (after.seen, after.new, after.started_today) == (2, 2, 2)
        assert (after.new_items_left, after.unstarted_items) == (0, 4)
        text = screen_text(app)
        assert "2 of 10 questions answered at least once" in text
        assert "New items started today: 2 of 2 allowed" in text
        assert "2 of 10 questions answered at least once" in await _stats(pilot, app)
        await pilot.press("escape")
        await pilot.pause()
        await pilot.press("enter")  # the next learn round starts no crammed item
        await pilot.pause()
        assert {k.item_id for k in app.screen.round.queue} <= {"ttft", "blank-reply"}
    deck = stats_json("--deck", "serving")["decks"][0]
    assert (deck["seen"], deck["new"], deck["new_items_left"], deck["unstarted"]) == (2, 2, 0, 4)


async def test_home_promises_no_more_than_the_round_plays_once_new_items_are_used_up(
    make_app, clock
) -> None:
    """With 2 new items a day and rounds of 6, what is left today can take more rounds than
    one (a round asks one question per item): home says what is left and that a round asks
    one per item, and promises no round of a size the round does not have."""
    app = make_app()
    app.session.change_settings(app.session.settings.changed(new_per_day=2, round_size=6))
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        await _round(pilot, app)  # the day's 2 new items
        clock.advance(hours=1)  # their questions are due again
        app.screen.refresh_home()
        await pilot.pause()
        text = screen_text(app)
        offer = re.search(r"Enter: play on \((\d+) questions? left today, one per item", text)
        assert offer is not None, text
        await pilot.press("enter")
        await pilot.pause()
        assert app.screen.round.total <= int(offer.group(1))
        assert "Enter: the" not in text  # the old offer named a round the round was not


async def test_learned_is_one_figure_on_home_the_stats_screen_and_in_json(
    make_app, clock, stats_json
) -> None:
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        assert "New here?" in screen_text(app)  # no answers yet: where to begin, not figures
        # Right every time, each round when the last one's questions come due: stability
        # grows from hours to weeks. The first rounds go through the session, as Enter on
        # home starts them (the keys of a round are other tests'); the last is played by keys.
        for wait in (dict(hours=1), dict(days=3), dict(days=10), dict(days=30)):
            round_ = app.session.start_round("serving", seed=7)
            assert round_ is not None
            while round_.question() is not None:
                answer_right(round_)
                round_.advance()
            assert round_.finish().finished
            clock.advance(**wait)
        app.screen.refresh_home()
        await pilot.pause()
        await _round(pilot, app)
        clock.advance(days=80)
        app.screen.refresh_home()
        await pilot.pause()
        home = screen_text(app)
        found = re.search(r"Learned (\d+) of (\d+) questions", home)
        assert found is not None, home
        learned = int(found[1])
        assert learned > 0
        assert f"{learned} of {found[2]} learned" in home  # the highlighted deck's details
        assert f"{learned} learned (likely still known in 3 weeks)" in await _stats(pilot, app)
    out = stats_json("--deck", "serving")
    assert out["decks"][0]["learned"] == out["learned"] == learned
    store = app.session.store
    cards = store.schedules.cards(["serving"])
    assert learned == sum(1 for card in cards.values() if (card.stability or 0) >= 21)
