"""Independent formulas for the calculations of the drafters deck.

Each formula is written from the calculation's prompt: tokens the target verifies per step for
a batch of chain drafts, and target passes for a reply drafted one MTP token at a time.
"""

from __future__ import annotations

from collections.abc import Callable

EXPECTED: dict[str, Callable[..., float]] = {
    # A chain of `steps` drafts plus the position of the target's own token, for every request.
    "chain-verify-tokens": lambda steps, batch: float(steps * batch + batch),
    # Expected tokens per pass: the target's own plus the draft accepted with probability p.
    "mtp-target-passes": lambda p, n: n / (p + 1),
}
