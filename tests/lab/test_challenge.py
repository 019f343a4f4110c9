"""Predict-then-reveal challenges: drawn from a seed, answered by the model, graded."""

from __future__ import annotations

import pytest

from vocabgame.lab import load_catalogue
from vocabgame.lab.challenge import DOWN, KINDS, SAME, UP, direction, make_challenge
from vocabgame.lab.model import fmt


def test_direction_has_a_band_for_about_the_same() -> None:
    assert direction(10, 10.9) == SAME
    assert direction(10, 11.1) == UP
    assert direction(10, 9.2) == SAME
    assert direction(10, 9.0) == DOWN


def test_a_challenge_is_the_same_for_the_same_seed_and_differs_across_seeds() -> None:
    c = load_catalogue()
    assert make_challenge(c, 3).prompt == make_challenge(c, 3).prompt
    assert len({make_challenge(c, s).prompt for s in range(8)}) > 4


@pytest.mark.parametrize("kind", KINDS)
def test_every_kind_of_change_makes_a_challenge_whose_answers_follow_the_numbers(kind: str) -> None:
    for seed in range(5):
        ch = make_challenge(load_catalogue(), seed, kind)
        assert ch.kind == kind
        for ask in ch.asks:
            assert ask.before == ch.before.value(ask.key)
            assert ask.after == ch.after.value(ask.key)
            assert ask.answer == direction(ask.before, ask.after)
        assert "Before, decode is" in ch.reason and "After, decode is" in ch.reason
        if kind == "tp":  # the doubled TP always has all-reduces, and the reason says so
            assert f"+ all-reduces {fmt(ch.after.value('allreduce_decode'))} ms." in ch.reason


def test_doubling_a_memory_bound_batch_whose_weights_dominate_keeps_tpot_and_doubles_throughput() -> (
    None
):
    c = load_catalogue()
    for seed in range(40):
        ch = make_challenge(c, seed, "batch")
        kv_after = ch.after.value("kv_batch")  # small beside the weights: they set the step time
        if ch.after.decode_regime == "memory-bound" and kv_after < 0.1 * ch.after.value(
            "weights_per_gpu"
        ):
            break
    else:
        pytest.fail("no memory-bound batch with a small KV cache among 40 seeds")
    tpot, throughput = ch.asks
    assert (tpot.key, tpot.answer) == ("tpot", SAME)
    assert (throughput.key, throughput.answer) == ("throughput", UP)
    assert "shares each step's weight read" in ch.reason


def test_when_prefills_fill_the_loaded_step_the_reason_says_they_set_the_throughput() -> None:
    c = load_catalogue()
    for seed in range(100):
        ch = make_challenge(c, seed, "batch")
        prefills = ch.after.value("tpot_loaded") - ch.after.value("tpot")
        if prefills > 0.5 * ch.after.value("tpot_loaded"):
            break
    else:
        pytest.fail("no prefill-heavy batch challenge among 100 seeds")
    shown = f"{fmt(prefills)} of {fmt(ch.after.value('tpot_loaded'))} ms after"
    assert shown in ch.reason
    assert "the prefills, more than the decode step, set the throughput" in ch.reason


def test_grading_marks_each_prediction() -> None:
    ch = make_challenge(load_catalogue(), 1, "fp8")
    right = [a.answer for a in ch.asks]
    wrong = [UP if a.answer != UP else DOWN for a in ch.asks]
    assert all(v.right for v in ch.grade(right))
    assert not any(v.right for v in ch.grade(wrong))
    with pytest.raises(ValueError):
        ch.grade(["sideways", "up"])


@pytest.mark.parametrize("kind", KINDS)
def test_a_reveal_shows_the_terms_summing_to_each_asked_figure(kind: str) -> None:
    from vocabgame.lab.asked import ASKED
    from vocabgame.lab.breakdown import breakdown

    for seed in range(6):
        ch = make_challenge(load_catalogue(), seed, kind)
        assert "Where the time goes:" in ch.reason
        for key in ASKED[kind]:
            for e in (ch.before, ch.after):
                b = breakdown(e, key)
                assert b.sum_ms == pytest.approx(b.total_ms, rel=0.01)
                assert b.text() in ch.reason
                names = [t.name for t in b.terms]
                assert "queue wait" in names and "all-reduce" in names


def test_the_breakdown_by_hand_on_a_toy_setup() -> None:
    from vocabgame.lab import Assumptions, GpuSpec, ModelSpec, Setup, estimate
    from vocabgame.lab.breakdown import breakdown

    gpu = GpuSpec("g", "G", 100, 1000, {"bf16": 100}, nvlink_gbs=400)
    model = ModelSpec(
        "m", "M", params_b=10, layers=10, hidden=1000, heads=10, kv_heads=2, head_dim=100
    )
    ideal = Assumptions(1, 1, 1, link_efficiency=1, allreduce_latency_us=10, step_overhead_us=100)
    e = estimate(Setup(gpu, model, tp=2, batch=4, prompt=1000, output=101, assumptions=ideal))
    tpot = breakdown(e, "tpot")
    terms = {t.name: t for t in tpot.terms}
    # Weights: 20 GB / 2 GPUs at 1,000 GB/s = 10 ms. KV: 8,000 bytes a token x 1,050.5 tokens
    # of mean context x 4 sequences, half on each GPU: 16.808 MB at 1,000 GB/s = 0.016808 ms.
    assert terms["weights read"].ms == pytest.approx(10)
    assert terms["KV read"].ms == pytest.approx(0.016808)
    # 2 x 10 layers x (2 x 1/2 x 4 x 1000 x 2 bytes / 200 GB/s + 10 us) = 0.2008 ms
    assert terms["all-reduce"].ms == pytest.approx(0.2008)
    assert terms["queue wait"].ms == 0
    assert terms["fixed cost"].ms == pytest.approx(0.1)  # 100 us a pass
    assert not terms["compute"].counted  # memory-bound: the math hides under the reads
    assert tpot.sum_ms == pytest.approx(e.value("tpot"))
    loaded = breakdown(e, "throughput")
    prefills = {t.name: t.ms for t in loaded.terms}["prefills mixed in"]
    assert prefills == pytest.approx(4 / 101 * e.value("ttft"))
    assert loaded.sum_ms == pytest.approx(e.value("tpot_loaded"))
    ttft = breakdown(e, "ttft")
    assert ttft.sum_ms == pytest.approx(e.value("ttft"))
    assert ttft.terms[0].name == "compute"  # a 1,000-token prompt is compute-bound here
    # 2 x 10e9 x 1000 + 10 x 10 x 200 x 1000^2 = 2.002e13 FLOPs over 2 x 100 TFLOPS = 100.1 ms
    assert ttft.terms[0].ms == pytest.approx(100.1)
    assert {t.name: t.ms for t in ttft.terms}["fixed cost"] == pytest.approx(0.1)
