"""The estimate as plain text with its working, for `vocabgame lab` and the lab screen."""

from __future__ import annotations

from collections.abc import Mapping

from vocabgame.lab.errorbar import Nearest
from vocabgame.lab.model import LEFT_OUT, Estimate, fmt

SECTIONS: tuple[tuple[str, tuple[str, ...]], ...] = (
    (
        "Memory",
        (
            "weights",
            "weights_per_gpu",
            "kv_per_token",
            "kv_per_sequence",
            "kv_space",
            "kv_batch",
            "max_batch",
        ),
    ),
    ("Roofline", ("ops_byte", "ridge", "prefill_intensity", "decode_intensity", "knee")),
    ("Prefill", ("allreduce_prefill", "handoff_prefill", "prefill", "ttft")),
    (
        "Decode",
        (
            "decode_memory",
            "decode_compute",
            "allreduce_decode",
            "handoff_decode",
            "tpot",
            "tpot_loaded",
            "e2e",
        ),
    ),
    ("Throughput and cost", ("throughput", "decode_throughput", "user_speed", "cost")),
    # Last, so a dense single-GPU setup's list reads as before: they are 0 there.
    ("Experts and pipeline", ("alltoall_prefill", "alltoall_decode", "pipeline_bubble")),
)

HONESTY = (
    "An estimate from a roofline model, not a measurement. Left out: {left_out}. "
    "Its efficiencies are fitted to published measurements (docs/lab.md); each figure below "
    "names the nearest one and the lab's error on it."
)


def regime_line(estimate: Estimate) -> str:
    ridge = estimate.value("ridge")
    return (
        f"Prefill is {estimate.prefill_regime} (intensity {fmt(estimate.value('prefill_intensity'))} "
        f"FLOP/byte); decode is {estimate.decode_regime} (intensity "
        f"{fmt(estimate.value('decode_intensity'))} FLOP/byte); the ridge point is {fmt(ridge)}."
    )


def render(
    estimate: Estimate, working: bool = True, bars: Mapping[str, Nearest | None] | None = None
) -> str:
    """Every figure under its section; with `working`, each with its formula and inputs, the
    card that teaches it and, given `bars`, its nearest published measurement."""
    bars = bars or {}
    a = estimate.setup.assumptions
    lines = [
        estimate.setup.describe(),
        f"Assumptions: {fmt(a.bandwidth_efficiency * 100)}% of peak bandwidth, "
        f"{fmt(a.compute_efficiency * 100)}% of peak {estimate.math_precision.upper()} math, "
        f"{fmt(a.usable_memory * 100)}% of GPU memory usable, {fmt(a.link_efficiency * 100)}% "
        f"of the link's bandwidth and {fmt(a.allreduce_latency_us)} us per all-reduce, "
        f"{fmt(a.step_overhead_us)} us of fixed cost a forward pass, "
        f"${fmt(a.usd_per_gpu_hour)} per GPU-hour.",
        HONESTY.format(left_out=LEFT_OUT),
        regime_line(estimate),
    ]
    for title, keys in SECTIONS:
        lines += ["", title]
        for key in keys:
            fig = estimate[key]
            note = f"  ({fig.note})" if fig.note else ""
            lines.append(f"  {fig.label:<44} {fig.shown()}{note}")
            if working:
                lines.append(f"      = {fig.formula}")
                lines.append("        " + ", ".join(f"{k} {v}" for k, v in fig.inputs))
                if fig.card:
                    lines.append(f"        card: {fig.card}")
                if bar := bars.get(key):
                    lines.append(f"        measured: {bar.words()}")
    return "\n".join(lines)
