"""Independent formulas for the calculations of the estimates deck.

Each formula is written from the calculation's prompt and explanation (bytes over bandwidth,
FLOPs over FLOP/s, dollars over tokens), not copied from the deck's answer expression.
"""

from __future__ import annotations

import math
from collections.abc import Callable

GB = 1e9  # the prompts give weights in GB and bandwidth in GB/s, both 10^9 bytes
GIB = 2**30
KV_BYTES_LLAMA31_8B_BF16 = 2 * 32 * 8 * 128 * 2  # K and V x layers x KV heads x dim x 2 bytes
H100_BW = 3350 * GB
H100_BF16_DENSE = 989e12
H200_FP8_DENSE = 1979e12


def _per_second(bandwidth_bytes: float, bytes_per_step: float) -> float:
    """Steps per second when each step must read bytes_per_step at the given bandwidth."""
    return bandwidth_bytes / bytes_per_step


def _kv_heads_per_gpu(kv_heads: float, tp: float) -> int:
    """vLLM splits KV heads over TP ranks and keeps at least one head per GPU."""
    return max(1, int(kv_heads) // int(tp))


def _tokens_per_run(alpha: float, k: float) -> float:
    """Expected tokens from one speculative run: 1 + alpha + ... + alpha^k."""
    return sum(alpha**i for i in range(int(k) + 1))


EXPECTED: dict[str, Callable[..., float]] = {
    # One sequence at long context: each step reads weights plus the whole KV cache.
    "decode-ceiling-long-context": lambda ctx, gpu: _per_second(
        gpu * GB, 16 * GB + ctx * KV_BYTES_LLAMA31_8B_BF16
    ),
    # A batch shares one weight read per step; every sequence adds its own KV read.
    "batch-throughput-ceiling": lambda batch, ctx: (
        batch * _per_second(H100_BW, 16 * GB + batch * ctx * KV_BYTES_LLAMA31_8B_BF16)
    ),
    # Dollars per hour for the replica over millions of tokens it makes per hour.
    "cost-per-million-output": lambda gpus, price, tps: (gpus * price) / (tps * 3600 / 1e6),
    # Same, but only the busy fraction of each paid hour produces tokens.
    "cost-at-partial-load": lambda gpus, price, tps, busy: (
        (gpus * price) / (tps * busy * 3600 / 1e6)
    ),
    # MoE at batch 1: read only the activated parameters, over 8 x 4800 GB/s.
    "moe-decode-ceiling": lambda model, precision: _per_second(
        8 * 4800 * GB, model * 1e9 * precision
    ),
    # Per-GPU KV bytes per token = K and V x layers x local KV heads x 128 x 2 bytes, in KiB.
    "kv-per-gpu-tp": lambda layers, kv_heads, tp: (
        2 * layers * _kv_heads_per_gpu(kv_heads, tp) * 128 * 2 / 1024
    ),
    # Tokens that fit: the per-GPU budget over per-GPU bytes per token (every GPU holds a share).
    "kv-tokens-per-replica-tp": lambda tp, free: float(
        math.floor(free * GIB / (2 * 80 * _kv_heads_per_gpu(8, tp) * 128 * 2))
    ),
    # MBU = (weight bytes / TPOT) / peak bandwidth of all GPUs, as a percentage.
    "mbu-from-tpot": lambda gpus, tpot: 100 * (70 * GB / (tpot / 1000)) / (gpus * H100_BW),
    # MFU = achieved model FLOP/s (2 x params x tokens/s) / peak FLOP/s of all GPUs.
    "mfu-dense-70b": lambda gpus, tps: 100 * (2 * 70e9 * tps) / (gpus * H100_BF16_DENSE),
    # Smallest whole batch with 2 x batch / bytes-per-weight >= ops:byte ratio.
    "crossover-batch": lambda ridge, weights: float(math.ceil(ridge / (2 / weights))),
    # Time per token = plain TPOT x (target-step cost of one speculative run) / tokens it yields.
    "spec-effective-tpot": lambda tpot, k, alpha, c: tpot * (1 + c * k) / _tokens_per_run(alpha, k),
    # Break-even: the yield of a run equals its cost, 1 + c k, so c = (yield - 1) / k.
    "spec-break-even-cost": lambda k, alpha: (_tokens_per_run(alpha, k) - 1) / k,
    # Each GPU streams weights / tp bytes in parallel; time = bytes / per-GPU bandwidth, in ms.
    "tpot-floor-tp": lambda precision, tp: (precision * GB / tp) / H100_BW * 1000,
    # Prefill FLOPs = 2 x params x prompt tokens; time = FLOPs / achieved FLOP/s, in ms.
    "prefill-time": lambda params, prompt, achieved: (
        (2 * params * 1e9 * prompt) / (achieved * 1e15) * 1000
    ),
    # MoE MFU uses activated parameters: 2 x 37e9 x tokens/s over 8 x dense FP8 peak.
    "moe-mfu": lambda tps: 100 * (2 * 37e9 * tps) / (8 * H200_FP8_DENSE),
}
