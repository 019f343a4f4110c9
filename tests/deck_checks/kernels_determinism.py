"""Independent formulas for the calculations of the kernels-determinism deck.

Each formula is written from the calculation's prompt: chunks of a fixed-size split-KV decode,
and the size of FlashMLA's FP8 KV cache.
"""

from __future__ import annotations

import math
from collections.abc import Callable

BYTES_PER_GIB = 2**30
FLASHMLA_FP8_BYTES_PER_TOKEN_LAYER = 512 + 16 + 128  # FP8 latent, four FP32 scales, BF16 RoPE part

EXPECTED: dict[str, Callable[..., float]] = {
    # A fixed chunk size: whole chunks needed to cover the sequence.
    "fixed-split-chunks": lambda split, tokens: float(math.ceil(tokens / split)),
    # Bytes per token per layer x layers x tokens, in GiB.
    "flashmla-fp8-cache": lambda layers, tokens: (
        FLASHMLA_FP8_BYTES_PER_TOKEN_LAYER * layers * tokens / BYTES_PER_GIB
    ),
}
