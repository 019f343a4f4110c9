"""The lab's roofline model, each formula against numbers worked out by hand here."""

from __future__ import annotations

import pytest

from vocabgame.lab import Assumptions, GpuSpec, LabError, ModelSpec, Setup, estimate, sweep
from vocabgame.lab.model import (
    COMPUTE_BOUND,
    MEMORY_BOUND,
    largest_batch,
    next_batch,
    weights_read_b,
)

# A made-up GPU and model with round numbers, so every figure is easy to work by hand.
# NVLink 400 GB/s both ways: 200 GB/s each way for the all-reduces.
GPU = GpuSpec("toy-gpu", "Toy GPU", 100, 1000, {"bf16": 100}, nvlink_gbs=400, pcie_gbs=64)
FP8_GPU = GpuSpec("toy-fp8", "Toy FP8", 100, 1000, {"bf16": 100, "fp8": 200})
DENSE = ModelSpec(
    "toy", "Toy 10B", params_b=10, layers=10, hidden=1000, heads=10, kv_heads=2, head_dim=100
)
MOE = ModelSpec(
    "toy-moe", "Toy MoE", params_b=10, layers=10, hidden=1000, heads=10, kv_heads=2,
    head_dim=100, experts=4, active_experts=1, active_params_b=4,
)  # fmt: skip
# Efficiencies of 1 and all memory usable keep the hand arithmetic short.
IDEAL = Assumptions(
    bandwidth_efficiency=1,
    compute_efficiency=1,
    usable_memory=1,
    usd_per_gpu_hour=3.6,
    link_efficiency=1,
    allreduce_latency_us=10,
    alltoall_latency_us=40,
    step_overhead_us=0,
)


def setup(**kw: object) -> Setup:
    base: dict[str, object] = dict(gpu=GPU, model=DENSE, prompt=1000, output=101, assumptions=IDEAL)
    base.update(kw)
    return Setup(**base)  # type: ignore[arg-type]


def test_memory_figures_by_hand() -> None:
    e = estimate(setup(batch=4))
    # 10e9 parameters x 2 bytes = 20 GB
    assert e.value("weights") == pytest.approx(20)
    # 2 x 10 layers x 2 KV heads x 100 dims x 2 bytes = 8,000 bytes a token
    assert e.value("kv_per_token") == 8000
    # 8,000 bytes x (1000 + 101) tokens = 8.808 MB
    assert e.value("kv_per_sequence") == pytest.approx(8000 * 1101 / 1e9)
    # 100 GB - 20 GB of weights = 80 GB for KV; 80e9 / 8.808e6 = 9082.6 -> 9082 sequences
    assert e.value("kv_space") == pytest.approx(80)
    assert e.value("max_batch") == 9082
    assert e.value("kv_batch") == pytest.approx(4 * 8000 * 1101 / 1e9)


def test_tensor_parallel_splits_weights_and_kv_heads_but_never_below_one_head() -> None:
    two = estimate(setup(tp=2))
    assert two.value("weights_per_gpu") == pytest.approx(10)
    # Each GPU holds 1 of the 2 KV heads: half the KV per sequence, 90 GB of room.
    assert two.value("max_batch") == int(90e9 // (8000 * 1101 / 2))
    five = estimate(setup(tp=5))  # 2 KV heads over 5 GPUs: each keeps a whole copy of one
    assert five.value("max_batch") == int(96e9 // (8000 * 1101 / 2))


def test_fp8_halves_weights_and_kv() -> None:
    e = estimate(setup(weights="fp8", kv="fp8", gpu=FP8_GPU))
    assert e.value("weights") == pytest.approx(10)
    assert e.value("kv_per_token") == 4000
    assert e.math_precision == "fp8"  # W8A8 runs at the FP8 rate where the GPU has one
    assert e.value("ops_byte") == pytest.approx(200e12 / 1000e9)


def test_fp8_weights_on_a_gpu_without_fp8_math_run_at_bf16() -> None:
    e = estimate(setup(weights="fp8"))
    assert e.math_precision == "bf16"
    assert e.value("ridge") == pytest.approx(100)


def test_prefill_ttft_by_hand() -> None:
    e = estimate(setup())
    # FLOPs: 2 x 10e9 x 1000 = 2e13, plus attention 2 x 10 x 10 x 100 x 1000^2 = 2e10
    flops = 2e13 + 2e10
    # 100 TFLOPS achieved: 0.20020 s; bytes 20e9 + 8e6 at 1000 GB/s: 0.020 s -> compute-bound
    assert e.value("prefill") == pytest.approx(flops / 100e12 * 1000)
    assert e.value("ttft") == e.value("prefill")
    assert e.prefill_regime == COMPUTE_BOUND
    assert e.value("prefill_intensity") == pytest.approx(flops / (20e9 + 8000 * 1000))


def test_decode_step_by_hand_at_batch_1_is_memory_bound() -> None:
    e = estimate(setup(batch=1))
    context = 1000 + 101 / 2  # the mean context over the reply
    step_bytes = 20e9 + 8000 * context
    step_flops = 2 * 10e9 + 4 * 10 * 10 * 100 * context
    assert e.value("decode_memory") == pytest.approx(step_bytes / 1000e9 * 1000)
    assert e.value("decode_compute") == pytest.approx(step_flops / 100e12 * 1000)
    assert e.value("tpot") == pytest.approx(e.value("decode_memory"))
    assert e.decode_regime == MEMORY_BOUND
    assert e.value("decode_intensity") == pytest.approx(step_flops / step_bytes)
    # End to end: TTFT + 100 more tokens at one TPOT each
    assert e.value("e2e") == pytest.approx(e.value("ttft") / 1000 + 100 * e.value("tpot") / 1000)
    assert e.value("user_speed") == pytest.approx(1000 / e.value("tpot"))
    assert e.value("decode_throughput") == pytest.approx(e.value("user_speed"))


def test_tensor_parallel_all_reduces_by_hand() -> None:
    e = estimate(setup(batch=4, tp=2))
    # A decode step: 2 x 10 layers = 20 all-reduces of 4 tokens x 1,000 x 2 bytes = 8,000
    # bytes; a ring of 2 moves 2(2-1)/2 = 1 x that each way at 200 GB/s: 40 ns, plus 10 us.
    assert e.value("allreduce_decode") == pytest.approx(20 * (40e-9 + 10e-6) * 1000)
    # TPOT: the memory term, now on 2 GPUs, plus the all-reduces (they do not overlap)
    assert e.value("tpot") == pytest.approx(e.value("decode_memory") + 0.2008)
    # Prefill: 1,000 tokens x 1,000 x 2 = 2 MB a call: 10 us on the wire + 10 us latency
    assert e.value("allreduce_prefill") == pytest.approx(20 * (10e-6 + 10e-6) * 1000)
    assert e.value("prefill") == pytest.approx((2e13 + 2e10) / 200e12 * 1000 + 0.4)
    # A ring of 5 moves 2 x 4/5 = 1.6 x the message: 16 us for the prefill's 2 MB
    five = estimate(setup(tp=5))
    assert five.value("allreduce_prefill") == pytest.approx(20 * (16e-6 + 10e-6) * 1000)
    one = estimate(setup(batch=4))
    assert one.value("allreduce_decode") == one.value("allreduce_prefill") == 0


def test_without_nvlink_the_all_reduces_cross_pcie_and_without_either_tp_is_refused() -> None:
    pcie = GpuSpec("pcie", "PCIe GPU", 100, 1000, {"bf16": 100}, pcie_gbs=64)
    e = estimate(setup(gpu=pcie, tp=2))
    # 2 MB a call at 32 GB/s each way: 62.5 us + 10 us, 20 calls
    assert e.value("allreduce_prefill") == pytest.approx(20 * (62.5e-6 + 10e-6) * 1000)
    bare = GpuSpec("bare", "Bare GPU", 100, 1000, {"bf16": 100})
    assert estimate(setup(gpu=bare)).value("allreduce_decode") == 0
    with pytest.raises(LabError, match="no NVLink or PCIe bandwidth"):
        estimate(setup(gpu=bare, tp=2))


def test_pipeline_stages_split_the_layers_and_hand_activations_on() -> None:
    two = estimate(setup(batch=4, pp=2))
    # Each stage holds half the layers: 10 GB of weights and half of each sequence's KV
    assert two.value("weights_per_gpu") == pytest.approx(10)
    assert two.value("max_batch") == int(90e9 // (8000 * 1101 / 2))
    # Prefill: the stages run one after another, so only a hand-off is added: 1,000 tokens
    # x 1,000 x 2 bytes = 2 MB at 200 GB/s one way = 10 us, + 10 us, once (PP - 1 = 1)
    assert two.value("handoff_prefill") == pytest.approx(0.02)
    one = estimate(setup(batch=4))
    assert two.value("prefill") == pytest.approx(one.value("prefill") + 0.02)
    # Decode: 2 micro-batches of 2 sequences in flight; a token costs one step of 2 sequences
    # over all the layers plus one hand-off of 2 x 1,000 x 2 bytes: 20 ns + 10 us
    micro = estimate(setup(batch=2))
    assert two.value("handoff_decode") == pytest.approx((4000 / 200e9 + 10e-6) * 1000)
    assert two.value("tpot") == pytest.approx(micro.value("tpot") + two.value("handoff_decode"))
    # ... and yields 4 tokens. Memory-bound, each stage reads its weights once per
    # micro-batch, so twice the GPUs give about the one GPU's throughput (within 1%).
    assert two.value("decode_throughput") == pytest.approx(4 / two.value("tpot") * 1000)
    assert two.value("decode_throughput") == pytest.approx(one.value("decode_throughput"), rel=0.01)
    # One sequence cannot fill two stages: it gains nothing but the hand-off
    lone = estimate(setup(batch=1, pp=2))
    assert lone.value("tpot") == pytest.approx(
        estimate(setup(batch=1)).value("tpot") + (2000 / 200e9 + 10e-6) * 1000
    )
    with pytest.raises(LabError, match="more than Toy 10B's 10 layers"):
        estimate(setup(pp=11))


def test_cost_per_million_tokens_by_hand() -> None:
    e = estimate(setup(batch=8, tp=2))
    # $3.60 an hour x 2 GPUs = $0.002 a second; at T tokens/s a million tokens cost 2000 / T
    assert e.value("cost") == pytest.approx(0.002 / e.value("throughput") * 1e6)


def test_regime_switches_at_the_ridge_point() -> None:
    # Ridge 100 FLOP/byte. With a tiny context, decode intensity is about 2B / 2 bytes = B.
    tiny = dict(prompt=1, output=1)
    below = estimate(setup(batch=90, **tiny))
    above = estimate(setup(batch=110, **tiny))
    assert below.value("decode_intensity") < below.value("ridge") < above.value("decode_intensity")
    assert below.decode_regime == MEMORY_BOUND
    assert above.decode_regime == COMPUTE_BOUND
    assert above.value("tpot") == pytest.approx(above.value("decode_compute"))
    assert below.value("tpot") == pytest.approx(below.value("decode_memory"))
    assert below.value("knee") == pytest.approx(100)  # ridge x 2 bytes / 2


def test_doubling_the_batch_in_the_memory_bound_regime_barely_moves_tpot() -> None:
    small, large = (estimate(setup(batch=b, prompt=100, output=10)) for b in (8, 16))
    assert large.value("tpot") / small.value("tpot") < 1.05
    assert large.value("decode_throughput") / small.value("decode_throughput") > 1.9


def test_past_the_knee_tpot_grows_with_the_batch_and_throughput_flattens() -> None:
    small, large = (estimate(setup(batch=b, prompt=1, output=1)) for b in (400, 800))
    assert large.value("tpot") / small.value("tpot") == pytest.approx(2, rel=0.02)
    assert large.value("decode_throughput") / small.value("decode_throughput") == pytest.approx(
        1, rel=0.02
    )


def test_a_batch_that_does_not_fit_is_refused_with_the_reason() -> None:
    with pytest.raises(LabError, match=r"largest batch that fits is 9082"):
        estimate(setup(batch=9083))
    estimate(setup(batch=9082))


def test_weights_that_do_not_fit_are_refused_with_the_reason() -> None:
    big = ModelSpec("big", "Big", 70, 80, 8192, 64, 8, 128)
    with pytest.raises(LabError, match=r"140 GB of weights.*raise TP or PP, or quantize"):
        estimate(setup(model=big))
    assert estimate(setup(model=big, tp=2, assumptions=Assumptions(usable_memory=0.9)))


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (dict(batch=0), "batch must be at least 1"),
        (dict(weights="fp4"), "unknown weight precision 'fp4'"),
        (dict(kv="int4"), "unknown KV cache precision 'int4'"),
        (dict(tp=3), "does not divide"),
        (dict(assumptions=Assumptions(compute_efficiency=1.5)), "compute efficiency"),
    ],
)
def test_nonsense_setups_are_refused(change: dict[str, object], message: str) -> None:
    with pytest.raises(LabError, match=message):
        estimate(setup(**change))


def test_moe_reads_the_active_experts_at_batch_1_and_all_of_them_at_large_batches() -> None:
    # 4 experts of 2B each (10 - 4 = 6B over 3 unused), 2B shared: batch 1 reads 2 + 2 = 4B
    assert weights_read_b(MOE, 1) == pytest.approx(4)
    # Batch 2: each expert missed by both tokens with (3/4)^2; 4 x (1 - 9/16) = 1.75 experts
    assert weights_read_b(MOE, 2) == pytest.approx(2 + 1.75 * 2)
    assert weights_read_b(MOE, 1000) == pytest.approx(10)
    assert weights_read_b(DENSE, 1) == 10
    # Compute follows the active parameters only: 2 x 4e9 per token
    e = estimate(setup(model=MOE, prompt=1, output=1, batch=1))
    assert e.value("decode_compute") == pytest.approx(
        (2 * 4e9 + 4 * 10 * 10 * 100 * 1.5) / 100e12 * 1000
    )


def test_flops_count_the_matmul_parameters_not_the_input_embedding() -> None:
    # A 1,000-word vocabulary x hidden 1,000 = 1M parameters looked up, not multiplied
    worded = ModelSpec("w", "W", 10, 10, 1000, 10, 2, 100, vocab=1000)
    assert worded.matmul_b == pytest.approx(9.999)
    e = estimate(setup(model=worded))
    # Prefill FLOPs: 2 x 9.999e9 x 1,000 + attention 2e10, at 100 TFLOPS
    assert e.value("prefill") == pytest.approx((2 * 9.999e9 * 1000 + 2e10) / 100e12 * 1000)
    one = estimate(setup(model=worded, batch=1, prompt=1, output=1))
    assert one.value("decode_compute") == pytest.approx(
        (2 * 9.999e9 + 4 * 10 * 10 * 100 * 1.5) / 100e12 * 1000
    )
    # The bytes read are unchanged: the whole table stays in memory, as the weights say
    assert one.value("weights") == pytest.approx(20)


# Multi-head latent attention: a 50-number latent and a 10-number RoPE key per layer and token.
MLA = ModelSpec(
    "toy-mla", "Toy MLA", params_b=10, layers=10, hidden=1000, heads=10, kv_heads=10,
    head_dim=100, kv_lora_rank=50, qk_rope_head_dim=10,
)  # fmt: skip


def test_latent_attention_caches_one_latent_and_rope_key_for_all_heads() -> None:
    e = estimate(setup(model=MLA, batch=4))
    # 10 layers x (50 + 10) numbers x 2 bytes = 1,200 bytes a token, whatever the heads
    assert e.value("kv_per_token") == 1200
    # Every TP GPU keeps the whole latent: at TP 2, 90 GB of room / (1,200 x 1,101) bytes
    two = estimate(setup(model=MLA, tp=2))
    assert two.value("max_batch") == int(90e9 // (1200 * 1101))
    # Decode attends over the latent: scores 60 numbers long, values 50, for each of 10 heads
    context = 1000 + 101 / 2
    attn = 2 * 10 * 10 * (60 + 50) * context * 4
    assert e.value("decode_compute") == pytest.approx((2 * 10e9 * 4 + attn) / 100e12 * 1000)
    # ... reading the whole latent cache on each GPU: 1,200 bytes x context x 4 sequences
    assert two.value("decode_memory") == pytest.approx(
        (20e9 / 2 + 1200 * context * 1) / 1000e9 * 1000
    )
    # Prefill uses full heads: 100 + 10 for the scores, 100 for the values
    prefill_flops = 2 * 10e9 * 1000 + 10 * 10 * (110 + 100) * 1000**2
    assert e.value("prefill") == pytest.approx(prefill_flops / 100e12 * 1000)


def test_every_figure_carries_its_formula_and_inputs() -> None:
    e = estimate(setup())
    for fig in e.figures.values():
        assert fig.formula and fig.inputs, fig.key
        assert all(name and value for name, value in fig.inputs), fig.key


def test_tpot_with_prefills_mixed_in_adds_each_steps_share_of_prefill() -> None:
    e = estimate(setup(batch=10))
    assert e.value("tpot_loaded") == pytest.approx(e.value("tpot") + 10 / 101 * e.value("prefill"))


def test_the_headline_throughput_has_each_requests_prefill_mixed_in() -> None:
    e = estimate(setup(batch=10))
    # Prefill 200.2 ms (compute-bound, as above); decode step at batch 10: memory-bound,
    # (20e9 + 10 x 8,000 x 1,050.5) / 1,000 GB/s = 20.084 ms.
    assert e.value("tpot") == pytest.approx(20.08404)
    # Each step carries 10 / 101 of a prefill: 20.084 + 19.822 = 39.906 ms a step
    assert e.value("tpot_loaded") == pytest.approx(20.08404 + 10 / 101 * 200.2)
    # 10 tokens a step: 250.6 tokens/s under load, against 497.9 from decode steps alone
    assert e.value("throughput") == pytest.approx(10 / 0.0399059, rel=1e-5)
    assert e.value("decode_throughput") == pytest.approx(10 / 0.02008404)
    # The cost follows the loaded throughput: $0.001 a second / 250.6 tokens/s
    assert e.value("cost") == pytest.approx(0.001 / (10 / 0.0399059) * 1e6, rel=1e-5)


def test_largest_batch_is_the_one_that_fills_the_room_for_kv() -> None:
    assert largest_batch(setup(batch=500)) == 9082  # 80 GB / 8.808 MB, as above
    assert estimate(setup(batch=largest_batch(setup()))).value("kv_batch") <= 80
    tiny = Assumptions(usable_memory=0.2000001)  # 20 GB: the weights fill it
    with pytest.raises(LabError, match="largest batch that fits is 0"):
        largest_batch(setup(assumptions=tiny))


def test_sweep_marks_batches_that_do_not_fit() -> None:
    points = sweep(setup(), [1, 9082, 9083])
    assert [b for b, e in points if e is None] == [9083]


def test_batch_ladder() -> None:
    assert next_batch(8, up=True) == 16
    assert next_batch(8, up=False) == 4
    assert next_batch(1, up=False) == 1
    assert next_batch(1024, up=True) == 2048
    assert next_batch(12, up=True) == 16


def test_every_forward_pass_pays_the_fixed_cost_once() -> None:
    from dataclasses import replace

    plain = estimate(setup(batch=4))
    fixed = estimate(setup(batch=4, assumptions=replace(IDEAL, step_overhead_us=500)))
    # 0.5 ms more on the prefill pass and on each decode step ...
    assert fixed.value("ttft") == pytest.approx(plain.value("ttft") + 0.5)
    assert fixed.value("tpot") == pytest.approx(plain.value("tpot") + 0.5)
    # ... and under load each step also carries batch / output = 4 / 101 prefill passes
    assert fixed.value("tpot_loaded") == pytest.approx(
        plain.value("tpot_loaded") + 0.5 * (1 + 4 / 101)
    )
    # 100 more decode steps after the first token
    assert fixed.value("e2e") == pytest.approx(plain.value("e2e") + 0.5e-3 * 101)
