"""Independent formulas for the calculations of the serving-runtime deck.

Each formula is written from the calculation's prompt: inputs per TEI batch, tokens a
cross-encoder processes for one query, the gain from overlapping CPU and GPU work, and the
startup-probe threshold that covers loading plus warming.
"""

from __future__ import annotations

import math
from collections.abc import Callable

EXPECTED: dict[str, Callable[..., float]] = {
    # Unpadded backend: inputs join while the sum of their tokens stays within the budget.
    "tei-inputs-per-batch": lambda budget, tokens: float(math.floor(budget / tokens)),
    # Every (query, passage) pair carries the query again.
    "rerank-pair-tokens": lambda docs, doc_tokens, query_tokens: float(
        docs * query_tokens + docs * doc_tokens
    ),
    # Serial step = cpu + gpu; overlapped step = the longer of the two.
    "overlap-step-gain": lambda cpu, gpu: (cpu + gpu) / (gpu if gpu >= cpu else cpu),
    # failureThreshold x period must reach load time (GB / GB/s) plus warm-up seconds.
    "startup-failure-threshold": lambda weights_gb, disk_gbps, warm_s, period: float(
        math.ceil((weights_gb / disk_gbps + warm_s) / period)
    ),
}
