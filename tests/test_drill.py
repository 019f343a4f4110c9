"""Confusions and the confusion drill (vocabgame.play.modes.drill): every wrong pick of one term for
another is kept, in term, cue and scenario questions alike; the drill asks the most-confused
pairs first and retires a pair after right answers in a row (a setting)."""

from __future__ import annotations

from pathlib import Path

import pytest

from vocabgame.model import FaceKey
from vocabgame.play import ModeId, Round, Selection
from vocabgame.play.modes.drill import Pair, distinction, standings
from vocabgame.quiz import Kind

from .test_session import START, Now, make_session, parse

DECK = """
format: 1
id: d
title: Phases
terms:
  - {id: prefill, term: Prefill, definition: Runs the whole prompt at once.}
  - {id: decode, term: Decode, definition: Makes one output token per step.}
  - {id: kv, term: KV cache, definition: Keys and values kept for earlier tokens.}
  - {id: batch, term: Batching, definition: Running several requests in one step.}
confusables:
  - id: pd
    terms: [prefill, decode]
    distinction: Prefill reads the prompt once; decode then makes one token per step.
    cues:
      - {text: Grows with the prompt., answer: prefill}
      - {text: Runs once per output token., answer: decode}
scenarios:
  - id: slow-start
    prompt: The reply starts late for long prompts. Which phase?
    choices: [prefill, decode, kv]
    answer: prefill
    explanation: The prompt is processed before the first token.
    why_not:
      decode: Decode streams once the reply has started.
      kv: The KV cache is memory, not a phase.
"""


@pytest.fixture
def now() -> Now:
    return [START]


def session_for(tmp_path: Path, now: Now, **settings: object):
    return make_session(tmp_path, [parse(DECK)], now, **settings)


def pick(rnd: Round, value: str | None) -> None:
    """Pick the choice with this value (None: the right one) and move on."""
    q = rnd.question()
    assert q is not None and q.kind == Kind.CHOICE
    wanted = q.answer if value is None else value
    rnd.answer_choice(next(i for i, c in enumerate(q.choices) if c.value == wanted))
    rnd.advance()


def round_of(session, keys: list[FaceKey]) -> Round:
    rnd = session.start_misses_round("d", "Phases", keys, seed=3)
    assert rnd is not None
    return rnd


def test_wrong_picks_between_terms_are_kept_in_term_cue_and_scenario_questions(
    tmp_path: Path, now: Now
) -> None:
    session = session_for(tmp_path, now)
    rnd = round_of(
        session,
        [
            FaceKey("d", "prefill", "definition"),  # the definition of another term picked
            FaceKey("d", "decode", "term"),
            FaceKey("d", "pd", "cue-1"),
            FaceKey("d", "slow-start", "scenario"),
            FaceKey("d", "kv", "definition"),  # right: no confusion
        ],
    )
    pick(rnd, "batch")
    pick(rnd, "prefill")
    pick(rnd, "decode")
    pick(rnd, "kv")
    pick(rnd, None)
    got = [(c.answer, c.picked) for c in session.store.confusables.all()]
    assert got == [
        ("prefill", "batch"),
        ("decode", "prefill"),
        ("prefill", "decode"),
        ("prefill", "kv"),
    ]
    # an undone answer takes its confusion with it
    rnd2 = round_of(session, [FaceKey("d", "batch", "definition")])
    pick(rnd2, "kv")
    assert len(session.store.confusables.all()) == 5
    rnd2.undo()
    assert len(session.store.confusables.all()) == 4


def test_the_drill_asks_the_most_confused_pair_first_with_its_distinction(
    tmp_path: Path, now: Now
) -> None:
    session = session_for(tmp_path, now)
    rnd = round_of(
        session,
        [
            FaceKey("d", "pd", "cue-1"),
            FaceKey("d", "pd", "cue-2"),
            FaceKey("d", "kv", "definition"),
        ],
    )
    pick(rnd, "decode")  # prefill/decode twice
    pick(rnd, "prefill")
    pick(rnd, "batch")  # kv/batch once
    drill = session.start("drill", Selection("d", size=20))
    assert drill is not None and not drill.from_groups
    first = drill.round.queue[0]
    assert drill.pair(first) == Pair("d", "decode", "prefill")
    pd_faces = [k for k in drill.round.queue if drill.pair(k) == Pair("d", "decode", "prefill")]
    assert {k.face for k in pd_faces} == {"cue-1", "cue-2", "definition"}
    assert (
        FaceKey("d", "slow-start", "scenario") not in pd_faces
    )  # its why-not names kv, not decode
    assert drill.distinction(first) == (
        "Prefill reads the prompt once; decode then makes one token per step."
    )
    kv = Pair("d", "batch", "kv")
    assert kv in drill.pair_of.values()
    assert distinction(session.catalog.get("d"), kv) == (
        "Batching: Running several requests in one step.\nKV cache: Keys and values kept for "
        "earlier tokens."
    )


def test_a_pair_retires_after_right_answers_in_a_row(tmp_path: Path, now: Now) -> None:
    session = session_for(tmp_path, now, drill_retire_after=3)
    rnd = round_of(session, [FaceKey("d", "pd", "cue-1")])
    pick(rnd, "decode")
    pair = Pair("d", "decode", "prefill")

    def drill_once(right: bool) -> list[str]:
        drill = session.start("drill", Selection("d", size=1))
        assert drill is not None and drill.round.mode == ModeId.DRILL
        q = drill.round.question()
        assert q is not None
        wrong = next(
            c.value for c in q.choices if c.value != q.answer and c.value in ("prefill", "decode")
        )
        outcome = drill.round.answer_choice(
            next(i for i, c in enumerate(q.choices) if c.value == (q.answer if right else wrong))
        )
        drill.note_answer(outcome)
        drill.round.advance()
        return drill.finish()[1]

    assert drill_once(True) == [] and drill_once(True) == []
    assert standings(session.store)[pair].streak == 2
    assert drill_once(False) == []  # a wrong pick: a new confusion, the run starts again
    assert standings(session.store)[pair].streak == 0
    assert standings(session.store)[pair].confusions == 2
    assert drill_once(True) == [] and drill_once(True) == []
    assert drill_once(True) == ["Decode vs Prefill"]
    assert session.start("drill", Selection("d", size=5)) is None  # nothing left to drill
    assert session.store.schedules.cards() == {}  # drill answers are practice: no schedule moved


def test_with_no_confusions_the_drill_offers_the_confusable_groups(
    tmp_path: Path, now: Now
) -> None:
    session = session_for(tmp_path, now)
    drill = session.start("drill", Selection("d", size=10))
    assert drill is not None and drill.from_groups
    assert [k.face for k in drill.round.queue] == ["cue-1", "cue-2"]


def test_the_stats_confusions_read_the_recorded_picks(tmp_path: Path, now: Now) -> None:
    from vocabgame.insights import collect

    session = session_for(tmp_path, now)
    rnd = round_of(session, [FaceKey("d", "pd", "cue-1"), FaceKey("d", "pd", "cue-2")])
    pick(rnd, "decode")
    pick(rnd, "prefill")
    # the answer's text no longer names a term: only the record says what was picked
    session.store.conn.execute("UPDATE reviews SET answer = 'something else'")
    deck = session.catalog.get("d")
    figures = collect(session.store, [deck], now[0], lambda at: at.date())
    assert [(c.right, c.picked, c.times) for c in figures.confusions] == [
        ("Prefill", "Decode", 1),
        ("Decode", "Prefill", 1),
    ]
