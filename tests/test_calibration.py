"""How sure the player said they were (vocabgame.calibration): the Brier score and the
calibration table worked by hand, the interview keeping each confidence with its answer and
reporting it, the column's migration, and a progress file carrying it."""

from __future__ import annotations

import json
import math
import sqlite3
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

import pytest

from vocabgame.calibration import LEVELS, brier, calibrate, level, nearest, trend
from vocabgame.play import Selection
from vocabgame.play.modes.interview import Interview, markdown
from vocabgame.progress import (
    ProgressError,
    check_entry,
    export_progress,
    import_progress,
    import_progress_file,
    open_progress_file,
    write_progress,
)
from vocabgame.quiz import Kind
from vocabgame.srs import Srs
from vocabgame.store import Store
from vocabgame.store.schema import MIGRATIONS, SCHEMA_VERSION, statements
from vocabgame.store.verify import store_problem

from .test_interview import answer, session_of, start
from .test_session import START, Now


@pytest.fixture
def now() -> Now:
    return [START]


def test_the_brier_score_and_the_table_by_hand() -> None:
    pairs = [(0.95, True), (0.95, False), (0.25, False), (0.5, True)]
    # (0.95 - 1)² + (0.95 - 0)² + (0.25 - 0)² + (0.5 - 1)² = 0.0025 + 0.9025 + 0.0625 + 0.25
    assert brier(pairs) == pytest.approx(1.2175 / 4)
    assert brier([]) is None
    assert brier([(0.5, True), (0.5, False)]) == 0.25  # always saying 50%
    c = calibrate(pairs)
    assert (c.answers, c.right, c.brier) == (4, 2, pytest.approx(0.304375))
    assert c.said == pytest.approx((0.95 + 0.95 + 0.25 + 0.5) / 4)
    table = [(r.level.key, r.answers, r.right, r.right_share) for r in c.rows]
    assert table == [(1, 1, 0, 0.0), (2, 1, 1, 1.0), (3, 0, 0, None), (4, 2, 1, 0.5)]
    # said 66% on average, right 50%
    assert c.verdict() == (
        "You said 66% on average and were right 50% of the time: overconfident by 16 points."
    )
    assert (
        calibrate([(0.75, True)] * 3 + [(0.75, False)])
        .verdict()
        .endswith("about as sure as you were right.")
    )
    assert calibrate([(0.25, True)]).verdict().endswith("underconfident by 75 points.")


def test_the_levels_and_a_chance_from_elsewhere() -> None:
    assert [(lv.key, lv.said) for lv in LEVELS] == [(1, 0.25), (2, 0.5), (3, 0.75), (4, 0.95)]
    assert level(3).name == "3 fairly sure (75%)"
    with pytest.raises(KeyError):
        level(5)
    # a chance an imported file brought goes to the nearest level, the lower on a tie
    assert [nearest(s).key for s in (0.0, 0.6, 0.625, 0.9, 1.0)] == [1, 2, 2, 4, 4]
    c = calibrate([(0.6, True), (0.5, False)])
    assert (c.rows[1].answers, c.rows[1].said) == (2, pytest.approx(0.55))


def test_the_trend_per_interview_and_per_week() -> None:
    monday = datetime(2026, 11, 30, 9, tzinfo=UTC)
    answers = [
        (monday, 1, 0.95, True),
        (monday + timedelta(minutes=1), 1, 0.95, False),
        (monday + timedelta(days=8), 2, 0.5, True),
        (monday + timedelta(days=9), None, 0.25, False),
    ]
    t = trend(answers, lambda at: at.date(), last=10)
    assert t.overall.answers == 4
    got = [(p.label, p.calibration.answers, p.calibration.brier) for p in t.interviews]
    assert got == [
        ("2026-11-30", 2, pytest.approx((0.0025 + 0.9025) / 2)),
        ("2026-12-08", 1, 0.25),
        ("2026-12-09", 1, 0.0625),
    ]
    assert [(p.label, p.calibration.answers) for p in t.weeks] == [("2026-W49", 2), ("2026-W50", 2)]
    assert [p.label for p in trend(answers, lambda at: at.date(), last=2).interviews] == [
        "2026-12-08",
        "2026-12-09",
    ]
    kept = t.as_json()
    assert kept["weeks"][0] == {
        "week": "2026-W49",
        "answers": 2,
        "said": 0.95,
        "right_share": 0.5,
        "brier": 0.4525,
    }
    assert kept["interviews"][1]["day"] == "2026-12-08"
    assert date(2026, 11, 30).isocalendar()[1] == 49


def test_an_interview_keeps_each_confidence_with_its_answer_and_reports_it(
    tmp_path: Path, now: Now
) -> None:
    interview = start(tmp_path, now, questions=4)
    store = session_of(interview).store
    said: list[tuple[str, float]] = []
    keys = iter([4, 3, 1, 2])
    while (q := interview.question()) is not None:
        answer(interview, now, 5, q.kind != Kind.CHOICE or q.key.face != "scenario")
        key = next(keys)
        said.append((q.key.face, interview.say_confidence(key)))
    # A choice answer has its confidence in the store at once; the recall waits for its ticks.
    kept = dict(store.conn.execute("SELECT face, confidence FROM reviews").fetchall())
    assert "recall" not in kept and kept["scenario"] == dict(said)["scenario"]
    [(n, _)] = interview.recalls()
    report = interview.finish({n: [0, 1]})  # every key point: right
    rows = store.conn.execute("SELECT face, confidence, correct FROM reviews ORDER BY id")
    stored = {face: (confidence, bool(correct)) for face, confidence, correct in rows}
    assert {face: c for face, (c, _) in stored.items()} == dict(said)
    pairs = list(stored.values())
    body = report.body
    assert [q["confidence"] for q in body["questions"]] == [c for _, c in said]
    assert body["calibration"]["brier"] == round(sum((c - right) ** 2 for c, right in pairs) / 4, 4)
    assert body["calibration"]["answers"] == body["calibration"]["asked"] == 4
    text = markdown(report)
    assert "## How sure you were" in text
    assert "You said how sure you were of 4 of 4 answers." in text
    assert f"Brier score {body['calibration']['brier']:.3f}" in text
    assert "| 4 certain (95%) | 1 |" in text


def test_an_interview_without_a_confidence_says_nothing_of_it(tmp_path: Path, now: Now) -> None:
    interview = start(tmp_path, now, questions=2)
    while interview.question() is not None:
        answer(interview, now, 5, True)
    report = interview.finish({})
    assert report.body["calibration"] is None
    assert "How sure" not in markdown(report)
    store = session_of(interview).store
    assert store.conn.execute(
        "SELECT COUNT(*) FROM reviews WHERE confidence IS NOT NULL"
    ).fetchone() == (0,)


def test_a_confidence_needs_an_answer_and_a_level(tmp_path: Path, now: Now) -> None:
    interview = start(tmp_path, now, questions=2)
    with pytest.raises(RuntimeError):
        interview.say_confidence(2)
    answer(interview, now, 5, True)
    with pytest.raises(KeyError):
        interview.say_confidence(0)
    assert interview.say_confidence(1) == 0.25
    assert interview.say_confidence(4) == 0.95  # said again: replaced
    assert interview.asked[-1].confidence == 0.95


def _store_at(path: Path, version: int) -> None:
    conn = sqlite3.connect(path, isolation_level=None)
    try:
        for number in range(version):
            for statement in statements(MIGRATIONS[number]):
                conn.execute(statement)
        conn.execute(
            "INSERT INTO reviews (deck_id, item_id, face, reviewed_at, rating, correct, mode,"
            " answer) VALUES ('d', 'i', 'recall', '2026-12-01T09:00:00+00:00', 3, 1, 'interview',"
            " 'kv')"
        )
        conn.execute(f"PRAGMA user_version = {version}")
    finally:
        conn.close()


def test_a_store_of_the_schema_before_migrates_and_keeps_its_answers(tmp_path: Path) -> None:
    path = tmp_path / "vocabgame.db"
    _store_at(path, SCHEMA_VERSION - 1)
    assert store_problem(path) is None  # a known, older version
    with Store.open(path) as store:
        assert store.conn.execute("PRAGMA user_version").fetchone() == (SCHEMA_VERSION,)
        assert store.conn.execute("SELECT answer, confidence FROM reviews").fetchall() == [
            ("kv", None)
        ]
        [review_id] = [r for (r,) in store.conn.execute("SELECT id FROM reviews")]
        store.answers.set_confidence(review_id, 0.75)
        with pytest.raises(ValueError):
            store.answers.set_confidence(review_id, 1.5)
        # the index on the answers with a confidence is the one the figures read
        plan = store.conn.execute(
            "EXPLAIN QUERY PLAN SELECT reviewed_at FROM reviews WHERE confidence IS NOT NULL"
            " ORDER BY reviewed_at, id"
        ).fetchall()
        assert "reviews_confidence" in " ".join(str(row) for row in plan)
    assert store_problem(path) is None


def test_a_progress_file_carries_the_confidence_and_refuses_one_out_of_range(
    tmp_path: Path, now: Now
) -> None:
    interview = start(tmp_path / "a", now, questions=3)
    while interview.question() is not None:
        answer(interview, now, 5, True)
        interview.say_confidence(3)
    interview.finish({n: [0] for n, _ in interview.recalls()})
    store = session_of(interview).store
    data = json.loads(json.dumps(export_progress(store, now[0])))
    assert [r["confidence"] for r in data["reviews"]] == [0.75] * 3
    here = sorted(store.conn.execute("SELECT face, confidence FROM reviews").fetchall())
    with Store.open(tmp_path / "b.db") as other:
        import_progress(other, data, Srs())
        assert sorted(other.conn.execute("SELECT face, confidence FROM reviews")) == here
    # and through a file, as export-progress writes it and import-progress reads it
    path = tmp_path / "progress.json"
    with path.open("w", encoding="utf-8") as out:
        write_progress(store, now[0], out)
    with Store.open(tmp_path / "c.db") as other:
        import_progress_file(other, open_progress_file(path), Srs())
        assert sorted(other.conn.execute("SELECT face, confidence FROM reviews")) == here
    review = data["reviews"][0]
    check_entry_ok = dict(review)
    del check_entry_ok["confidence"]  # a file from before has none: fine
    from vocabgame.store.rows import ReviewRow

    check_entry(ReviewRow, check_entry_ok, "p.json: reviews[0]")
    for bad, words in (
        (1.5, "reviews[0].confidence should be a probability from 0 to 1, not 1.5."),
        ("high", "reviews[0].confidence should be a probability from 0 to 1, not 'high'."),
        (True, "reviews[0].confidence should be a probability from 0 to 1, not True."),
        (math.nan, "reviews[0].confidence should be a probability from 0 to 1, not nan."),
    ):
        with pytest.raises(ProgressError) as caught:
            check_entry(ReviewRow, review | {"confidence": bad}, "p.json: reviews[0]")
        assert str(caught.value) == "p.json: " + words


def test_the_stats_follow_calibration_over_interviews_from_the_store(
    tmp_path: Path, now: Now
) -> None:
    """`stats --json`'s `calibration` is read from the answers' confidences (so it travels
    with a progress file), per interview and per week."""
    from vocabgame.play.overview import as_json

    first = start(tmp_path, now, questions=2)
    session = session_of(first)
    while first.question() is not None:
        answer(first, now, 5, True)
        first.say_confidence(4)
    first.finish({n: [0, 1] for n, _ in first.recalls()})
    now[0] += timedelta(days=7)
    second = session.start("interview", Selection(None, seed=2, questions=2))
    assert isinstance(second, Interview)
    while second.question() is not None:
        answer(second, now, 5, False)
        second.say_confidence(2)
    second.finish({})
    rows = session.store.conn.execute(
        "SELECT confidence, correct FROM reviews WHERE confidence IS NOT NULL"
    ).fetchall()
    assert len(rows) == 4
    kept = as_json(session.insights())["calibration"]
    assert kept["answers"] == 4
    assert kept["brier"] == round(sum((c - r) ** 2 for c, r in rows) / 4, 4)
    assert [i["answers"] for i in kept["interviews"]] == [2, 2]
    assert [i["said"] for i in kept["interviews"]] == [0.95, 0.5]
    assert len(kept["weeks"]) == 2
    assert kept["levels"][3]["answers"] == 2 and kept["levels"][1]["answers"] == 2


def test_the_documented_calibration_example_is_what_the_figures_give() -> None:
    doc = (Path(__file__).parents[1] / "docs" / "stats-json.md").read_text(encoding="utf-8")
    section = doc.split("## Calibration\n")[1]
    example = json.loads(section.split("```json\n")[1].split("```")[0])
    monday = datetime(2026, 11, 30, 9, tzinfo=UTC)
    first = [(0.95, True), (0.95, False), (0.95, True), (0.75, False)]
    then = [(0.25, False), (0.5, True), (0.75, True), (0.95, True)]
    answers = [
        (monday + timedelta(days=day, minutes=n), round_id, said, right)
        for day, round_id, pairs in ((1, 1, first), (3, 2, then))
        for n, (said, right) in enumerate(pairs)
    ]
    assert trend(answers, lambda at: at.date()).as_json() == example
