"""The load simulation against two papers, as docs/lab.md quotes it:
`python -m vocabgame.lab.load_compare` prints both tables (about half a minute).

Sarathi-Serve: chunked prefill's gain in capacity (the highest rate whose P99 gap between
tokens stays under an objective) over prefill-first, on its Mistral-7B and Yi-34B setups.
DistServe: goodput (requests a second meeting a TTFT and a TPOT objective) against the
arrival rate, beside raw throughput."""

from __future__ import annotations

from collections.abc import Callable

from vocabgame.lab.catalogue import load_catalogue
from vocabgame.lab.inputs import ModelSpec, Setup
from vocabgame.lab.load import LoadResult, Scheduler, Workload, capacity, simulate
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
# (model, TP, strict and relaxed P99-gap objectives in ms: ours), on A100 SXM 80GB.
SARATHI = ((MISTRAL_7B, 1, 100.0, 500.0), (YI_34B, 2, 200.0, 1000.0))
SARATHI_PAPER = {"mistral-7b": "2.6x", "yi-34b": "3.7x"}
PROMPT, OUTPUT = 1024, 256  # lognormal around these: our lengths, not the paper's traces
MAX_QUEUE_MS = 2000.0  # capacity also keeps the median queueing delay under 2 s (ours)
SCHEDULERS = (Scheduler(None, 128), Scheduler(512, 128), Scheduler(2048, 128))


def sarathi_setup(model: ModelSpec, tp: int) -> Setup:
    """The model at TP `tp` on the catalogue's A100 SXM 80GB, at the comparison's lengths."""
    gpu = load_catalogue().gpu("A100-SXM-80GB")
    assert gpu is not None
    return Setup(gpu, model, tp=tp, prompt=PROMPT, output=OUTPUT)


def tail_holds(gap_ms: float) -> Callable[[LoadResult], bool]:
    """Sarathi-Serve's kind of objective: the P99 gap under `gap_ms`, the queue not growing."""

    def holds(r: LoadResult) -> bool:
        return r.itl.p99 <= gap_ms and r.queue.p50 <= MAX_QUEUE_MS

    return holds


def sarathi_rows(requests: int = 300) -> list[str]:
    """docs/lab.md's Sarathi-Serve table, a row a setup and objective."""
    rows = []
    for model, tp, *objectives in SARATHI:
        setup = sarathi_setup(model, tp)
        for gap in objectives:
            caps = [
                capacity(setup, s, tail_holds(gap), requests, "lognormal", high=32)
                for s in SCHEDULERS
            ]
            rows.append(
                f"| {model.name}, TP {tp} | {fmt(gap)} ms | "
                + " | ".join(fmt(c) for c in caps)
                + f" | {fmt(caps[1] / caps[0])}x | {SARATHI_PAPER[model.id] if gap == objectives[0] else ''} |"
            )
    return rows


def distserve_rows(rates: tuple[float, ...] = (10, 20, 30, 40, 60)) -> list[str]:
    """docs/lab.md's DistServe table, a row a rate, then the rate 90% meet both objectives."""
    gpu, model = load_catalogue().gpu("H100-SXM"), load_catalogue().model("llama-3.1-8b")
    assert gpu is not None and model is not None
    setup = Setup(gpu, model, prompt=1000, output=200)
    rows = []
    for rate in rates:
        cells = [fmt(rate)]
        for sched in (Scheduler(None), Scheduler(512)):
            r = simulate(setup, Workload(rate, 1000, "lognormal"), sched)
            cells += [fmt(r.throughput), fmt(r.goodput), f"{r.attainment:.0%}"]
        rows.append("| " + " | ".join(cells) + " |")
    for sched in (Scheduler(None), Scheduler(512)):
        rate = capacity(setup, sched, lambda r: r.attainment >= 0.9, 1000, "lognormal", high=128)
        rows.append(f"90% meet both objectives up to {fmt(rate)} requests/s, {sched.name}")
    return rows


def main() -> int:
    print("Sarathi-Serve: capacity, requests/s (prefill-first, chunked 512, chunked 2,048)")
    print("\n".join(sarathi_rows()))
    print("\nDistServe: rate | prefill-first tokens/s, goodput, met | chunked 512 the same")
    print("\n".join(distserve_rows()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
