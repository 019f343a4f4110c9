"""Predict-then-reveal challenges on how a setup's GPUs are split: two GPUs as one TP 2
server or as two replicas at the same load (simulated), and an MoE's experts split over its
TP GPUs (expert parallelism), whose all-to-alls the roofline times. Each names its card."""

from __future__ import annotations

import random
from dataclasses import replace

from vocabgame.lab.asked import PARALLEL_ASKED
from vocabgame.lab.catalogue import Catalogue
from vocabgame.lab.challenge import Ask, Challenge, asks_between, direction, where_the_time_goes
from vocabgame.lab.load import MAX_SEQS, LoadResult, Workload, knee_rates, simulate
from vocabgame.lab.load_challenge import LABELS, REQUESTS, draw_setup
from vocabgame.lab.model import Estimate, LabError, Setup, estimate, fmt, largest_batch

REPLICA_LOAD = 0.7  # each replica's share of its own estimated capacity
# The card that teaches what each challenge shows.
CARDS = {
    "replicas": "scaling-capacity/data-parallelism",
    "alltoall": "expert-parallel/a2a-bytes-per-token",
}


def _loaded_estimate(setup: Setup) -> Estimate:
    """The estimate at the most sequences the simulated server runs at once."""
    return estimate(setup.with_batch(min(largest_batch(setup), MAX_SEQS)))


def _replica_setup(catalogue: Catalogue, rng: random.Random) -> Setup:
    """A drawn setup that fits on one GPU and can also run at TP 2."""
    for _ in range(200):
        one = draw_setup(catalogue, rng)
        if one.tp != 1:
            continue
        try:
            estimate(replace(one, tp=2))
        except LabError:
            continue
        return one
    raise LabError("no setup in the catalogue fits on one GPU for this challenge")


def _why_replicas(one: LoadResult, tp2: LoadResult, rate: float) -> str:
    return (
        f"Both ways the load is {fmt(rate)} requests a second on two GPUs. Two replicas each "
        f"take half of it on one GPU, so every step reads all the weights on one GPU. TP 2 "
        f"splits each step's reads and math over both, so a step of the same batch takes "
        f"about half as long (less: every layer now pays two all-reduces); but its one batch "
        f"holds both halves of the load, about twice the sequences a step. While decode is "
        f"memory-bound on the weights that costs little; where the KV reads, the math or the "
        f"all-reduces' fixed cost weigh more, TPOT gains less or loses. One queue in front of "
        f"a server twice as fast waits less than two in front of servers half as fast "
        f"(pooling), so TTFT gains most. TPOT p50 {fmt(one.tpot.p50)} -> {fmt(tp2.tpot.p50)} ms; TTFT p50 "
        f"{fmt(one.ttft.p50)} -> {fmt(tp2.ttft.p50)} ms; mean queue wait {fmt(one.queue.mean)}"
        f" -> {fmt(tp2.queue.mean)} ms. Replicas win on what this leaves out: no all-reduce, "
        f"one failing GPU takes down half the service, not all of it."
    )


def _replicas(catalogue: Catalogue, rng: random.Random) -> Challenge:
    one = _replica_setup(catalogue, rng)
    two = replace(one, tp=2)
    sim_seed = rng.randrange(1 << 30)
    (per_replica,) = knee_rates(one, (REPLICA_LOAD,))
    rate = 2 * per_replica
    # Poisson arrivals split at random stay Poisson: one replica stands for both.
    replica = simulate(one, Workload(per_replica, REQUESTS, seed=sim_seed))
    tp2 = simulate(two, Workload(rate, REQUESTS, seed=sim_seed))
    asks = []
    for key in PARALLEL_ASKED["replicas"]:
        label, read = LABELS[key]
        b, a = read(replica), read(tp2)
        asks.append(Ask(key, label, b, a, "ms", direction(b, a)))
    words = (
        f"At {fmt(rate)} requests a second (Poisson), two GPUs serve as one TP 2 server "
        f"instead of two replicas of one GPU each taking half the requests"
    )
    reason = (
        f"{_why_replicas(replica, tp2, rate)} Card: {CARDS['replicas']}. "
        f"(Simulated: {REQUESTS} requests a load.)"
    )
    return Challenge(
        "replicas", words, _loaded_estimate(one), _loaded_estimate(two), tuple(asks), reason
    )


def _moe_setup(catalogue: Catalogue, rng: random.Random) -> Setup:
    """A mixture of experts on a GPU at the smallest TP of 2 or more that fits and whose
    GPUs can split its experts."""
    gpus = sorted(catalogue.gpus.values(), key=lambda g: g.id)
    models = sorted((m for m in catalogue.models.values() if m.is_moe), key=lambda m: m.id)
    if not gpus or not models:
        raise LabError("the catalogue has no GPUs or no mixture of experts for this challenge")
    for _ in range(200):
        base = Setup(
            rng.choice(gpus),
            rng.choice(models),
            weights=rng.choice(("bf16", "fp8")),
            kv="fp8",
            batch=rng.choice((1, 8, 32, 128)),
            prompt=rng.choice((500, 2000, 8000)),
            output=rng.choice((100, 400)),
        )
        for tp in (2, 4, 8):
            try:
                setup = replace(base, tp=tp)
                estimate(replace(setup, ep=tp))
                return setup
            except LabError:
                continue
    raise LabError("no mixture of experts in the catalogue fits for this challenge")


def _share(e: Estimate, key: str, total: str) -> str:
    return f"{fmt(e.value(key))} of {fmt(e.value(total))} ms ({e.value(key) / e.value(total):.0%})"


def _why_alltoall(after: Estimate) -> str:
    s, m = after.setup, after.setup.model
    calls = 2 * m.layers
    latency_ms = calls * s.assumptions.alltoall_latency_us / 1000
    fixed_most = latency_ms > after.value("alltoall_decode") / 2
    most = "the fixed cost is most" if fixed_most else "the bytes are most"
    return (
        f"Splitting the experts over the {s.ep} GPUs adds two all-to-alls a layer ({calls} a "
        f"pass): dispatch sends each token's {m.active_experts} routed copies of its "
        f"{m.hidden} activations to the GPUs holding its experts, (EP-1)/EP = "
        f"{(s.ep - 1) / s.ep:.0%} of them off the GPU, and combine brings them back. Their bytes "
        f"grow with the tokens in the pass, their fixed cost ({calls} x "
        f"{fmt(s.assumptions.alltoall_latency_us)} us = {fmt(latency_ms)} ms) does not. In "
        f"prefill the {s.prompt}-token prompt makes them a bandwidth cost: "
        f"{_share(after, 'alltoall_prefill', 'ttft')} of TTFT. In a decode step of "
        f"{s.batch} token{'s' if s.batch > 1 else ''} {most} of it: "
        f"{_share(after, 'alltoall_decode', 'tpot')} of TPOT. They dominate where many tokens cross a slow link: long prompts, big "
        f"batches, top-k of 8, PCIe or the network between nodes. (The lab keeps the "
        f"all-reduces as at TP; what it buys, memory per expert and balance, it leaves out.)"
    )


def _alltoall(catalogue: Catalogue, rng: random.Random) -> Challenge:
    base = _moe_setup(catalogue, rng)
    before, after = estimate(base), estimate(replace(base, ep=base.tp))
    asks = asks_between(before, after, PARALLEL_ASKED["alltoall"])
    words = f"You split the experts over the {base.tp} TP GPUs (expert parallelism, EP {base.tp})"
    terms = where_the_time_goes(before, after, PARALLEL_ASKED["alltoall"])
    reason = f"{_why_alltoall(after)} Card: {CARDS['alltoall']}.\n{terms}"
    return Challenge("alltoall", words, before, after, asks, reason)


def make_parallel_challenge(catalogue: Catalogue, seed: int, kind: str) -> Challenge:
    """A challenge drawn with `seed`: `replicas` (two GPUs as TP 2 or as two replicas, each
    at 0.7 of its capacity, simulated) or `alltoall` (an MoE's experts split over its TP
    GPUs). The same seed gives the same challenge."""
    if kind not in PARALLEL_ASKED:
        raise LabError(f"unknown challenge {kind!r}; choose {' or '.join(PARALLEL_ASKED)}")
    rng = random.Random(seed)
    return _replicas(catalogue, rng) if kind == "replicas" else _alltoall(catalogue, rng)
