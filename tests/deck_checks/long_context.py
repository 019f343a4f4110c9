"""Independent formulas for the calculations of the long-context deck.

Each formula is written from the calculation's prompt: the RoPE scale factor from two lengths,
the KV cache of one long request, and YaRN's recommended attention scaling.
"""

from __future__ import annotations

import math
from collections.abc import Callable

KIB_PER_GIB = 1024 * 1024

EXPECTED: dict[str, Callable[..., float]] = {
    # s = L' / L: the length to serve over the length trained on.
    "rope-scale-factor": lambda trained, target: target / trained,
    # KiB per token x tokens, in GiB.
    "kv-long-request": lambda model, tokens: model * tokens / KIB_PER_GIB,
    # sqrt(1/t) = 0.1 ln(s) + 1 (YaRN, eq. 22).
    "yarn-temperature": lambda s: 0.1 * math.log(s) + 1,
}
