"""Predict-then-reveal challenges on a loaded server: the same setup serves two loads (twice
the arrival rate near the knee, or chunked prefill instead of prefill-first), and the player
predicts which way a tail figure moves. The simulation of vocabgame.lab.load gives the answer."""

from __future__ import annotations

import random
from dataclasses import replace

from vocabgame.lab.asked import LOAD_ASKED
from vocabgame.lab.catalogue import Catalogue
from vocabgame.lab.challenge import Ask, Challenge, direction
from vocabgame.lab.load import (
    KNEE_CHUNK,
    MAX_SEQS,
    LoadResult,
    Scheduler,
    Workload,
    knee_rates,
    simulate,
)
from vocabgame.lab.model import LabError, Setup, estimate, fmt, largest_batch

REQUESTS = 250  # a few tenths of a second a simulation: a challenge runs two
NEAR_KNEE = 0.75  # the first load: this share of the estimate's capacity; then twice it
CHUNKED_AT = 0.6  # the share both schedulers serve in the chunked-prefill challenge

LABELS = {
    "ttft_p99": ("TTFT p99", lambda r: r.ttft.p99),
    "tpot_p99": ("TPOT p99", lambda r: r.tpot.p99),
    "itl_p99": ("Gap between tokens (ITL) p99", lambda r: r.itl.p99),
    "itl_p50": ("Gap between tokens (ITL) p50", lambda r: r.itl.p50),
}
# The card that teaches what each challenge shows.
CARDS = {
    "rate": "latency-throughput/tail-latency",
    "chunked": "batching-scheduling/chunked-prefill",
}


def _asks(kind: str, before: LoadResult, after: LoadResult) -> tuple[Ask, ...]:
    out = []
    for key in LOAD_ASKED[kind]:
        label, read = LABELS[key]
        b, a = read(before), read(after)
        out.append(Ask(key, label, b, a, "ms", direction(b, a)))
    return tuple(out)


def _why_rate(before: LoadResult, after: LoadResult) -> str:
    b, a = before.queue, after.queue
    return (
        f"Near the knee the queue, not the GPU, sets the tail. A queue's wait grows as "
        f"load / (1 - load) (M/D/1: rho S / 2(1 - rho)), so it climbs slowly at low load and "
        f"without bound as arrivals near the service rate; past it the queue grows for as long "
        f"as the burst lasts. The mean queueing delay went from {fmt(b.mean)} to {fmt(a.mean)} "
        f"ms (p99 {fmt(b.p99)} to {fmt(a.p99)} ms); goodput from {fmt(before.goodput)} to "
        f"{fmt(after.goodput)} requests/s meeting TTFT <= {fmt(before.slo.ttft_ms)} ms and "
        f"TPOT <= {fmt(before.slo.tpot_ms)} ms. A bigger batch in the running set also "
        f"slows every decode step, so TPOT rises less than TTFT."
    )


def _why_chunked(before: LoadResult, after: LoadResult) -> str:
    return (
        f"Prefill-first runs each new prompt as a pass of its own and every decoding sequence "
        f"waits it out: those gaps are the tail. Chunked prefill puts every decode in every "
        f"pass and fills the rest of a {KNEE_CHUNK}-token budget with pieces of prompts, so no "
        f"gap is longer than one such pass; the typical gap, a plain decode step, barely "
        f"moves. The price is TTFT: p50 {fmt(before.ttft.p50)} -> {fmt(after.ttft.p50)} ms, "
        f"a prompt now takes several passes."
    )


def draw_setup(catalogue: Catalogue, rng: random.Random) -> Setup:
    """A GPU, a model, precisions and lengths from `rng`, at the smallest TP that fits."""
    gpus = sorted(catalogue.gpus.values(), key=lambda g: g.id)
    models = sorted(catalogue.models.values(), key=lambda m: m.id)
    if not gpus or not models:
        raise LabError("the catalogue has no GPUs or no models to build a challenge on")
    for _ in range(200):
        base = Setup(
            rng.choice(gpus),
            rng.choice(models),
            weights=rng.choice(("bf16", "fp8")),
            kv="fp8",
            prompt=rng.choice((500, 1000, 2000)),
            output=rng.choice((100, 200, 400)),
        )
        for tp in (1, 2, 4, 8):
            try:
                setup = replace(base, tp=tp)
                estimate(setup)
                return setup
            except LabError:
                continue
    raise LabError("no setup in the catalogue fits for this challenge")


def make_load_challenge(catalogue: Catalogue, seed: int, kind: str) -> Challenge:
    """A challenge on a setup drawn with `seed` serving two loads: `rate` (a Poisson load at
    0.75 of the estimate's capacity, then twice that) or `chunked` (prefill-first, then
    chunked prefill, at 0.6 of it). The same seed gives the same challenge."""
    if kind not in LOAD_ASKED:
        raise LabError(f"unknown load challenge {kind!r}; choose {' or '.join(LOAD_ASKED)}")
    rng = random.Random(seed)
    setup = draw_setup(catalogue, rng)
    sim_seed = rng.randrange(1 << 30)
    if kind == "rate":
        (rate,) = knee_rates(setup, (NEAR_KNEE,))
        first = simulate(setup, Workload(rate, REQUESTS, seed=sim_seed))
        second = simulate(setup, Workload(2 * rate, REQUESTS, seed=sim_seed))
        words = (
            f"Requests arrive twice as fast, {fmt(rate)} -> {fmt(2 * rate)} a second "
            f"(Poisson, near the estimate's capacity of {fmt(rate / NEAR_KNEE)})"
        )
        why = _why_rate(first, second)
    else:
        (rate,) = knee_rates(setup, (CHUNKED_AT,))
        work = Workload(rate, REQUESTS, seed=sim_seed)
        first = simulate(setup, work)
        second = simulate(setup, work, Scheduler(KNEE_CHUNK))
        words = (
            f"At {fmt(rate)} requests a second (Poisson), the server switches from "
            f"prefill-first to chunked prefill ({KNEE_CHUNK} tokens a pass)"
        )
        why = _why_chunked(first, second)
    # The estimate beside it at the most sequences the server runs at once, as the load does.
    e = estimate(setup.with_batch(min(largest_batch(setup), MAX_SEQS)))
    reason = f"{why} Card: {CARDS[kind]}. (Simulated: {REQUESTS} requests a load.)"
    return Challenge(kind, words, e, e, _asks(kind, first, second), reason)
