"""The traffic between a setup's GPUs: tensor parallelism's all-reduces and pipeline
parallelism's hand-offs, each timed on the GPU's link (NVLink, else PCIe)."""

from __future__ import annotations

from vocabgame.lab.inputs import GB, Setup

ALLREDUCES_PER_LAYER = 2  # Megatron-style TP: after attention's output and after the MLP
ACTIVATION_BYTES = 2.0  # activations cross the link in BF16 whatever the weights' precision


def allreduce_s(setup: Setup, tokens: float) -> float:
    """Seconds one forward pass over `tokens` tokens spends in tensor parallelism's
    all-reduces: two per layer, each a ring over the TP GPUs moving 2(n-1)/n of the
    activations (tokens x hidden x 2 bytes) each way at the link's achieved one-way
    bandwidth, plus a fixed latency per call. Zero at TP 1."""
    n = setup.tp
    if n == 1:
        return 0.0
    _, one_way_gbs = setup.gpu.link()
    a = setup.assumptions
    message = tokens * setup.model.hidden * ACTIVATION_BYTES
    wire = 2 * (n - 1) / n * message / (one_way_gbs * GB * a.link_efficiency)
    calls = ALLREDUCES_PER_LAYER * setup.model.layers
    return calls * (wire + a.allreduce_latency_us * 1e-6)


def handoffs_s(setup: Setup, tokens: float) -> float:
    """Seconds `tokens` tokens' activations spend passing between pipeline stages: PP - 1
    sends of tokens x hidden x 2 bytes, each at the link's achieved one-way bandwidth plus the
    same fixed latency as an all-reduce call. Zero at PP 1."""
    if setup.pp == 1:
        return 0.0
    _, one_way_gbs = setup.gpu.link()
    a = setup.assumptions
    message = tokens * setup.model.hidden * ACTIVATION_BYTES
    send = message / (one_way_gbs * GB * a.link_efficiency) + a.allreduce_latency_us * 1e-6
    return (setup.pp - 1) * send


ALLTOALLS_PER_MOE_LAYER = 2  # expert parallelism: dispatch to the experts, combine back


def alltoall_s(setup: Setup, tokens: float) -> float:
    """Seconds one forward pass over `tokens` tokens spends in expert parallelism's
    all-to-alls: two per MoE layer (dispatch and combine), each sending every token's
    `active_experts` routed copies (tokens x k x hidden x 2 bytes) of which (EP-1)/EP land on
    another GPU, at the link's achieved one-way bandwidth, plus the all-to-all's own fixed
    latency per call. Zero at EP 1. Every layer counts as an MoE layer."""
    n = setup.ep
    if n == 1:
        return 0.0
    _, one_way_gbs = setup.gpu.link()
    a = setup.assumptions
    m = setup.model
    message = tokens * m.active_experts * m.hidden * ACTIVATION_BYTES
    wire = (n - 1) / n * message / (one_way_gbs * GB * a.link_efficiency)
    calls = ALLTOALLS_PER_MOE_LAYER * m.layers
    return calls * (wire + a.alltoall_latency_us * 1e-6)


def bubble_fraction(pp: int, micro_batches: int) -> float:
    """The share of a pipelined run each stage sits idle (GPipe): M micro-batches pass P
    stages in M + P - 1 slots, and each stage works in M of them, so (P-1) / (M+P-1)."""
    return (pp - 1) / (micro_batches + pp - 1)
