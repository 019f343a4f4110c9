"""Challenges on a loaded server: twice the arrival rate near the knee, and chunked prefill
instead of prefill-first, each answered by the simulation and asked as a deck's face."""

from __future__ import annotations

import random

import pytest

from vocabgame.deck import load_text
from vocabgame.kinds import build_question, grade
from vocabgame.kinds.lab import FACE
from vocabgame.lab import LabError, load_catalogue
from vocabgame.lab.asked import DOWN, KINDS, UP
from vocabgame.lab.catalogue import Catalogue
from vocabgame.lab.challenge import make_challenge
from vocabgame.lab.load import KNEE_CHUNK, Scheduler, Workload, knee_rates, simulate
from vocabgame.lab.load_challenge import (
    CHUNKED_AT,
    NEAR_KNEE,
    REQUESTS,
    draw_setup,
    make_load_challenge,
)
from vocabgame.model import FaceKey
from vocabgame.quiz import Picked

DECK = """\
format: 1
id: load-toy
title: Load toy
sources:
  s: {title: S, url: "https://example.com"}
lab_challenges:
  - id: rate-ttft
    change: rate
    figure: ttft_p99
    sources: [s]
  - id: chunked-itl
    change: chunked
    figure: itl_p99
    sources: [s]
"""


@pytest.fixture(scope="module")
def catalogue() -> Catalogue:
    return load_catalogue([])


def test_doubling_the_rate_near_the_knee_raises_the_ttft_tail(catalogue: Catalogue) -> None:
    for seed in range(4):
        ch = make_load_challenge(catalogue, seed, "rate")
        ttft, _tpot = ch.asks
        assert (ttft.key, ttft.answer) == ("ttft_p99", UP)
        assert ttft.after > 1.5 * ttft.before  # queueing, not the GPU: far more than the rate
        assert "twice as fast" in ch.change and "latency-throughput/tail-latency" in ch.reason


def test_the_challenges_numbers_are_the_simulations_of_its_drawn_setup(
    catalogue: Catalogue,
) -> None:
    assert make_load_challenge(catalogue, 3, "rate") == make_load_challenge(catalogue, 3, "rate")
    # Redraw what the challenge draws: its setup, then the simulation's seed.
    rng = random.Random(3)
    setup = draw_setup(catalogue, rng)
    sim_seed = rng.randrange(1 << 30)
    (rate,) = knee_rates(setup, (NEAR_KNEE,))
    slow = simulate(setup, Workload(2 * rate, REQUESTS, seed=sim_seed))
    ttft, tpot = make_load_challenge(catalogue, 3, "rate").asks
    assert (ttft.after, tpot.after) == (slow.ttft.p99, slow.tpot.p99)
    (rate,) = knee_rates(setup, (CHUNKED_AT,))
    work = Workload(rate, REQUESTS, seed=sim_seed)
    first, chunked = simulate(setup, work), simulate(setup, work, Scheduler(KNEE_CHUNK))
    p99, p50 = make_load_challenge(catalogue, 3, "chunked").asks
    assert (p99.before, p99.after, p50.after) == (first.itl.p99, chunked.itl.p99, chunked.itl.p50)


def test_chunked_prefill_cuts_the_tail_gap_but_not_the_typical_one(catalogue: Catalogue) -> None:
    for seed in range(4):
        ch = make_load_challenge(catalogue, seed, "chunked")
        p99, p50 = ch.asks
        assert (p99.key, p99.answer) == ("itl_p99", DOWN)
        assert p50.key == "itl_p50" and p50.answer != UP
        assert "prefill-first to chunked prefill" in ch.change
        assert "batching-scheduling/chunked-prefill" in ch.reason


def test_the_x_key_still_draws_only_roofline_challenges(catalogue: Catalogue) -> None:
    assert "rate" not in KINDS and "chunked" not in KINDS
    assert {make_challenge(catalogue, s).kind for s in range(12)} <= set(KINDS)
    with pytest.raises(LabError, match="'rate' is not a change to the setup"):
        make_challenge(catalogue, 1, "rate")


def test_a_load_challenge_is_asked_and_graded_as_a_deck_face() -> None:
    deck, problems = load_text(DECK, "toy.yaml", strict=True)
    assert problems == [] and deck is not None
    for item in ("rate-ttft", "chunked-itl"):
        question = build_question(deck, FaceKey("load-toy", item, FACE), random.Random(2))
        right = next(i for i, c in enumerate(question.choices) if c.value == question.answer)
        verdict = grade(deck, question, Picked(right))
        assert verdict is not None and verdict.correct
        assert "Simulated" in verdict.explanation
