"""Independent formulas for the calculations of the parallelism-runtime deck.

Each formula is written from the calculation's prompt and explanation, not copied from the
deck's `answer` expression; argument names are the calculation's `given` names.
"""

from __future__ import annotations

from collections.abc import Callable

BF16_BYTES = 2
ALL_REDUCES_PER_LAYER = 2  # Megatron-LM: one after attention, one after the MLP (forward pass)

EXPECTED: dict[str, Callable[..., float]] = {
    # Two all-reduces per layer, each over one hidden-size BF16 vector per token, in KiB.
    "tp-allreduce-per-layer": lambda hidden, tokens: (
        ALL_REDUCES_PER_LAYER * (tokens * hidden * BF16_BYTES) / 1024
    ),
    # Idle slots (stages - 1) out of all slots (micro + stages - 1), as a percentage.
    "pipeline-bubble-fraction": lambda stages, micro: (stages - 1) / ((stages - 1) + micro) * 100,
    # Copies per KV head: GPUs per head under TP, divided by the DCP sharding of its tokens.
    "kv-copies-with-dcp": lambda kv_heads, tp, dcp: (tp / kv_heads) / dcp,
}
