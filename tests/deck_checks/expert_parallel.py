"""Independent formulas for the calculations of the expert-parallel deck.

Each formula is written from the calculation's prompt: bytes one token sends through an MoE
layer's dispatch and combine, and the time one layer's dispatch takes on a given link.
"""

from __future__ import annotations

from collections.abc import Callable

BYTES_PER_KIB = 1024
COMBINE_BYTES = 2  # BF16
DEEPSEEK_V3_HIDDEN = 7168
DEEPSEEK_V3_TOP_K = 8
FP8_BYTES = 1
US_PER_S = 1e6

EXPECTED: dict[str, Callable[..., float]] = {
    # Every routed copy carries one hidden-size vector out (dispatch) and one back (combine).
    "a2a-bytes-per-token": lambda hidden, topk, dispatch: (
        (topk * hidden * dispatch + topk * hidden * COMBINE_BYTES) / BYTES_PER_KIB
    ),
    # Bytes leaving the rank over the link's bytes per second, in microseconds.
    "dispatch-time-per-layer": lambda tokens, bw: (
        tokens * DEEPSEEK_V3_HIDDEN * DEEPSEEK_V3_TOP_K * FP8_BYTES / (bw * 1e9) * US_PER_S
    ),
}
