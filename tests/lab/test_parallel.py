"""Expert parallelism's all-to-alls and the pipeline bubble, against numbers worked by hand."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from tests.lab.test_model import DENSE, MOE, setup
from vocabgame.lab import LabError, estimate
from vocabgame.lab.breakdown import breakdown
from vocabgame.lab.links import alltoall_s, bubble_fraction
from vocabgame.lab.load import PassCost


def test_expert_parallel_all_to_alls_by_hand() -> None:
    e = estimate(setup(model=MOE, batch=4, tp=2, ep=2))
    # A decode step: 2 per layer x 10 layers = 20 all-to-alls of 4 tokens x 1 expert x
    # 1,000 x 2 bytes = 8,000 bytes, (2-1)/2 of it to the other GPU at 200 GB/s one way:
    # 20 ns on the wire + the all-to-all's own 40 us latency (not the all-reduce's 10).
    assert e.value("alltoall_decode") == pytest.approx(20 * (20e-9 + 40e-6) * 1000)
    # Prefill: 1,000 tokens -> 2 MB a call, half of it off the GPU: 5 us + 40 us, 20 calls
    assert e.value("alltoall_prefill") == pytest.approx(20 * (5e-6 + 40e-6) * 1000)
    # Both add to their phase's time, on top of the all-reduces (no overlap)
    plain = estimate(setup(model=MOE, batch=4, tp=2))
    assert e.value("tpot") == pytest.approx(plain.value("tpot") + 0.8004)
    assert e.value("ttft") == pytest.approx(plain.value("ttft") + 0.9)
    # EP 4 over TP 4 sends 3/4 of each message off the GPU: 7.5 us for the prefill's 2 MB
    assert alltoall_s(setup(model=MOE, tp=4, ep=4), 1000) == pytest.approx(20 * (7.5e-6 + 40e-6))
    # Two experts a token send two copies: twice the bytes
    two_k = replace(MOE, active_experts=2)
    assert alltoall_s(setup(model=two_k, tp=2, ep=2), 1000) == pytest.approx(20 * (10e-6 + 40e-6))
    # The all-to-all's latency is its own assumption: the all-reduce's leaves it alone.
    a = replace(setup().assumptions, allreduce_latency_us=0)
    assert alltoall_s(setup(model=MOE, tp=2, ep=2, assumptions=a), 0) == pytest.approx(20 * 40e-6)


def test_no_all_to_all_at_ep_1_so_the_dense_calibration_is_untouched() -> None:
    for model in (DENSE, MOE):
        e = estimate(setup(model=model, batch=4, tp=2))
        assert e.value("alltoall_decode") == e.value("alltoall_prefill") == 0


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (dict(model=DENSE, tp=2, ep=2), "no experts to split"),
        (dict(model=MOE, tp=1, ep=2), "must divide both TP"),
        (dict(model=MOE, tp=2, ep=3), "must divide both TP"),
        (dict(batch=2, pp=2, micro_batches=3), "cannot be cut into 3 micro-batches"),
    ],
)
def test_nonsense_parallel_settings_are_refused(change: dict[str, object], message: str) -> None:
    with pytest.raises(LabError, match=message):
        estimate(setup(**change))


def test_the_breakdown_counts_the_all_to_alls_and_still_sums_to_the_total() -> None:
    e = estimate(setup(model=MOE, batch=4, tp=2, ep=2))
    for key in ("ttft", "tpot", "tpot_loaded"):
        b = breakdown(e, key)
        assert "all-to-all" in [t.name for t in b.terms]
        assert b.sum_ms == pytest.approx(b.total_ms, rel=0.01)


def test_the_load_simulation_pays_the_same_all_to_alls_as_the_estimate() -> None:
    s = setup(model=MOE, batch=4, tp=2, ep=2)
    cost = PassCost(s)
    ep1 = PassCost(setup(model=MOE, batch=4, tp=2))
    # Per token and per pass, the all-to-alls' share: what alltoall_s says
    assert cost._link_token - ep1._link_token == pytest.approx(alltoall_s(s, 1) - alltoall_s(s, 0))
    assert cost._link_fixed - ep1._link_fixed == pytest.approx(alltoall_s(s, 0))


def test_pipeline_bubble_by_hand() -> None:
    # GPipe: 4 stages and 16 micro-batches idle 3 of 19 slots, 15.8%
    assert bubble_fraction(4, 16) == pytest.approx(3 / 19)
    assert bubble_fraction(1, 5) == 0
    # A lone micro-batch leaves each of 2 stages idle half the run
    assert bubble_fraction(2, 1) == pytest.approx(0.5)
    e = estimate(setup(batch=8, pp=4, micro_batches=8))
    assert e.value("pipeline_bubble") == pytest.approx(100 * 3 / 11)
    # Without micro_batches, the batch runs as min(batch, PP) micro-batches: 2 of 2 stages
    assert estimate(setup(batch=4, pp=2)).value("pipeline_bubble") == pytest.approx(100 / 3)
    assert estimate(setup(batch=4)).value("pipeline_bubble") == 0


def test_the_cli_takes_ep_and_micro_batches_and_refuses_ep_on_a_dense_model(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from vocabgame.cli import main

    args = ["lab", "--gpu", "H200-SXM", "--model", "qwen3-30b-a3b", "--tp", "2", "--json"]
    assert main([*args, "--ep", "2"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["setup"]["ep"] == 2
    assert out["figures"]["alltoall_decode"]["value"] > 0
    assert out["figures"]["alltoall_decode"]["card"] == "expert-parallel/a2a-bytes-per-token"
    assert main([*args, "--pp", "2", "--batch", "8", "--micro-batches", "8"]) == 0
    bubble = json.loads(capsys.readouterr().out)["figures"]["pipeline_bubble"]
    assert bubble["value"] == pytest.approx(100 / 9)  # (2 - 1) / (8 + 2 - 1)
    assert main(["lab", "--model", "llama-3.1-8b", "--tp", "2", "--ep", "2"]) == 1
    err = capsys.readouterr().err
    assert "has no experts to split; leave --ep at 1" in err and "Traceback" not in err


def test_a_negative_all_to_all_latency_is_one_sentence() -> None:
    from vocabgame.lab import Assumptions

    with pytest.raises(LabError, match="the all-to-all latency must be a finite number"):
        Assumptions(alltoall_latency_us=-1).check()
