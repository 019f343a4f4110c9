"""The day rollover hour: days between answers counted across the start of the player's day
(Anki's rule), not as whole 24-hour periods, and replayed by `vocabgame check` with the rule
in force at each answer."""

from __future__ import annotations

import json
import sqlite3
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path

import pytest

from vocabgame.check import CARD_MISMATCH, check
from vocabgame.deck import Catalog, load_text
from vocabgame.model import Deck
from vocabgame.optimize import fit
from vocabgame.play import Session
from vocabgame.settings import SettingError, Settings
from vocabgame.srs import ROLLOVER_KEY, DayCount, Srs, elapsed_days, rollover_history
from vocabgame.store import Store

EVENING = datetime(2026, 12, 1, 20, 0, tzinfo=UTC)
# The issue's review: 23 h 48 min after the last learning step.
LATER = timedelta(hours=23, minutes=48)
ALWAYS = DayCount(((datetime(2000, 1, 1, tzinfo=UTC), 4),), UTC)  # rollover at 4 throughout


def test_23_hours_48_later_is_the_same_24_hour_period_but_the_next_day() -> None:
    last = EVENING + timedelta(minutes=15)
    assert elapsed_days(last, last + LATER) == 0
    assert elapsed_days(last, last + LATER, rollover_hour=4) == 1


def test_an_evening_and_the_next_morning_are_a_day_apart() -> None:
    evening, morning = (
        datetime(2026, 12, 1, 23, 0, tzinfo=UTC),
        datetime(2026, 12, 2, 7, tzinfo=UTC),
    )
    assert elapsed_days(evening, morning) == 0
    assert elapsed_days(evening, morning, 4) == 1
    # before the rollover hour the morning still belongs to the day before
    assert elapsed_days(evening, datetime(2026, 12, 2, 3, 59, tzinfo=UTC), 4) == 0
    assert elapsed_days(morning, evening, 4) == 0  # never below 0


def test_the_day_starts_at_the_hour_of_the_players_zone() -> None:
    tokyo = timezone(timedelta(hours=9))
    # 18:30 and 19:30 UTC straddle 04:00 in Tokyo (03:30 and 04:30 there), not in UTC
    a, b = datetime(2026, 12, 1, 18, 30, tzinfo=UTC), datetime(2026, 12, 1, 19, 30, tzinfo=UTC)
    assert elapsed_days(a, b, 4, UTC) == 0
    assert elapsed_days(a, b, 4, tokyo) == 1


def issue_history(srs: Srs) -> float:
    """Again, Again, Good, Good in one evening's learning steps, then Good 23 h 48 min after
    the last step: the stability that review leaves."""
    card = Srs.new_card(1, EVENING)
    at = EVENING
    for rating in (1, 1, 3, 3):
        card = srs.review(card, rating, at)
        at += timedelta(minutes=5)
    return srs.review(card, 3, card.last_review + LATER).stability  # type: ignore[operator]


def test_the_issues_numbers() -> None:
    # With the default parameters: 0.152 counted in 24-hour periods (a same-day step), 0.779
    # across the 4 a.m. rollover (a review a day later); the issue rounds them to 0.15, 0.78.
    assert issue_history(Srs(fuzz=False)) == pytest.approx(0.152, abs=5e-4)
    assert issue_history(Srs(fuzz=False, days=ALWAYS)) == pytest.approx(0.779, abs=5e-4)


def test_the_hour_in_force_at_each_answer_counts() -> None:
    change = EVENING + timedelta(hours=12)
    days = DayCount(((EVENING, 4), (change, 22)), UTC)
    assert days.hour_at(EVENING - timedelta(seconds=1)) is None  # before any: 24-hour periods
    assert days.hour_at(EVENING) == 4 and days.hour_at(change) == 22
    assert days(EVENING + timedelta(hours=1), EVENING + timedelta(hours=9)) == 1
    # from the change on, the day starts at 22:00: 23:00 and 21:00 the next day are one day
    assert days(change + timedelta(hours=15), change + timedelta(hours=37)) == 0
    assert elapsed_days(change + timedelta(hours=15), change + timedelta(hours=37), 4) == 1


def test_the_setting_is_an_hour() -> None:
    assert Settings().rollover_hour == 4
    assert Settings().changed(rollover_hour=0).rollover_hour == 0
    for bad in (-1, 24, 4.5):
        with pytest.raises(SettingError):
            Settings().changed(rollover_hour=bad)


def test_a_damaged_history_counts_24_hour_periods_and_says_so() -> None:
    assert rollover_history(None) == ((), None)
    for damaged in (
        {"history": [{"since": "x", "hour": 4}]},
        {"history": [{"since": EVENING.isoformat(), "hour": 24}]},
        [1],
    ):
        history, problem = rollover_history(damaged)
        assert history == () and problem is not None and problem.endswith(".")


RECALL = "format: 1\nid: r\ntitle: R\nrecall:\n  - {id: think, prompt: Think., answer: Thought.}\n"


def deck() -> Deck:
    loaded, problems = load_text(RECALL, "r.yaml")
    assert loaded is not None, problems
    return loaded


def answer_at(path: Path, at: datetime, rating: int, hour: int | None = None) -> float:
    """Open a session at `at` (changing the rollover hour first if given), answer the one
    face with `rating`; its stability after."""
    store = Store.open(path)
    session = Session(store, Catalog((deck(),), ()), clock=lambda: at, tz=UTC, fuzz=False)
    try:
        if hour is not None:
            session.change_settings(session.settings.changed(rollover_hour=hour))
        rnd = session.start_round(size=1)
        assert rnd.question() is not None
        rnd.answer_recall(rating)
        rnd.finish()
        card = store.schedules.card(rnd.queue[0])
        assert card is not None and card.stability is not None
        return card.stability
    finally:
        session.close()


def findings(path: Path) -> list[str]:
    conn = sqlite3.connect(path, isolation_level=None)
    try:
        return [f.kind for f in check(conn, tz=UTC).findings]
    finally:
        conn.close()


def test_play_counts_across_the_rollover_and_check_replays_it(tmp_path: Path) -> None:
    path = tmp_path / "vocabgame.db"
    night = datetime(2026, 12, 1, 23, 0, tzinfo=UTC)
    answer_at(path, night, 1)  # Again: due again in a minute
    morning = answer_at(path, night + timedelta(hours=8), 3)  # 07:00: the next day
    expected = Srs(fuzz=False, days=ALWAYS)
    card = expected.review(Srs.new_card(0, night), 1, night)
    assert morning == pytest.approx(expected.review(card, 3, night + timedelta(hours=8)).stability)
    assert morning != pytest.approx(
        Srs(fuzz=False).review(card, 3, night + timedelta(hours=8)).stability
    )
    assert findings(path) == []
    # the check replays with the stored rule: without it, the schedule disagrees
    with sqlite3.connect(path) as conn:
        conn.execute("DELETE FROM settings WHERE key = ?", (ROLLOVER_KEY,))
    assert findings(path) == [CARD_MISMATCH]


def test_answers_given_before_the_rule_keep_24_hour_periods(tmp_path: Path) -> None:
    """A store written before the setting existed: its answers were counted in 24-hour
    periods; the rule comes into force when a session first opens it, and the check is clean."""
    path = tmp_path / "vocabgame.db"
    night = datetime(2026, 12, 1, 23, 0, tzinfo=UTC)
    store = Store.open(path)
    store.preferences.set(
        ROLLOVER_KEY, {"history": [{"since": "2026-12-05T00:00:00+00:00", "hour": 4}]}
    )
    store.close()
    answer_at(path, night, 1)
    before = answer_at(path, night + timedelta(hours=8), 3)
    card = Srs(fuzz=False).review(Srs.new_card(0, night), 1, night)
    assert before == pytest.approx(
        Srs(fuzz=False).review(card, 3, night + timedelta(hours=8)).stability
    )
    assert findings(path) == []


def test_a_new_hour_applies_from_then_on(tmp_path: Path) -> None:
    path = tmp_path / "vocabgame.db"
    night = datetime(2026, 12, 1, 23, 0, tzinfo=UTC)
    answer_at(path, night, 1)
    answer_at(path, night + timedelta(hours=8), 1, hour=10)  # 07:00: before 10, the same day
    store = Store.open(path)
    history, _ = store.preferences.rollover()
    store.close()
    assert [hour for _, hour in history] == [4, 10]
    assert findings(path) == []


def test_the_optimizer_counts_days_as_play_did() -> None:
    night = datetime(2026, 12, 1, 23, 0, tzinfo=UTC)
    history = [[(night, 1), (night + timedelta(hours=8), 3)]]
    assert fit(history).items == 0  # the same 24-hour period: a same-day step, no item
    assert fit(history, ALWAYS).items == 1  # the next day
    assert json.dumps(fit(history, ALWAYS).as_json())  # still a plain JSON object


def test_a_damaged_history_is_said_once_and_starts_again(tmp_path: Path) -> None:
    path = tmp_path / "vocabgame.db"
    store = Store.open(path)
    store.preferences.set(ROLLOVER_KEY, {"history": "nonsense"})
    session = Session(store, Catalog((deck(),), ()), clock=lambda: EVENING, tz=UTC)
    try:
        assert any("rollover" in notice for notice in session.notices)
        assert store.preferences.rollover() == (((EVENING, 4),), None)
    finally:
        session.close()
