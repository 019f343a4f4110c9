"""Independent formulas for the calculations of the interview-classics deck.

Each formula is written from the calculation's prompt and explanation, not copied from the
deck's `answer` expression; arguments are the calculation's `given` names.
"""

from __future__ import annotations

import math
from collections.abc import Callable

BYTES_PER_GB = 10**9
BYTES_PER_KIB = 1024
GPU_GB = 80


def _replicas(rate: float, conc: float, latency: float, spare: float) -> float:
    # Little's law per replica: rate = in flight / time in system, so the fleet must carry
    # rate * latency requests in flight, conc per replica, rounded up, plus the spare.
    needed = math.ceil(rate * latency / conc)
    return float(needed + spare)


def _kv_requests(
    util: float, weights: float, overhead: float, kv_kib: float, tokens: float
) -> float:
    # Bytes left for KV cache, over the bytes one request's token budget occupies.
    kv_bytes = (GPU_GB * util - weights - overhead) * BYTES_PER_GB
    per_request = kv_kib * BYTES_PER_KIB * tokens
    return float(math.floor(kv_bytes / per_request))


EXPECTED: dict[str, Callable[..., float]] = {
    # Replicas = ceil(target rate / (in flight / latency)) + spare replicas.
    "replicas-from-measured-concurrency": _replicas,
    # Largest n with base + n * slope(us) / 1000 <= limit, rounded down.
    "slo-batch-from-tpot-fit": lambda base, slope, limit: float(
        int((limit - base) * 1000) // int(slope)
    ),
    # floor((util * 80 GB - weights - runtime) / (KiB per token * 1024 * tokens per request)).
    "kv-limited-concurrency": _kv_requests,
}
