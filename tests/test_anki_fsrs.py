"""Against real Anki's FSRS (optional: skipped, saying why, without the `anki` package).

An Anki collection is built with FSRS on, the same 21 parameters and the same day rollover
hour; each history below is written to its review log an answer at a time, and after each one
Anki's memory state of the card (`Collection.compute_memory_state`, what Anki keeps in
`card.memory_state`) must equal the stability and difficulty `Srs` gives, to 4 decimals (Anki
computes in 32-bit floats). Anki counts days in the machine's local time zone, so the test
runs in UTC and `Srs` counts days in UTC too.
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from vocabgame.srs import DEFAULT_PARAMETERS, DayCount, Srs

from .learner import TRUE_PARAMETERS

anki = pytest.importorskip("anki.collection", reason="the anki package is not installed")

# In the past: Anki counts days back from today, and leaves an answer "in the future" alone.
START = datetime(2025, 1, 6, 20, 0, tzinfo=UTC)
# Gaps between answers: learning steps, an evening and the next morning (a day apart across
# the rollover, the same 24-hour period), a day less 12 minutes, whole days, weeks.
GAPS = (
    timedelta(minutes=1),
    timedelta(minutes=10),
    timedelta(hours=11),
    timedelta(hours=23, minutes=48),
    timedelta(days=1, hours=3),
    timedelta(days=3, hours=-5),
    timedelta(days=9, hours=2),
    timedelta(days=21, hours=-7),
)


def histories(count: int, length: int, seed: int) -> Iterator[list[tuple[datetime, int]]]:
    rng = random.Random(seed)
    for _ in range(count):
        at = START + timedelta(hours=rng.randrange(0, 24), minutes=rng.randrange(0, 60))
        answers = [(at, rng.choice((1, 2, 3, 4)))]
        for _ in range(length - 1):
            at += rng.choice(GAPS)
            answers.append((at, rng.choices((1, 2, 3, 4), (0.15, 0.15, 0.6, 0.1))[0]))
        yield answers


def same(theirs: float, ours: float | None) -> bool:
    """Equal to 4 decimals: to 0.00005, or for a value above 1, to 0.00005 of it (32-bit
    floats hold 7 significant digits: a stability of 75 days is exact to about 0.00001)."""
    assert ours is not None
    return abs(theirs - ours) <= 5e-5 * max(1.0, abs(ours))


@pytest.fixture
def utc(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv("TZ", "UTC")
    time.tzset()
    yield
    monkeypatch.undo()
    time.tzset()


@pytest.mark.usefixtures("utc")
@pytest.mark.parametrize(
    ("parameters", "hour"), [(DEFAULT_PARAMETERS, 4), (TRUE_PARAMETERS, 4), (TRUE_PARAMETERS, 9)]
)
def test_stability_and_difficulty_equal_ankis_at_every_step(
    tmp_path: Path, parameters: tuple[float, ...], hour: int
) -> None:
    col = anki.Collection(str(tmp_path / "collection.anki2"))
    try:
        col.set_config("fsrs", True)
        prefs = col.get_preferences()
        prefs.scheduling.rollover = hour
        col.set_preferences(prefs)
        deck_id = col.decks.id("rollover")
        config = col.decks.config_dict_for_deck_id(deck_id)
        config["fsrsParams6"] = list(parameters)
        col.decks.update_config(config)
        model = col.models.by_name("Basic")
        srs = Srs(
            fuzz=False,
            parameters=((START - timedelta(days=1), parameters),),
            days=DayCount(((START - timedelta(days=1), hour),), UTC),
        )
        periods = Srs(fuzz=False, parameters=((START - timedelta(days=1), parameters),))
        compared = differ = 0
        for n, history in enumerate(histories(6, 12, seed=hour)):
            note = col.new_note(model)
            note["Front"], note["Back"] = f"front {n}", f"back {n}"
            col.add_note(note, deck_id)
            card_id = note.card_ids()[0]
            card = hourly = Srs.new_card(card_id, history[0][0])
            for step, (at, rating) in enumerate(history):
                kind = {1: 0, 2: 1, 3: 2}[int(card.state)]  # Anki's learn, review, relearn
                col.db.execute(
                    "INSERT INTO revlog (id, cid, usn, ease, ivl, lastIvl, factor, time, type)"
                    " VALUES (?, ?, -1, ?, 0, 0, 0, 5000, ?)",
                    int(at.timestamp() * 1000),
                    card_id,
                    rating,
                    kind,
                )
                card = srs.review(card, rating, at)
                theirs = col.compute_memory_state(card_id)
                where = f"card {n}, answer {step} ({at:%a %H:%M}, rating {rating})"
                assert same(theirs.stability, card.stability), where
                assert same(theirs.difficulty, card.difficulty), where
                hourly = periods.review(hourly, rating, at)
                differ += not same(theirs.stability, hourly.stability)
                compared += 1
        assert compared == 72
        assert differ > 0  # counted in 24-hour periods, the same history disagrees with Anki
    finally:
        col.close()
