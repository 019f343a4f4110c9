"""Independent formulas for the calculations of the model-architectures deck.

Each formula is written from the calculation's prompt: tokens from ViT patches, tokens after a
2 x 2 patch merge, how many times more values an attention layer's KV cache holds than a Mamba
layer's state, a hybrid model's KV cache in GiB, and the KV share of a local-global model.
"""

from __future__ import annotations

from collections.abc import Callable

GIB = 1024**3
MAMBA_EXPAND = 2
MAMBA_STATE = 16
MAMBA_CONV = 4
HEAD_DIM = 128
KV_HEADS = 8
BF16_BYTES = 2


def _kv_share(glob: float, loc: float, w: float, ctx: float) -> float:
    kept = glob * ctx + loc * (w if w < ctx else ctx)
    return 100 * kept / ((glob + loc) * ctx)


EXPECTED: dict[str, Callable[..., float]] = {
    # Rows of patches times columns of patches.
    "vit-patch-tokens": lambda p, h, w: (h // p) * (w // p) * 1.0,
    # Patch 14 with a 2 x 2 merge: one token per 28 x 28 pixels.
    "merged-image-tokens": lambda h, w: (h // 28) * (w // 28) * 1.0,
    # KV values (2 x heads x dim per token) over state values (inner width x (state + conv)).
    "kv-vs-mamba-state": lambda kv_heads, d_model, ctx: (
        ctx * 2 * kv_heads * HEAD_DIM / (MAMBA_EXPAND * d_model * (MAMBA_STATE + MAMBA_CONV))
    ),
    # Bytes per token per attention layer = K and V x heads x dim x 2 bytes.
    "hybrid-kv-gib": lambda attn, ctx: attn * ctx * (2 * KV_HEADS * HEAD_DIM * BF16_BYTES) / GIB,
    # Global layers keep every token, local ones at most the window.
    "local-global-kv-share": _kv_share,
}
