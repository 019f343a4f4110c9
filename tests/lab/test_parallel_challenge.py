"""Challenges on how the GPUs are split: TP 2 against two replicas at the same load, and an
MoE's experts split over its TP GPUs, each answered by the lab and asked as a deck's face."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from vocabgame.deck import load_catalog
from vocabgame.kinds import build_question, grade
from vocabgame.kinds.lab import FACE
from vocabgame.lab import LabError, estimate, load_catalogue
from vocabgame.lab.asked import DOWN, UP
from vocabgame.lab.breakdown import breakdown
from vocabgame.lab.catalogue import Catalogue
from vocabgame.lab.links import alltoall_s
from vocabgame.lab.load import Workload, knee_rates, simulate
from vocabgame.lab.load_challenge import REQUESTS
from vocabgame.lab.parallel_challenge import (
    REPLICA_LOAD,
    _moe_setup,
    _replica_setup,
    make_parallel_challenge,
)
from vocabgame.model import FaceKey
from vocabgame.paths import builtin_decks_dir
from vocabgame.quiz import Picked


@pytest.fixture(scope="module")
def catalogue() -> Catalogue:
    return load_catalogue([])


def test_one_tp2_server_has_a_shorter_ttft_tail_than_two_replicas(catalogue: Catalogue) -> None:
    for seed in range(3):
        ch = make_parallel_challenge(catalogue, seed, "replicas")
        ttft, tpot = ch.asks
        assert (ttft.key, ttft.answer, tpot.key) == ("ttft_p99", DOWN, "tpot_p99")
        assert (ch.before.setup.tp, ch.after.setup.tp) == (1, 2)
        assert "scaling-capacity/data-parallelism" in ch.reason


def test_the_replicas_numbers_are_the_simulations_of_its_drawn_setup(
    catalogue: Catalogue,
) -> None:
    rng = random.Random(5)
    one = _replica_setup(catalogue, rng)
    sim_seed = rng.randrange(1 << 30)
    (half,) = knee_rates(one, (REPLICA_LOAD,))
    replica = simulate(one, Workload(half, REQUESTS, seed=sim_seed))
    tp2 = simulate(replace(one, tp=2), Workload(2 * half, REQUESTS, seed=sim_seed))
    ttft, tpot = make_parallel_challenge(catalogue, 5, "replicas").asks
    assert (ttft.before, ttft.after) == (replica.ttft.p99, tp2.ttft.p99)
    assert (tpot.before, tpot.after) == (replica.tpot.p99, tp2.tpot.p99)


def test_expert_parallelism_adds_its_all_to_alls_to_ttft_and_tpot(catalogue: Catalogue) -> None:
    for seed in range(3):
        ch = make_parallel_challenge(catalogue, seed, "alltoall")
        s = ch.after.setup
        assert s.ep == s.tp == ch.before.setup.tp and s.model.is_moe and ch.before.setup.ep == 1
        # TTFT grows by exactly the prompt's all-to-alls, TPOT by a step's
        added = alltoall_s(s, s.prompt) * 1000
        assert ch.after.value("ttft") - ch.before.value("ttft") == pytest.approx(added)
        step = alltoall_s(s, s.batch) * 1000
        assert ch.after.value("tpot") - ch.before.value("tpot") == pytest.approx(step)
        assert [a.key for a in ch.asks] == ["ttft", "tpot"]
        assert ch.asks[0].answer == UP  # a fresh setup's prompt: its bytes cross the link
        assert "expert-parallel/a2a-bytes-per-token" in ch.reason and "all-to-all" in ch.reason
        assert breakdown(ch.after, "ttft").sum_ms == pytest.approx(ch.after.value("ttft"))


def test_the_moe_setup_is_redrawn_the_same_way(catalogue: Catalogue) -> None:
    base = _moe_setup(catalogue, random.Random(7))
    ch = make_parallel_challenge(catalogue, 7, "alltoall")
    assert ch.before == estimate(base)
    assert make_parallel_challenge(catalogue, 7, "alltoall") == ch


def test_an_unknown_kind_is_one_clear_sentence(catalogue: Catalogue) -> None:
    with pytest.raises(LabError, match="unknown challenge 'rate'; choose replicas or alltoall"):
        make_parallel_challenge(catalogue, 1, "rate")


def test_the_builtin_deck_asks_and_grades_both_challenges() -> None:
    deck = load_catalog([builtin_decks_dir()]).get("serving-lab")
    assert deck is not None
    for item in ("tp2-or-replicas-ttft-p99", "expert-parallel-ttft"):
        question = build_question(deck, FaceKey("serving-lab", item, FACE), random.Random(3))
        assert question is not None
        right = [c.value for c in question.choices].index(question.answer)
        verdict = grade(deck, question, Picked(right))
        assert verdict is not None and verdict.correct
        assert "Card:" in verdict.explanation
