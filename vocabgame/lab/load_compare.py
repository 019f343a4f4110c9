"""The load simulation against two papers, as docs/lab.md quotes it:
`python -m vocabgame.lab.load_compare` prints the tables (about a minute).

Sarathi-Serve: chunked prefill's gain in capacity (the highest rate whose P99 gap between
tokens stays under an objective) over prefill-first, on its Mistral-7B and Yi-34B setups.
DistServe: goodput (requests a second meeting a TTFT and a TPOT objective) against the
arrival rate, beside raw throughput; and the highest rate at which 90% of requests meet TTFT
alone, TPOT alone and both, by scheduler."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import replace

from vocabgame.lab.catalogue import load_catalogue
from vocabgame.lab.inputs import ModelSpec, Setup
from vocabgame.lab.load import LoadResult, Scheduler, Slo, Workload, capacity, simulate
from vocabgame.lab.model import fmt

# Sarathi-Serve's single-node models, their shapes from each model's config.json.
MISTRAL_7B = ModelSpec(
    "mistral-7b", "Mistral 7B", params_b=7.24, layers=32, hidden=4096, heads=32, kv_heads=8,
    head_dim=128, vocab=32000,
)  # fmt: skip
YI_34B = ModelSpec(
    "yi-34b", "Yi 34B", params_b=34.39, layers=60, hidden=7168, heads=56, kv_heads=8,
    head_dim=128, vocab=64000,
)  # fmt: skip
# DistServe's figure (its blog post, Figure 6a: "a 13B LLM on a single A100-80GB GPU", 512 in,
# 64 out, P90 TTFT 0.4 s and P90 TPOT 0.04 s): OPT-13B's shape from its config.json.
OPT_13B = ModelSpec(
    "opt-13b", "OPT 13B", params_b=12.85, layers=40, hidden=5120, heads=40, kv_heads=40,
    head_dim=128, vocab=50272,
)  # fmt: skip
DISTSERVE_FIGURE = "13B (OPT-13B's shape), 1 A100"
# Sarathi-Serve's artifact (microsoft/sarathi-serve, osdi-experiments/figure-5-6): the P99
# time-between-tokens objectives of its capacity search, strict and relaxed, in ms, with the
# token budget Sarathi-Serve runs at each (512 strict, 2,048 relaxed), on A100 80GB PCIe GPUs.
SARATHI = (
    (MISTRAL_7B, 1, ((100.0, 512), (500.0, 2048))),
    (YI_34B, 2, ((200.0, 512), (1000.0, 2048))),
)
SARATHI_PAPER = {"mistral-7b": "2.6x", "yi-34b": "3.7x"}  # "up to", strict objective, vs vLLM
# openchat_sharegpt4 as the artifact's trace gives it (sharegpt_8k_filtered_stats_llama2_
# tokenizer.csv, 30,731 requests, each at most 8,192 tokens): median and P90 of the prompt and
# of the reply, and the longest reply, in tokens.
PROMPT_MEDIAN, PROMPT_P90 = 1730, 5696
OUTPUT_MEDIAN, OUTPUT_P90, OUTPUT_MAX = 415, 834, 1024
MAX_SEQ_LEN = 8192  # the trace's filter, and vLLM's cap on a prefill pass (its max_model_len)
MAX_BATCH = 128  # the artifact's batch_size for vLLM and Sarathi-Serve alike
MAX_QUEUE_MS = 2000.0  # capacity also keeps the median scheduling delay under 2 s (its default)
# A100 80GB PCIe (the same datasheet's PCIe column): 1,935 GB/s, the SXM part's math and NVLink.
A100_PCIE_GBS = 1935


def through_quantiles(rng: random.Random, median: int, p90: int, top: int) -> int:
    """A length uniform over 1 to `median` half the time, `median` to `p90` four tenths of it
    and `p90` to `top` the last tenth: its median and P90 are the given ones."""
    u = rng.random()
    if u < 0.5:
        return max(1, round(median * u / 0.5))
    if u < 0.9:
        return round(median + (p90 - median) * (u - 0.5) / 0.4)
    return round(p90 + (top - p90) * (u - 0.9) / 0.1)


def sharegpt4_lengths(n: int, seed: int = 0) -> tuple[tuple[int, int], ...]:
    """`n` (prompt, output) pairs with openchat_sharegpt4's median and P90 of each, drawn
    independently, the prompt's longest tenth up to what the reply leaves of MAX_SEQ_LEN; the
    same seed, the same pairs."""
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        o = through_quantiles(rng, OUTPUT_MEDIAN, OUTPUT_P90, OUTPUT_MAX)
        out.append((through_quantiles(rng, PROMPT_MEDIAN, PROMPT_P90, MAX_SEQ_LEN - o), o))
    return tuple(out)


def sarathi_setup(model: ModelSpec, tp: int) -> Setup:
    """The model at TP `tp` on A100 80GB PCIe GPUs (the catalogue's A100 at the PCIe part's
    bandwidth), at the trace's median lengths (the simulation draws its own)."""
    gpu = load_catalogue().gpu("A100-SXM-80GB")
    assert gpu is not None
    pcie = replace(gpu, id="A100-PCIe-80GB", name="A100 PCIe 80GB", bandwidth_gbs=A100_PCIE_GBS)
    return Setup(pcie, model, tp=tp, prompt=PROMPT_MEDIAN, output=OUTPUT_MEDIAN)


def tail_holds(gap_ms: float) -> Callable[[LoadResult], bool]:
    """Sarathi-Serve's capacity condition: the P99 gap between tokens under `gap_ms` and the
    median scheduling delay (arrival to first pass) under 2 s."""

    def holds(r: LoadResult) -> bool:
        return r.itl.p99 <= gap_ms and r.queue.p50 <= MAX_QUEUE_MS

    return holds


def vllm() -> Scheduler:
    """The paper's vLLM baseline: prefill-first, 128 sequences, a prefill pass of at most
    MAX_SEQ_LEN prompt tokens."""
    return Scheduler(None, MAX_BATCH, prefill_tokens=MAX_SEQ_LEN)


def sarathi_capacities(
    model: ModelSpec, tp: int, gap_ms: float, budget: int, requests: int = 300
) -> tuple[float, float]:
    """Capacity (requests a second) of vLLM and of Sarathi-Serve at `budget` tokens a pass
    under a P99 gap of `gap_ms`, on openchat_sharegpt4-like lengths."""
    setup, lengths = sarathi_setup(model, tp), sharegpt4_lengths(requests)
    holds = tail_holds(gap_ms)
    first = capacity(setup, vllm(), holds, requests, high=16, lengths=lengths)
    chunked = capacity(
        setup, Scheduler(budget, MAX_BATCH), holds, requests, high=16, lengths=lengths
    )
    return first, chunked


def sarathi_rows(requests: int = 300) -> list[str]:
    """docs/lab.md's Sarathi-Serve table, a row a setup and objective."""
    rows = []
    for model, tp, objectives in SARATHI:
        for i, (gap, budget) in enumerate(objectives):
            first, chunked = sarathi_capacities(model, tp, gap, budget, requests)
            paper = SARATHI_PAPER[model.id] if i == 0 else ""
            rows.append(
                f"| {model.name}, TP {tp} | {fmt(gap)} ms | {fmt(first)} | {budget:,} | "
                f"{fmt(chunked)} | {fmt(chunked / first)}x | {paper} |"
            )
    return rows


def llama_8b_setup() -> Setup:
    """Llama 3.1 8B on one H100 SXM at 1,000 / 200 tokens (drawn lognormal around them)."""
    gpu, model = load_catalogue().gpu("H100-SXM"), load_catalogue().model("llama-3.1-8b")
    assert gpu is not None and model is not None
    return Setup(gpu, model, prompt=1000, output=200)


def opt_13b_setup() -> Setup:
    """DistServe's figure: a 13B model (OPT-13B's shape) on one A100 80GB, 512 / 64 tokens."""
    gpu = load_catalogue().gpu("A100-SXM-80GB")
    assert gpu is not None
    return Setup(gpu, OPT_13B, prompt=512, output=64)


def distserve_rows(rates: tuple[float, ...] = (10, 20, 30, 40, 60)) -> list[str]:
    """docs/lab.md's DistServe table, a row a rate, then the rate 90% meet both objectives."""
    setup = llama_8b_setup()
    rows = []
    for rate in rates:
        cells = [fmt(rate)]
        for sched in (Scheduler(None), Scheduler(512)):
            r = simulate(setup, Workload(rate, 1000, "lognormal"), sched)
            cells += [fmt(r.throughput), fmt(r.goodput), f"{r.attainment:.0%}"]
        rows.append("| " + " | ".join(cells) + " |")
    return rows


def goodput_rates(
    setup: Setup, sched: Scheduler, slo: Slo, spread: str, requests: int = 1000, high: float = 128
) -> tuple[float, float, float]:
    """DistServe's framing: the highest rate at which 90% of requests meet the TTFT objective
    alone, the TPOT objective alone, and both (the goodput); `high` when the search's top holds."""

    def rate(holds: Callable[[LoadResult], bool]) -> float:
        return capacity(setup, sched, holds, requests, spread, high=high, slo=slo)

    return (
        rate(lambda r: r.ttft.p90 <= slo.ttft_ms),
        rate(lambda r: r.tpot.p90 <= slo.tpot_ms),
        rate(lambda r: r.attainment >= 0.9),
    )


def goodput_rows() -> list[str]:
    """docs/lab.md's goodput tables: a row a scheduler on each setup."""
    rows = []
    for name, setup, slo, spread, chunks, high in (
        (DISTSERVE_FIGURE, opt_13b_setup(), Slo(400, 40), "fixed", (256, 512, 1024, 2048), 64.0),
        (
            "Llama 3.1 8B, 1 H100",
            llama_8b_setup(),
            Slo(),
            "lognormal",
            (512, 1024, 2048, 4096),
            128.0,
        ),
    ):
        rows.append(f"{name}: TTFT <= {fmt(slo.ttft_ms)} ms, TPOT <= {fmt(slo.tpot_ms)} ms")
        for sched in (Scheduler(None), *(Scheduler(c) for c in chunks)):
            cells = (fmt(x) for x in goodput_rates(setup, sched, slo, spread, high=high))
            rows.append(f"| {sched.name} | " + " | ".join(cells) + " |")
    return rows


def main() -> int:
    print("Sarathi-Serve: setup | P99 gap | vLLM req/s | budget | Sarathi-Serve req/s | gain")
    print("\n".join(sarathi_rows()))
    print("\nDistServe: rate | prefill-first tokens/s, goodput, met | chunked 512 the same")
    print("\n".join(distserve_rows()))
    print("\nDistServe: scheduler | 90% meet TTFT up to | TPOT up to | both (goodput), req/s")
    print("\n".join(goodput_rows()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
