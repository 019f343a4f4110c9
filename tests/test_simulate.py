"""The retention simulator (`vocabgame.simulate`): its grid, its inputs from the player's store,
and its forecast against a simulated player who plays the Session for 30 days."""

from __future__ import annotations

import json
import random
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from fsrs_rs_python import FSRS, MemoryState

from vocabgame.cli import main
from vocabgame.deck import Catalog, load_text
from vocabgame.model import Deck, FaceKey
from vocabgame.play import Session
from vocabgame.play.modes import ModeId
from vocabgame.settings import Settings
from vocabgame.simulate import GRID, Inputs, forecast, inputs, new_faces_a_day
from vocabgame.srs import DEFAULT_PARAMETERS, DayCount, day_number
from vocabgame.stats import deck_sizes
from vocabgame.store import Store

from .learner import FIRST_RATING, RECALLED_RATING

START = datetime(2026, 1, 5, 9, 0, tzinfo=UTC)
ITEMS, NEW_PER_DAY, DAYS = 300, 8, 30


def recall_deck(n: int) -> Deck:
    lines = ["format: 1\nid: r\ntitle: Recall\nrecall:"]
    lines += [f"  - {{id: q{i:03d}, prompt: Question {i}., answer: Answer {i}.}}" for i in range(n)]
    deck, problems = load_text("\n".join(lines), "r.yaml")
    assert deck is not None, problems
    return deck


def test_the_grid_spans_the_settings_range_and_marks_the_cheapest() -> None:
    result = forecast(Inputs(DEFAULT_PARAMETERS, 200, 10, 8.0, 0.9), 30)
    assert [p.retention for p in result.points] == list(GRID)
    assert GRID[0] == 0.70 and GRID[-1] == 0.97
    cheapest = result.cheapest
    assert cheapest in GRID
    assert all(result.point(cheapest).minutes_per_face <= p.minutes_per_face for p in result.points)  # type: ignore[union-attr]
    # asking to remember more costs more reviews, and remembers more
    low, high = result.points[0], result.points[-1]
    assert high.reviews_per_day > 2 * low.reviews_per_day
    assert high.remembered > low.remembered
    # the player's seconds per answer set the minutes: every answer takes 8 s here
    slower = forecast(Inputs(DEFAULT_PARAMETERS, 200, 10, 16.0, 0.9), 30)
    assert slower.points[0].minutes_per_day == pytest.approx(2 * low.minutes_per_day)
    assert forecast(Inputs(DEFAULT_PARAMETERS, 200, 10, 8.0, 0.9), 30) == result  # seeded
    as_json = result.as_json()
    assert set(as_json) == {"days", "inputs", "cheapest", "grid"}
    assert set(as_json["grid"][0]) == {
        "retention",
        "reviews_per_day",
        "minutes_per_day",
        "remembered",
        "minutes_per_face_remembered",
    }


def test_nothing_to_learn_costs_nothing() -> None:
    result = forecast(Inputs(DEFAULT_PARAMETERS, 0, 0, None, 0.9), 30)
    assert result.cheapest is None and all(p.minutes_per_day == 0 for p in result.points)


def test_the_inputs_are_the_players(tmp_path: Path) -> None:
    store = Store.open(tmp_path / "vocabgame.db")
    try:
        decks = [recall_deck(40)]
        got = inputs(store, deck_sizes(decks), Settings(new_per_day=5, desired_retention=0.85))
        assert (got.faces, got.new_per_day, got.current) == (40, 5, 0.85)
        assert got.seconds is None  # no answers timed yet: the library's times
        assert got.parameters == DEFAULT_PARAMETERS
    finally:
        store.close()


def test_a_term_starts_with_all_its_faces() -> None:
    text = "format: 1\nid: t\ntitle: T\nterms:\n" + "".join(
        f"  - {{id: t{i}, term: Word {i}, definition: Meaning number {i}.}}\n" for i in range(4)
    )
    deck, _ = load_text(text, "t.yaml")
    assert deck is not None and len(list(deck.items())) == 4
    assert deck_sizes([deck]) == [(4, 12)]
    assert new_faces_a_day(deck_sizes([deck]), 2) == 2 * 3  # three faces a term


def play_30_days(tmp_path: Path, seed: int = 7) -> list[int]:
    """A learner whose memory follows the default parameters plays the Session each morning
    from 09:00 until nothing is due before noon: new items up to the limit, every review, the
    learning steps as they fall due; each answer takes 10 seconds, its rating drawn as
    tests/learner.py draws them. Returns the reviews of each day (answers to faces last
    answered on an earlier day)."""
    rng = random.Random(seed)
    truth = FSRS(list(DEFAULT_PARAMETERS))
    days = DayCount(((START - timedelta(days=1), 4),), UTC)
    now = [START]
    store = Store.open(tmp_path / "vocabgame.db")
    store.conn.execute("PRAGMA synchronous = OFF")  # a test's store need not survive a crash
    store.preferences.save(Settings(new_per_day=NEW_PER_DAY, round_size=50))
    session = Session(store, Catalog((recall_deck(ITEMS),), ()), clock=lambda: now[0], tz=UTC)
    memory: dict[FaceKey, MemoryState] = {}
    last: dict[FaceKey, datetime] = {}
    reviews = [0] * DAYS
    try:
        for day in range(DAYS):
            now[0] = START + timedelta(days=day)
            noon = now[0] + timedelta(hours=3)
            while True:
                due = session.next_due(None)
                if session.new_left_today() == 0 and (due is None or due > now[0]):
                    if due is None or due > noon:
                        break
                    now[0] = due  # wait for the next learning step (or a review due later)
                rnd = session.start_round(size=50)
                assert rnd is not None and rnd.mode == ModeId.LEARN
                question = rnd.question()
                while question is not None:
                    key = question.key
                    state, previous = memory.get(key), last.get(key)
                    elapsed = 0 if previous is None else days(previous, now[0])
                    if state is None:
                        rating = rng.choices((1, 2, 3, 4), FIRST_RATING)[0]
                    else:
                        if elapsed > 0:
                            reviews[day] += 1
                        decay = -DEFAULT_PARAMETERS[20]
                        factor = 0.9 ** (1 / decay) - 1
                        chance = (1 + factor * elapsed / state.stability) ** decay
                        rating = (
                            rng.choices((2, 3, 4), RECALLED_RATING)[0]
                            if rng.random() < chance
                            else 1
                        )
                    nexts = truth.next_states(state, 0.9, elapsed)
                    memory[key] = (nexts.again, nexts.hard, nexts.good, nexts.easy)[
                        rating - 1
                    ].memory
                    last[key] = now[0]
                    now[0] += timedelta(seconds=10)
                    rnd.answer_recall(rating)
                    question = rnd.advance()
                rnd.finish()
    finally:
        session.close()
    assert day_number(now[0], 4, UTC) - day_number(START, 4, UTC) == DAYS - 1
    return reviews


def test_the_forecast_is_within_20_percent_of_a_player_who_plays_30_days(tmp_path: Path) -> None:
    played = play_30_days(tmp_path)
    predicted = forecast(Inputs(DEFAULT_PARAMETERS, ITEMS, NEW_PER_DAY, 10.0, 0.9), DAYS)
    point = predicted.point(0.9)
    assert point is not None
    actual = sum(played) / DAYS
    assert actual > 5  # enough reviews for the comparison to mean something
    assert point.reviews_per_day == pytest.approx(actual, rel=0.2), (point, played)


def test_the_command_prints_the_grid(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    where = ["--data-dir", str(tmp_path / "data")]
    assert main([*where, "settings", "--retention", "0.88"]) == 0
    capsys.readouterr()
    assert main([*where, "simulate", "--json", "--days", "90"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["days"] == 90 and out["inputs"]["faces"] > 1000  # the built-in decks
    assert out["inputs"]["desired_retention"] == 0.88
    assert out["inputs"]["seconds_per_answer"] is None  # no answers yet
    assert 0.88 in [row["retention"] for row in out["grid"]]  # the setting is shown too
    assert out["cheapest"] in [row["retention"] for row in out["grid"]]
    assert main([*where, "simulate"]) == 0
    text = capsys.readouterr().out
    assert "cheapest" in text and "now" in text
    with pytest.raises(SystemExit):
        main([*where, "simulate", "--days", "7"])
