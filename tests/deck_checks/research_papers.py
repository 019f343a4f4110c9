"""Independent formulas for the calculations of the research-papers deck.

Each formula is written from the calculation's prompt and the paper it cites, not copied from the
deck's expression; argument names are the calculation's `given` names.
"""

from __future__ import annotations

import math
from collections.abc import Callable


def _expected_tokens(a: float, k: float) -> float:
    """Sum of a**i for i = 0..k: one token always, one more for each accepted draft in a row."""
    return sum(a**i for i in range(int(k) + 1))


EXPECTED: dict[str, Callable[..., float]] = {
    # Leviathan et al. Eq. 1: capped geometric count, 1 + a + ... + a^k tokens per target run.
    "expected-tokens-leviathan": lambda k, a: _expected_tokens(a, k),
    # Whole blocks needed, minus the tokens they hold: the empty tail of the last block.
    "last-block-empty-slots": lambda block, tokens: float(
        math.ceil(tokens / block) * block - tokens
    ),
    # smooth.py: act_max^alpha / w_max^(1 - alpha), written with exp/log to stay independent.
    "smoothing-factor": lambda act, w, alpha: math.exp(
        alpha * math.log(act) - (1 - alpha) * math.log(w)
    ),
    # DistServe: maximum SLO-meeting rate divided by every GPU of the deployment.
    "goodput-per-gpu": lambda prefill, decode, rate: rate / (decode + prefill),
}
