"""The mock interview (vocabgame.play.modes.interview): the clock, answers kept without feedback,
recall graded by ticked key points, the report and its Markdown. Time comes from a clock the
tests move by hand; nothing sleeps."""

from __future__ import annotations

import json
from datetime import timedelta
from pathlib import Path

import pytest

from vocabgame.deck import load_deck
from vocabgame.play import Selection, Session
from vocabgame.play.modes.interview import Interview, markdown, rating_for_ticks
from vocabgame.quiz import Kind

from .conftest import DATA
from .test_session import START, Now, make_session

GOLDEN = DATA / "interview-report.md"


@pytest.fixture
def now() -> Now:
    return [START]


SESSIONS: dict[int, Session] = {}


def session_of(runner: object) -> Session:
    """The session a runner was started from (runners hold only a round's context)."""
    return SESSIONS[id(runner)]


def start(tmp_path: Path, now: Now, **kw: object) -> Interview:
    deck = load_deck(DATA / "interview" / "serving.yaml")
    session = make_session(tmp_path, [deck], now)
    kw.setdefault("seed", 1)
    deck = kw.pop("deck_id", None)
    interview = session.start("interview", Selection(deck, **kw))  # type: ignore[arg-type]
    assert isinstance(interview, Interview)
    SESSIONS[id(interview)] = session
    return interview


def answer(interview: Interview, now: Now, seconds: float, right: bool) -> None:
    """Answer the question asked, after `seconds`: a recall gets a typed answer."""
    question = interview.question()
    assert question is not None
    now[0] += timedelta(seconds=seconds)
    if question.kind == Kind.CHOICE:
        wanted = [
            i for i, c in enumerate(question.choices) if (c.value == question.answer) == right
        ]
        interview.answer_choice(wanted[-1])
    else:
        interview.answer_text("decode is memory bound" if right else "no idea")


def test_the_clock_runs_on_the_session_clock_and_ends_the_interview(
    tmp_path: Path, now: Now
) -> None:
    interview = start(tmp_path, now, minutes=2, questions=5)
    assert interview.time_left() == 120
    answer(interview, now, 30, True)
    assert interview.time_left() == 90 and not interview.over()
    now[0] += timedelta(seconds=90)
    assert interview.time_left() == 0 and interview.over()
    assert interview.question() is None
    report = interview.finish({})
    assert report.questions == 1 and report.body["time_ran_out"] is True
    assert report.seconds == 120  # the interview's length, not a second more


def test_the_question_count_ends_it_first_and_kinds_are_mixed(tmp_path: Path, now: Now) -> None:
    interview = start(tmp_path, now, minutes=15, questions=4)
    faces = set()
    while (q := interview.question()) is not None:
        faces.add(q.key.face)
        answer(interview, now, 10, True)
    assert len(interview.asked) == 4
    assert {"recall", "scenario", "claim"} <= faces  # then a term's pick fills the fourth
    assert interview.time_left() == 15 * 60 - 40


def test_answers_are_kept_without_feedback_and_recall_is_graded_by_the_ticks(
    tmp_path: Path, now: Now
) -> None:
    interview = start(tmp_path, now, questions=4)
    store = session_of(interview).store
    while (q := interview.question()) is not None:
        answer(interview, now, 5, q.kind != Kind.CHOICE or q.key.face != "scenario")
    [(n, recall)] = interview.recalls()
    assert recall.given == "decode is memory bound"
    # Selection answers are saved as they are given; the recall waits for its ticks.
    saved = {(r.key.face, r.correct) for r in store.answers.all()}
    assert ("scenario", False) in saved and not any(face == "recall" for face, _ in saved)
    report = interview.finish({n: [0]})  # one key point of two: Hard, counted right
    recall_review = next(r for r in store.answers.all() if r.key.face == "recall")
    assert (recall_review.rating, recall_review.correct, recall_review.mode) == (
        2,
        True,
        "interview",
    )
    assert recall_review.answer == "decode is memory bound"
    assert store.schedules.card(recall_review.key) is not None  # the schedule learns from it
    assert store.scoreboard.count() == 0  # the report is its record
    [saved_report] = store.saved_reports.all()
    assert saved_report == report and (report.questions, report.correct) == (4, 3)
    body = report.body
    recall_row = body["questions"][n]
    assert recall_row["ticks"] == [0] and recall_row["key_points"][0].startswith("decode")
    assert body["by_tag"]["latency"] == [0, 1] and body["by_tag"]["batching"] == [1, 1]
    assert body["by_tag"]["serving"] == [3, 4]  # the deck's tag counts for every item
    [weak] = [body["questions"][i] for i in body["weakest"]]
    assert weak["face"] == "scenario" and weak["why_not"].startswith("The KV cache is memory")
    assert weak["sources"][0]["url"] == "https://arxiv.org/abs/2309.06180"
    assert "review the latency items (vocabgame play --tag latency)" in body["next"]
    assert any(step.startswith("drill Prefill vs KV cache") for step in body["next"])
    # the wrong pick between two terms is kept as a confusion
    [confusion] = store.confusables.all()
    assert (confusion.answer, confusion.picked) == ("prefill", "kv-cache")


@pytest.mark.parametrize(
    ("ticked", "points", "rating"),
    [(2, 2, 3), (1, 2, 2), (0, 2, 1), (1, 3, 1), (1, 0, 3), (0, 0, 1)],
)
def test_ticks_make_the_rating(ticked: int, points: int, rating: int) -> None:
    assert rating_for_ticks(ticked, points) == rating


def test_markdown_export_matches_the_golden_file(tmp_path: Path, now: Now) -> None:
    interview = start(tmp_path, now, questions=4, seed=1)
    seconds = iter([12, 47, 8, 95])
    while (q := interview.question()) is not None:
        answer(interview, now, next(seconds), q.key.face != "scenario")
    [(n, _)] = interview.recalls()
    report = interview.finish({n: [0, 1]})
    text = markdown(session_of(interview).store.saved_reports.get(report.id))  # type: ignore[arg-type]
    if not GOLDEN.exists():  # pragma: no cover - writes the golden file once, to review
        GOLDEN.write_text(text, encoding="utf-8")
    assert text == GOLDEN.read_text(encoding="utf-8")


def test_reports_and_report_on_the_command_line(tmp_path: Path, now: Now, capsys) -> None:
    from vocabgame.cli import main

    interview = start(tmp_path, now, questions=3)
    while interview.question() is not None:
        answer(interview, now, 20, True)
    report = interview.finish({})
    session_of(interview).close()
    data = ["--data-dir", str(tmp_path)]
    assert main(["reports", "--json", *data]) == 0
    [row] = json.loads(capsys.readouterr().out)
    assert row == {
        "id": report.id,
        "date": "2025-03-03T09:01:00+00:00",  # when it ended: three answers of 20 s
        "decks": ["mock-serving"],
        "questions": 3,
        "right": report.correct,
        "seconds": 60.0,
    }
    assert main(["report", str(report.id), "--markdown", *data]) == 0
    assert capsys.readouterr().out == markdown(report)
    assert main(["report", "99", "--markdown", *data]) == 2
    assert "no report with id 99" in capsys.readouterr().err
