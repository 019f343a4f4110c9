"""The serving lab's load simulation: 1,000 requests in a few hundred milliseconds."""

from __future__ import annotations

from typing import Any

from benchmarks.measure import Row, median_time

FIGURES = (
    (
        "lab-load",
        "simulate 1,000 requests on the lab's default setup, chunked prefill: <= 500 ms",
    ),
)
REQUESTS = 1000


def lab_load(ctx: Any) -> list[Row]:
    from vocabgame.lab import Setup, estimate, load_catalogue
    from vocabgame.lab.load import Scheduler, Workload, simulate

    catalogue = load_catalogue([])
    gpu, model = catalogue.gpu("H100-SXM"), catalogue.model("llama-3.1-8b")
    assert gpu is not None and model is not None
    setup = Setup(gpu, model, prompt=1000, output=200)
    # 10 requests a second is near half the estimate's capacity: queues form but stay short.
    work = Workload(10, REQUESTS, "lognormal")
    ours = median_time(lambda: simulate(setup, work, Scheduler(512)), ctx.scale.runs)
    # The baseline: the roofline estimate of the same setup, once for every ten requests.
    base = median_time(lambda: [estimate(setup) for _ in range(REQUESTS // 10)], ctx.scale.runs)
    return [
        Row(
            "lab-load",
            f"simulate {REQUESTS:,} Poisson requests (8B on an H100, 10/s, 512-token chunks)",
            ours,
            "ms",
            base,
            f"{REQUESTS // 10:,} roofline estimates of the setup",
            max_value=500,
        )
    ]
