"""The scenario challenge (vocabgame.play.modes.challenge): scenarios and claims only, a countdown
per question on the session clock, a time bonus, and a top-10 table per deck."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest

from vocabgame.deck import load_deck
from vocabgame.play import Selection, Session
from vocabgame.play.modes.challenge import TIME_BONUS, Challenge, time_bonus
from vocabgame.quiz import Kind

from .conftest import DATA
from .test_session import START, Now, claims_deck, make_session


@pytest.fixture
def now() -> Now:
    return [START]


SESSIONS: dict[int, Session] = {}


def session_of(runner: object) -> Session:
    """The session a runner was started from (runners hold only a round's context)."""
    return SESSIONS[id(runner)]


def start(tmp_path: Path, now: Now, **kw: object) -> Challenge:
    deck = load_deck(DATA / "interview" / "serving.yaml")
    session = make_session(tmp_path, [deck, claims_deck(12)], now, countdown_seconds=20)
    kw.setdefault("seed", 1)
    deck = kw.pop("deck_id", None)
    challenge = session.start("challenge", Selection(deck, **kw))  # type: ignore[arg-type]
    assert isinstance(challenge, Challenge)
    SESSIONS[id(challenge)] = session
    return challenge


def right_index(challenge: Challenge, right: bool = True) -> int:
    q = challenge.question()
    assert q is not None and q.kind == Kind.CHOICE
    return next(i for i, c in enumerate(q.choices) if (c.value == q.answer) == right)


def test_only_scenarios_and_claims_are_asked(tmp_path: Path, now: Now) -> None:
    challenge = start(tmp_path, now, deck_id="mock-serving", size=20)
    assert {k.face for k in challenge.round.queue} == {"scenario", "claim"}
    assert challenge.round.total == 2


def test_the_countdown_runs_on_the_session_clock(tmp_path: Path, now: Now) -> None:
    challenge = start(tmp_path, now, size=3)
    assert challenge.time_left() == 20
    now[0] += timedelta(seconds=15)
    assert challenge.time_left() == 5
    outcome = challenge.answer_choice(right_index(challenge))
    assert outcome.grade.correct
    assert challenge.score == outcome.points + time_bonus(5, 20) == 10 + 3
    challenge.advance()
    assert challenge.time_left() == 20  # the next question's countdown starts afresh


def test_running_out_counts_as_wrong_and_shows_the_answer(tmp_path: Path, now: Now) -> None:
    challenge = start(tmp_path, now, size=3)
    question = challenge.question()
    assert question is not None
    now[0] += timedelta(seconds=21)
    assert challenge.time_left() == 0
    # a pick after the countdown counts as the time running out, even a right one
    outcome = challenge.answer_choice(right_index(challenge))
    assert not outcome.grade.correct and outcome.grade.note == "Time ran out."
    assert outcome.grade.right_answer  # the feedback shows the answer
    [review] = session_of(challenge).store.answers.all()
    assert (review.key, review.correct, review.mode) == (question.key, False, "challenge")
    assert challenge.timed_out == 1 and challenge.score == 0
    assert session_of(challenge).store.confusables.all() == []  # nothing was picked


@pytest.mark.parametrize(("left", "bonus"), [(20, TIME_BONUS), (10, 5), (0.5, 1), (0, 0)])
def test_the_time_bonus(left: float, bonus: int) -> None:
    assert time_bonus(left, 20) == bonus


def test_a_top_ten_table_per_deck_with_a_new_high_score(tmp_path: Path, now: Now) -> None:
    scores = []
    for run in range(12):
        challenge = start(tmp_path, now, deck_id="facts", size=2, seed=run)
        for n in range(2):
            challenge.question()
            now[0] += timedelta(seconds=run)  # slower each run: a smaller bonus
            challenge.answer_choice(right_index(challenge, right=run != 11 or n == 0))
            challenge.advance()
        result = challenge.finish()
        scores.append(result.score)
        now[0] += timedelta(days=1)
        if run == 0:
            assert result.new_high_score and result.rank == 1 and result.previous_best is None
        else:
            assert not result.new_high_score
        session_of(challenge).close()
    table = result.table
    assert len(table) == 10
    assert [h.score for h in table] == sorted(scores, reverse=True)[:10]
    assert scores[0] > scores[5] > scores[10]
    assert result.rank is None  # the twelfth run, one wrong, is not in the top 10
    assert table[0].at == START + timedelta(seconds=0)  # the first run's date
    other = start(tmp_path, now, deck_id="mock-serving", size=1)
    other.answer_choice(right_index(other))
    other.advance()
    assert other.finish().new_high_score  # another deck, another table


def test_stats_json_has_each_modes_best(tmp_path: Path, now: Now, capsys) -> None:
    import json

    from vocabgame.cli import main

    challenge = start(tmp_path, now, deck_id="facts", size=2)
    for _ in range(2):
        challenge.answer_choice(right_index(challenge))  # at once: the whole bonus
        challenge.advance()
    challenge.finish()
    cram = session_of(challenge).start_round("facts", size=3, mode="cram")
    assert cram is not None
    while (q := cram.question()) is not None:
        cram.answer_choice(next(i for i, c in enumerate(q.choices) if c.value == q.answer))
        cram.advance()
    session_of(challenge).close()
    assert main(["stats", "--json", "--data-dir", str(tmp_path)]) == 0
    modes = json.loads(capsys.readouterr().out)["mode_bests"]
    assert modes["challenge"] == {"runs": 1, "best_score": 2 * (10 + TIME_BONUS) + 2}
    assert modes["cram"] == {"practice_answers": 3}
    assert modes["interview"] == {"reports": 0, "best_right": None}
    assert modes["learn"] == {"best_score": None}
    assert modes["drill"]["retired_pairs"] == 0


def test_a_run_ended_early_is_kept_as_partial_and_stays_out_of_the_table(
    tmp_path: Path, now: Now
) -> None:
    challenge = start(tmp_path, now, deck_id="facts", size=3)
    challenge.answer_choice(right_index(challenge))  # at once: 10 and the whole bonus
    challenge.advance()
    result = challenge.finish()  # 1 of 3 answered
    assert not result.finished and result.questions == 3
    assert not result.new_high_score and result.rank is None and result.table == ()
    assert result.summary.score == result.score == 20  # one score: the run's
    [run] = session_of(challenge).store.saved_reports.all("challenge")
    assert run.body["finished"] is False
    from vocabgame.play.modes import MODES

    store, settings = session_of(challenge).store, session_of(challenge).settings
    assert MODES["challenge"].bests(store, settings) == {"runs": 1, "best_score": None}
