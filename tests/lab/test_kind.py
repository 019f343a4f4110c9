"""Lab challenges as a kind of deck item: read and checked like any item, a fresh setup each
time a face is asked, graded with the lab's numbers and reason, and a `lab` mode that plans
only them."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta
from pathlib import Path

from vocabgame.deck import Catalog, load_catalog, load_text
from vocabgame.kinds import build_question, grade
from vocabgame.kinds.lab import FACE, challenge
from vocabgame.model import FaceKey
from vocabgame.paths import builtin_decks_dir
from vocabgame.play import Session
from vocabgame.quiz import Picked
from vocabgame.store import Store

NOW = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)

DECK = """\
format: 1
id: lab-toy
title: Lab toy
sources:
  s: {title: S, url: "https://example.com"}
lab_challenges:
  - id: batch-tpot
    change: batch
    figure: tpot
    note: Said after the reason.
    sources: [s]
  - id: prompt-ttft
    change: prompt
    figure: ttft
    sources: [s]
"""


def toy():  # type: ignore[no-untyped-def]
    deck, problems = load_text(DECK, "toy.yaml", strict=True)
    assert problems == [] and deck is not None
    return deck


def test_a_change_or_figure_the_lab_does_not_ask_is_an_error_at_its_position() -> None:
    bad = DECK.replace("change: batch", "change: quadruple").replace("figure: ttft", "figure: cost")
    deck, problems = load_text(bad, "toy.yaml")
    assert deck is None
    shown = [str(p) for p in problems]
    assert (
        "toy.yaml:8:13: error: change 'quadruple' is not one of batch, fp8, tp, prompt, rate, "
        "chunked, replicas, alltoall" in shown
    )
    assert any(
        s.startswith("toy.yaml:14:13: error: figure 'cost' is not asked of the change 'prompt'")
        for s in shown
    ), shown


def test_each_asking_draws_a_fresh_setup_and_grading_uses_the_same_one() -> None:
    deck = toy()
    key = FaceKey("lab-toy", "batch-tpot", FACE)
    rng = random.Random(5)
    first, second = build_question(deck, key, rng), build_question(deck, key, rng)
    assert first.prompt != second.prompt
    assert "You double the batch" in first.prompt
    seed = int(dict(first.values)["seed"])
    ch = challenge(deck.item("batch-tpot"), seed)
    assert first.answer == ch.asks[0].answer
    right = next(i for i, c in enumerate(first.choices) if c.value == first.answer)
    verdict = grade(deck, first, Picked(right))
    assert verdict is not None and verdict.correct
    assert ch.asks[0].moved() in verdict.explanation
    assert ch.reason in verdict.explanation
    assert "Said after the reason." in verdict.explanation
    wrong = grade(deck, first, Picked((right + 1) % 3))
    assert wrong is not None and not wrong.correct


def test_the_builtin_serving_lab_deck_asks_every_change() -> None:
    deck = load_catalog([builtin_decks_dir()]).get("serving-lab")
    assert deck is not None
    changes = {item.change for item in deck.section("lab_challenges")}
    assert changes == {"batch", "fp8", "tp", "prompt", "rate", "chunked", "replicas", "alltoall"}


def _session(tmp_path: Path, clock: list[datetime]) -> Session:
    decks = load_catalog([builtin_decks_dir()]).decks
    deck = next(d for d in decks if d.id == "serving-lab")
    other = next(d for d in decks if d.id == "latency-throughput")
    store = Store.open(tmp_path / "vocabgame.db")
    return Session(store, Catalog((other, deck), ()), clock=lambda: clock[0], tz=UTC, fuzz=False)


def test_lab_mode_plans_only_lab_challenges_and_schedules_them_like_other_faces(
    tmp_path: Path,
) -> None:
    clock = [NOW]
    session = _session(tmp_path, clock)
    try:
        round_ = session.start_round(None, size=3, seed=1, mode="lab")
        assert round_ is not None
        assert all(k.face == FACE for k in round_.queue)
        question = round_.question()
        assert question is not None
        right = next(i for i, c in enumerate(question.choices) if c.value == question.answer)
        outcome = round_.answer_choice(right)
        assert outcome.grade.correct
        review = session.store.answers.all()[-1]
        assert (review.key.deck_id, review.mode, review.correct) == ("serving-lab", "lab", True)
        # The answered face is scheduled: it is not due again straight away.
        card = session.store.schedules.cards()[question.key]
        assert card.due > NOW
        clock[0] = NOW + timedelta(days=400)
        later = session.start_round(None, size=8, seed=2, mode="lab")
        assert later is not None and later.queue[0] == question.key  # due first
    finally:
        session.close()
