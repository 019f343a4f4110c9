"""Independent formulas for the calculations of the newer-techniques deck.

Each formula is written from the calculation's prompt: KV transfer time between prefill and
decode GPUs, average bits per element of a block-scaled format, and how many times more KV
cache elements per token MHA needs than MLA.
"""

from __future__ import annotations

from collections.abc import Callable

BYTES_PER_KIB = 1024
BYTES_PER_GB = 1e9
MS_PER_S = 1000
SCALE_BITS = 8

EXPECTED: dict[str, Callable[..., float]] = {
    # Transfer time in ms = (prompt tokens x KiB per token in bytes) / (GB/s in bytes/s), x 1000.
    "kv-transfer-time": lambda tokens, kv, bw: (
        (tokens * (kv * BYTES_PER_KIB)) / (bw * BYTES_PER_GB) * MS_PER_S
    ),
    # Bits per element = (elements x element bits + one 8-bit scale) / elements in the block.
    "block-scaled-bits": lambda elem, block: (block * elem + SCALE_BITS) / block,
    # MHA caches K and V per head (2 x heads x dim); MLA caches latent + decoupled key.
    "mha-vs-mla-elements": lambda dc, dr, heads, dh: (heads * dh * 2) / (dr + dc),
}
