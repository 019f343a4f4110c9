"""Independent formulas for the calculations of the engines-tenancy deck.

Each formula is written from the calculation's prompt: a VTC counter under the artifact's
default prices, and the counter lift of a tenant returning from idle.
"""

from __future__ import annotations

from collections.abc import Callable

INPUT_PRICE = 1  # VTC artifact default, per prompt token
OUTPUT_PRICE = 2  # VTC artifact default, per generated token

EXPECTED: dict[str, Callable[..., float]] = {
    # Every request adds prompt x input price + output x output price.
    "vtc-counter": lambda requests, prompt, output: float(
        sum(prompt * INPUT_PRICE + output * OUTPUT_PRICE for _ in range(int(requests)))
    ),
    # Lifted to the lowest waiting counter unless already above it.
    "vtc-lift": lambda own, first, second: float(
        own if own >= min(first, second) else min(first, second)
    ),
}
