"""Independent formulas for the calculations of the kv-tiers deck.

Each formula is written from the calculation's prompt: KV transfer time as a share of prefill
time, and how many tokens of KV a CPU tier of a given size holds.
"""

from __future__ import annotations

from collections.abc import Callable

BYTES_PER_KIB = 1024
BYTES_PER_GB = 1e9
PERCENT = 100
THOUSAND = 1000


def _transfer_share(tokens: float, rate: float, kv: float, bw: float) -> float:
    """Seconds on the link over seconds of prefill, as a percentage."""
    transfer_s = tokens * kv * BYTES_PER_KIB / (bw * BYTES_PER_GB)
    prefill_s = tokens / rate
    return transfer_s / prefill_s * PERCENT


EXPECTED: dict[str, Callable[..., float]] = {
    "transfer-share-of-prefill": _transfer_share,
    # Tier bytes over bytes per token, in thousands of tokens.
    "cpu-tier-capacity": lambda size, kv: size * BYTES_PER_GB / (kv * BYTES_PER_KIB) / THOUSAND,
}
