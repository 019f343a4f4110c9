"""The estimate's figures for expert parallelism's all-to-alls and the pipeline bubble, kept
apart from vocabgame.lab.model, which calls them. Both are zero at EP 1 and PP 1."""

from __future__ import annotations

from collections.abc import Callable

from vocabgame.lab.inputs import LabError, Setup
from vocabgame.lab.links import ALLTOALLS_PER_MOE_LAYER, alltoall_s, bubble_fraction

Put = Callable[..., float]  # model.estimate's `put`: adds a figure, returns its value

A2A_FORMULA = (
    "2 x layers x ((EP-1)/EP x {tokens} x experts per token x hidden x 2 bytes / (link one "
    "way x link efficiency) + latency per call); none at EP 1"
)


def check_parallel(setup: Setup) -> None:
    """Raise LabError for an expert-parallel or micro-batch setting that makes no sense."""
    m = setup.model
    if setup.ep < 1 or setup.micro_batches < 0:
        raise LabError(
            f"ep must be at least 1 and micro-batches 0 or more, not {setup.ep} and "
            f"{setup.micro_batches}"
        )
    if setup.micro_batches > setup.batch:
        raise LabError(
            f"a batch of {setup.batch} cannot be cut into {setup.micro_batches} micro-batches; "
            f"choose at most {setup.batch}"
        )
    if setup.ep > 1 and not m.is_moe:
        raise LabError(f"{m.name} has no experts to split; leave --ep at 1 for a dense model")
    if setup.ep > 1 and (setup.tp % setup.ep or m.experts % setup.ep):
        raise LabError(
            f"expert parallelism of {setup.ep} must divide both TP ({setup.tp}: the experts "
            f"are split over the TP GPUs) and {m.name}'s {m.experts} experts"
        )


def micro_batches(setup: Setup) -> int:
    """The micro-batches a batch is cut into under PP: as given, else min(batch, PP)."""
    return setup.micro_batches or min(setup.batch, setup.pp)


def parallel_figures(put: Put, setup: Setup, micro: float) -> tuple[float, float]:
    """Put the all-to-all figures of a prefill and of a decode step (over `micro` sequences)
    and the pipeline bubble; return the two all-to-alls in seconds."""
    s, m, a = setup, setup.model, setup.assumptions
    link_name, one_way = s.gpu.link()
    inputs = (
        ("layers x all-to-alls per layer", f"{m.layers} x {ALLTOALLS_PER_MOE_LAYER}"),
        ("experts per token", str(m.active_experts)),
        ("hidden size", str(m.hidden)),
        ("EP", str(s.ep)),
        (
            f"{link_name or 'link'} one way x link efficiency",
            f"{one_way:g} GB/s x {a.link_efficiency:g}",
        ),
        ("latency per all-to-all", f"{a.alltoall_latency_us:g} us"),
    )
    prefill = put(
        "alltoall_prefill",
        "Prefill all-to-alls (EP)",
        alltoall_s(s, s.prompt) * 1000,
        "ms",
        A2A_FORMULA.format(tokens="prompt"),
        ("prompt", f"{s.prompt} tokens"),
        *inputs,
    )
    decode = put(
        "alltoall_decode",
        "Decode step all-to-alls (EP)",
        alltoall_s(s, micro) * 1000,
        "ms",
        A2A_FORMULA.format(tokens="batch" if s.pp == 1 else "batch / PP"),
        ("tokens", f"{micro:g} tokens"),
        *inputs,
    )
    mb = micro_batches(s)
    put(
        "pipeline_bubble",
        "Pipeline bubble of one pass of the batch",
        100 * bubble_fraction(s.pp, mb),
        "%",
        "(PP - 1) / (micro-batches + PP - 1) (GPipe: the stages fill, then drain); continuous "
        "decoding keeps the stages full, so TPOT does not pay it; none at PP 1",
        ("PP", str(s.pp)),
        ("micro-batches", str(mb)),
    )
    return prefill / 1000, decode / 1000
