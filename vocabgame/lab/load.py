"""A loaded server: a small seeded discrete-event simulation of a continuous-batching scheduler.

Requests arrive as a Poisson process at `rate` a second, with prompt and output lengths drawn
around the setup's. A scheduler admits them while the KV cache (the room the lab's memory
figures leave after the weights) holds their tokens, preempts the newest when it runs out
(its cache is dropped and its tokens prefilled again later), and runs one forward pass (an
iteration) at a time: prefill-first (a pass of new prompts pauses every decode, as vLLM
without chunked prefill does) or chunked prefill (Sarathi-Serve: each pass carries every
decode and fills a token budget with pieces of prompts). Each pass takes the lab's roofline
time for its mix of prefill tokens and decoding sequences. Out come TTFT, TPOT and the gaps
between tokens at p50/p90/p99, the queueing delay, and DistServe's goodput: completed
requests a second that meet both a TTFT and a TPOT objective.
"""

from __future__ import annotations

import math
import random
from bisect import bisect_right
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import accumulate

from vocabgame.lab.inputs import BYTES, GB, TERA, LabError, Setup, weights_read_b
from vocabgame.lab.links import allreduce_s, alltoall_s, handoffs_s
from vocabgame.lab.model import estimate, fmt, largest_batch

SPREADS = ("fixed", "uniform", "lognormal")
LOGNORMAL_SIGMA = 0.5  # a spread like chat traces': p90 about 1.9x the median
MAX_REQUESTS = 100_000  # about a minute of simulation at most
MAX_SEQS = 256  # sequences decoding at once: vLLM's default max_num_seqs
# DistServe's chatbot example: a first token "under 0.2 seconds"; decode "only needs to match
# human reading speed", taken here as 10 tokens a second.
SLO_TTFT_MS = 200.0
SLO_TPOT_MS = 100.0
GAP_RESOLUTION = 1.001  # decode gaps within 0.1% of each other are kept as one record
# A piece of a prompt cut into chunks runs below a whole prompt's efficiency: Sarathi-Serve's
# measured prefill times (osdi-experiments/figure-9/chunking-overhead.csv, Yi-34B on two A100s,
# prompts of 2k to 8k tokens cut into 512, 1,024 and 2,048-token chunks) are those of the whole
# prompt plus, a chunk, the matmuls of a median 88 more tokens (docs/lab.md, Under load).
CHUNK_EXTRA_TOKENS = 88
PREFILL_FIRST = "prefill-first"
CHUNKED = "chunked prefill"


@dataclass(frozen=True)
class Workload:
    """Who asks: `requests` requests arriving at `rate` a second (Poisson), with prompt and
    output lengths around the setup's, drawn `spread` (fixed, uniform over half to 1.5 times,
    or lognormal with the same mean), all from `seed`."""

    rate: float
    requests: int = 1000
    spread: str = "fixed"
    seed: int = 0
    arrivals: tuple[float, ...] = ()  # given arrival times in seconds instead of Poisson ones
    # Given (prompt, output) lengths instead of drawn ones, taken in turn (and again from the
    # first when the requests outnumber them).
    lengths: tuple[tuple[int, int], ...] = ()

    def check(self) -> None:
        if not 0 < self.rate < math.inf:
            raise LabError(f"the arrival rate must be above 0 requests a second, not {self.rate}")
        if not 1 <= self.requests <= MAX_REQUESTS:
            raise LabError(
                f"the load takes 1 to {MAX_REQUESTS:,} requests, not {self.requests:,} "
                f"(1,000 take a few tenths of a second)"
            )
        if any(p < 1 or o < 1 for p, o in self.lengths):
            raise LabError("every given prompt and output length must be at least 1 token")
        if self.spread not in SPREADS:
            raise LabError(
                f"unknown length spread {self.spread!r}; choose one of {', '.join(SPREADS)}"
            )


@dataclass(frozen=True)
class Scheduler:
    """How the server batches: `chunk` tokens a pass for chunked prefill (None: prefill-first),
    at most `max_seqs` sequences at once, and under prefill-first at most `prefill_tokens`
    prompt tokens a prefill pass (vLLM's max_num_batched_tokens; None: no cap; a prompt longer
    than the cap still runs, alone)."""

    chunk: int | None = None
    max_seqs: int = MAX_SEQS
    prefill_tokens: int | None = None

    @property
    def name(self) -> str:
        return PREFILL_FIRST if self.chunk is None else f"{CHUNKED} ({self.chunk} tokens a pass)"


@dataclass(frozen=True)
class Slo:
    """The objectives a request must meet to count towards goodput."""

    ttft_ms: float = SLO_TTFT_MS
    tpot_ms: float = SLO_TPOT_MS


Chunk = tuple[int, int, int]  # (request, its tokens prefilled before this pass, tokens in it)


class PassCost:
    """The lab's roofline time of one forward pass over a mix of prefill tokens and decoding
    sequences: the terms `model.estimate` uses for a prefill and for a decode step, added up
    for a pass that carries both (the weights are read once, the math and KV reads add)."""

    def __init__(self, setup: Setup) -> None:
        if setup.pp != 1:
            raise LabError("the load simulation runs one pipeline stage; leave --pp at 1")
        base = estimate(setup.with_batch(1))  # checks the setup and gives the memory figures
        s, g, m, a = setup, setup.gpu, setup.model, setup.assumptions
        self.setup = setup
        self.kv_share = 1.0 if m.is_mla else max(1.0, m.kv_heads / s.tp) / m.kv_heads
        kv_token_gpu = base.value("kv_per_token") * self.kv_share
        self.kv_tokens = math.floor(round(base.value("kv_space") * GB / kv_token_gpu, 6))
        _, peak = g.math_rate(s.weights)
        flops_rate = peak * TERA * a.compute_efficiency * s.tp
        bytes_rate = g.bandwidth_gbs * GB * a.bandwidth_efficiency
        wbytes = BYTES[s.weights]
        self._weights_s = {0: m.params_b * 1e9 * wbytes / s.tp / bytes_rate}
        self._wbytes_rate = wbytes * 1e9 / s.tp / bytes_rate
        self._kv_s = kv_token_gpu / bytes_rate  # per token of context read or written
        self._matmul_s = 2 * m.matmul_b * 1e9 / flops_rate  # per token in the pass
        qk_p, v_p = m.attention_dims(decode=False)
        qk_d, v_d = m.attention_dims(decode=True)
        self._prefill_attn_s = m.layers * m.heads * (qk_p + v_p) / flops_rate
        self._decode_attn_s = 2 * m.layers * m.heads * (qk_d + v_d) / flops_rate
        fixed = allreduce_s(s, 0) + handoffs_s(s, 0) + alltoall_s(s, 0)
        self._link_token = allreduce_s(s, 1) + handoffs_s(s, 1) + alltoall_s(s, 1) - fixed
        # Every pass also pays the fitted fixed cost (launches, sampling, scheduling).
        self._link_fixed = fixed + a.step_overhead_us * 1e-6

    def weights_s(self, decodes: int) -> float:
        """Seconds reading the weights: all of them with any prefill in the pass (0 stands
        for that), else the experts the decoding batch touches."""
        cached = self._weights_s.get(decodes)
        if cached is None:
            read = weights_read_b(self.setup.model, decodes) * self._wbytes_rate
            cached = self._weights_s[decodes] = read
        return cached

    def decode_terms(self, decodes: int) -> tuple[float, float, float, float, float]:
        """A decode-only pass of `decodes` sequences over C tokens of context, as lines in C:
        memory = a + b C, compute = c + d C, and the links' time e; the pass takes
        max(memory, compute) + e, the same as `seconds(0, 0, 0, decodes, C)`."""
        return (
            self.weights_s(decodes),
            self._kv_s,
            self._matmul_s * decodes,
            self._decode_attn_s,
            self._link_fixed + self._link_token * decodes,
        )

    def seconds(
        self, prefill: int, pairs: float, moved: int, decodes: int, context: int, pieces: int = 0
    ) -> float:
        """One pass: `prefill` prompt tokens whose attention covers `pairs` (a whole prompt of
        P tokens counts P^2; a chunk of c after o earlier ones, 2oc + c^2) and whose KV
        traffic is `moved` tokens, beside `decodes` sequences reading `context` tokens of KV.
        `pieces` of the prompt chunks are parts of a longer prompt: each adds the matmuls of
        CHUNK_EXTRA_TOKENS tokens (whole prompts and decodes add nothing)."""
        weights = self.weights_s(0 if prefill else decodes)
        memory = weights + self._kv_s * (context + moved)
        compute = (
            self._matmul_s * (prefill + decodes + CHUNK_EXTRA_TOKENS * pieces)
            + self._prefill_attn_s * pairs
            + self._decode_attn_s * context
        )
        tokens = prefill + decodes
        return max(memory, compute) + self._link_fixed + self._link_token * tokens


def draw_lengths(mean: int, spread: str, n: int, rng: random.Random) -> list[int]:
    """`n` lengths of at least 1 token around `mean`."""
    if spread == "fixed":
        return [mean] * n
    if spread == "uniform":
        low, high = max(1, mean // 2), max(1, mean * 3 // 2)
        return [rng.randint(low, high) for _ in range(n)]
    mu = math.log(mean) - LOGNORMAL_SIGMA**2 / 2  # the same mean as `mean`
    return [max(1, round(rng.lognormvariate(mu, LOGNORMAL_SIGMA))) for _ in range(n)]


def percentile(values: Sequence[float], q: float) -> float:
    """The q-th percentile (0-100) of sorted `values`, linearly interpolated; NaN for none."""
    if not values:
        return math.nan
    pos = (len(values) - 1) * q / 100
    low = math.floor(pos)
    high = min(low + 1, len(values) - 1)
    return values[low] + (values[high] - values[low]) * (pos - low)


@dataclass(frozen=True)
class Spread:
    """p50, p90 and p99 of one figure, and its mean."""

    p50: float
    p90: float
    p99: float
    mean: float

    @staticmethod
    def of(values: list[float]) -> Spread:
        values.sort()
        mean = sum(values) / len(values) if values else math.nan
        p50, p90, p99 = (percentile(values, q) for q in (50, 90, 99))
        return Spread(p50, p90, p99, mean)

    @staticmethod
    def weighted(values: list[float], counts: list[int]) -> Spread:
        """The spread of `values`, each counted `counts` times, without writing them out."""
        order = sorted(range(len(values)), key=values.__getitem__)
        ends = list(accumulate(counts[i] for i in order))  # tokens up to each sorted value
        total = ends[-1] if ends else 0
        if not total:
            return Spread(math.nan, math.nan, math.nan, math.nan)
        mean = sum(v * c for v, c in zip(values, counts, strict=True)) / total

        def at(index: int) -> float:
            return values[order[bisect_right(ends, index)]]

        def pct(q: float) -> float:
            pos = (total - 1) * q / 100
            low = math.floor(pos)
            return at(low) + (at(min(low + 1, total - 1)) - at(low)) * (pos - low)

        return Spread(pct(50), pct(90), pct(99), mean)


def _number(value: float) -> float | None:
    """A figure for JSON: None where there is none (no TPOT when every reply is one token)."""
    return value if math.isfinite(value) else None


@dataclass(frozen=True)
class LoadResult:
    """What the simulation measured, times in milliseconds."""

    setup: Setup
    workload: Workload
    scheduler: Scheduler
    slo: Slo
    ttft: Spread
    tpot: Spread
    itl: Spread  # every gap between two tokens of one request
    queue: Spread  # arrival to the first pass that carries the request
    goodput: float  # completed requests a second meeting both objectives
    attainment: float  # their share of all requests
    throughput: float  # output tokens a second over the run
    duration_s: float  # first arrival to last completion
    preemptions: int
    passes: int
    kv_tokens: int  # the KV cache's room, in tokens

    def as_dict(self) -> dict[str, object]:
        out: dict[str, object] = {
            "rate_requests_per_s": self.workload.rate,
            "goodput_requests_per_s": _number(self.goodput),
        }
        for name, spread in (
            ("ttft", self.ttft),
            ("tpot", self.tpot),
            ("itl", self.itl),
            ("queue_wait", self.queue),
        ):
            for q in ("p50", "p90", "p99"):
                out[f"{name}_{q}_ms"] = _number(getattr(spread, q))
        out["queue_wait_mean_ms"] = _number(self.queue.mean)
        out["load"] = {
            "requests": self.workload.requests,
            "rate_requests_per_s": self.workload.rate,
            "spread": self.workload.spread,
            "seed": self.workload.seed,
            "scheduler": self.scheduler.name,
            "chunked_prefill_tokens": self.scheduler.chunk,
            "max_seqs": self.scheduler.max_seqs,
            "slo_ttft_ms": self.slo.ttft_ms,
            "slo_tpot_ms": self.slo.tpot_ms,
            "slo_attainment": self.attainment,
            "throughput_tokens_per_s": _number(self.throughput),
            "duration_s": self.duration_s,
            "preemptions": self.preemptions,
            "passes": self.passes,
            "kv_cache_tokens": self.kv_tokens,
        }
        return out

    def lines(self) -> list[str]:
        """The result as text, a figure a line."""
        w, sch = self.workload, self.scheduler

        def row(label: str, s: Spread) -> str:
            if not math.isfinite(s.p50):
                return f"  {label:<30} none: every reply is one token"
            return f"  {label:<30} p50 {fmt(s.p50)}  p90 {fmt(s.p90)}  p99 {fmt(s.p99)} ms"

        return [
            f"Under load: {w.requests} requests at {fmt(w.rate)} a second (Poisson, lengths "
            f"{w.spread}, seed {w.seed}), {sch.name}, at most {sch.max_seqs} sequences, KV "
            f"cache room {self.kv_tokens:,} tokens",
            row("TTFT", self.ttft),
            row("TPOT", self.tpot),
            row("Gap between tokens (ITL)", self.itl),
            row("Queueing delay", self.queue) + f"  (mean {fmt(self.queue.mean)} ms)",
            f"  {'Goodput':<30} {fmt(self.goodput)} requests/s meet TTFT <= "
            f"{fmt(self.slo.ttft_ms)} ms and TPOT <= {fmt(self.slo.tpot_ms)} ms "
            f"({fmt(self.attainment * 100)}% of requests)",
            f"  {'Output throughput':<30} {fmt(self.throughput)} tokens/s over "
            f"{fmt(self.duration_s)} s; {self.preemptions} preemptions in {self.passes} passes",
        ]


class _Run:
    """One simulation's state; `simulate` makes one and reads its result."""

    def __init__(self, cost: PassCost, work: Workload, sched: Scheduler) -> None:
        s = cost.setup
        rng = random.Random(work.seed)
        n = work.requests
        t, self.arrival = 0.0, sorted(work.arrivals)[:n]
        while len(self.arrival) < n:
            t += rng.expovariate(work.rate)
            self.arrival.append(t)
        if work.lengths:
            given = [work.lengths[i % len(work.lengths)] for i in range(n)]
            self.prompt, self.output = [p for p, _ in given], [o for _, o in given]
        else:
            self.prompt = draw_lengths(s.prompt, work.spread, n, rng)
            self.output = draw_lengths(s.output, work.spread, n, rng)
        longest = max(p + o for p, o in zip(self.prompt, self.output, strict=True))
        if longest > cost.kv_tokens:
            raise LabError(
                f"a request of {longest:,} tokens needs more KV cache than the "
                f"{cost.kv_tokens:,} tokens that fit beside the weights; shorten the lengths "
                f"or add GPUs"
            )
        self.cost, self.sched = cost, sched
        self.need = list(self.prompt)  # tokens to prefill (prompt, or all so far after preemption)
        self.done = [0] * n  # of `need`, prefilled
        self.made = [0] * n  # output tokens made
        self.kv = [0] * n  # KV tokens held
        self.start = [math.nan] * n
        self.first = [math.nan] * n
        self.last = [0.0] * n
        self.end = [math.nan] * n
        # Gaps between tokens, each with how many tokens waited that long.
        self.gaps: list[float] = []
        self.gap_counts: list[int] = []
        self.free = cost.kv_tokens
        self.waiting: deque[int] = deque()
        self.running: list[int] = []  # admitted, in admission order
        self.now, self.next_arrival, self.preemptions, self.passes = 0.0, 0, 0, 0

    # -- the cache ----------------------------------------------------------------------------
    def admit(self, r: int) -> bool:
        """Reserve the KV for request r's whole prefill; False when it does not fit. It must
        also leave a token of room for every running sequence and itself (a watermark, as
        vLLM keeps): else the next decode step preempts it again, at once."""
        room = self.free - len(self.running) - 1
        if self.need[r] > room or len(self.running) >= self.sched.max_seqs:
            return False
        self.free -= self.need[r]
        self.kv[r] = self.need[r]
        self.done[r] = 0
        self.running.append(r)
        if math.isnan(self.start[r]):
            self.start[r] = self.now
        return True

    def make_room(self, decoding: list[int]) -> list[int]:
        """Preempt the newest sequences until every decoding one can grow by a token; the
        decoding ones left."""
        preempted = False
        decodes = len(decoding)
        while self.free < decodes and self.running:
            r = self.running.pop()
            decodes -= self.done[r] == self.need[r]  # it was one of the decodes
            self.free += self.kv[r]
            self.kv[r] = 0
            self.need[r] = self.prompt[r] + self.made[r]  # recomputed later (vLLM's default)
            self.done[r] = 0
            self.waiting.appendleft(r)
            self.preemptions += 1
            preempted = True
        return self.decoders() if preempted else decoding

    # -- one pass -----------------------------------------------------------------------------
    def step(self) -> None:
        n = len(self.arrival)
        while self.next_arrival < n and self.arrival[self.next_arrival] <= self.now:
            self.waiting.append(self.next_arrival)
            self.next_arrival += 1
        if not self.running and not self.waiting:
            self.now = self.arrival[self.next_arrival]
            return
        if not self.waiting and self.decode_stretch():
            return
        if self.sched.chunk is None:
            chunks, decoding = self.prefill_first()
        else:
            chunks, decoding = self.chunked(self.sched.chunk)
        if not chunks and not decoding:
            if self.next_arrival >= n:
                raise RuntimeError("the scheduler has nothing it can run and nothing to wait for")
            self.now = max(self.now, self.arrival[self.next_arrival])
            return
        self.run(chunks, decoding)

    def decode_stretch(self) -> bool:
        """Run decode-only passes in bulk while nothing else can happen: every running
        sequence decoding, none finishing, the cache holding their growth, no arrival yet.
        The same passes as one at a time, without the per-sequence work; False when none."""
        decoding = self.running
        if not decoding or any(self.done[r] != self.need[r] for r in decoding):
            return False
        b = len(decoding)
        passes = min(min(self.output[r] - self.made[r] for r in decoding), self.free // b) - 1
        if passes < 1:
            return False
        arrive = (
            self.arrival[self.next_arrival] if self.next_arrival < len(self.arrival) else math.inf
        )
        context, now, j = sum(self.kv[r] for r in decoding), self.now, 0
        mem0, mem1, comp0, comp1, links = self.cost.decode_terms(b)
        while j < passes and now < arrive:
            dt = max(mem0 + mem1 * context, comp0 + comp1 * context) + links
            now += dt
            context += b
            j += 1
            if j == 1:  # the first gap differs by sequence: it runs from each one's last token
                self.gaps.extend(now - self.last[r] for r in decoding)
                self.gap_counts.extend([1] * b)
            elif j > 2 and dt <= self.gaps[-1] * GAP_RESOLUTION:
                self.gap_counts[-1] += b  # the same gap to 0.1%: one record, counted again
            else:
                self.gaps.append(dt)
                self.gap_counts.append(b)
        if not j:
            return False
        self.now, self.passes, self.free = now, self.passes + j, self.free - b * j
        for r in decoding:
            self.made[r] += j
            self.kv[r] += j
            self.last[r] = now
        return True

    def decoders(self) -> list[int]:
        return [r for r in self.running if self.done[r] == self.need[r]]

    def prefill_first(self) -> tuple[list[Chunk], list[int]]:
        """New prompts first, whole, in one pass that pauses the decodes; else a decode pass.
        The pass's prompt chunks and its decoding sequences."""
        chunks: list[Chunk] = []
        cap, tokens = self.sched.prefill_tokens, 0
        while self.waiting:
            nxt = self.waiting[0]
            if chunks and cap is not None and tokens + self.need[nxt] > cap:
                break
            if not self.admit(nxt):
                break
            r = self.waiting.popleft()
            chunks.append((r, 0, self.need[r]))
            tokens += self.need[r]
        if chunks:
            return chunks, []
        return chunks, self.make_room(self.decoders())

    def chunked(self, budget: int) -> tuple[list[Chunk], list[int]]:
        """Every decode, then pieces of prompts already begun, then new ones, in `budget`
        tokens (the decodes run even when they alone fill it)."""
        decoding = self.make_room(self.decoders())
        budget -= len(decoding)
        chunks: list[Chunk] = []
        for r in self.running:
            if budget <= 0:
                return chunks, decoding
            if self.done[r] < self.need[r]:
                take = min(budget, self.need[r] - self.done[r])
                chunks.append((r, self.done[r], take))
                budget -= take
        while budget > 0 and self.waiting and self.admit(self.waiting[0]):
            r = self.waiting.popleft()
            take = min(budget, self.need[r])
            chunks.append((r, 0, take))
            budget -= take
        return chunks, decoding

    def run(self, chunks: list[Chunk], decoding: list[int]) -> None:
        """Time the pass, then hand out its tokens."""
        prefill = sum(c for _, _, c in chunks)
        pairs = sum(2 * o * c + c * c for _, o, c in chunks)
        moved = sum(o + c for _, o, c in chunks)
        pieces = sum(1 for r, _, c in chunks if c < self.need[r])
        kv, made, last, output = self.kv, self.made, self.last, self.output
        context = sum(kv[r] for r in decoding)
        began = self.now
        dt = self.cost.seconds(prefill, pairs, moved, len(decoding), context, pieces)
        now = self.now = began + dt
        self.passes += 1
        for r, o, c in chunks:
            self.done[r] = o + c
            if self.done[r] == self.need[r]:
                self.token(r)
        # Sequences that made a token in the last pass too waited `dt`: one record for them.
        same, finished = 0, []
        for r in decoding:
            if last[r] == began:
                same += 1
            else:
                self.gaps.append(now - last[r])
                self.gap_counts.append(1)
            last[r] = now
            kv[r] += 1
            made[r] += 1
            if made[r] >= output[r]:
                finished.append(r)
        if same:
            self.gaps.append(dt)
            self.gap_counts.append(same)
        self.free -= len(decoding)
        for r in finished:
            self.finish(r)

    def finish(self, r: int) -> None:
        self.end[r] = self.now
        self.free += self.kv[r]
        self.kv[r] = 0
        self.running.remove(r)

    def token(self, r: int) -> None:
        """Request r's next output token comes out now."""
        if math.isnan(self.first[r]):
            self.first[r] = self.now
        else:
            self.gaps.append(self.now - self.last[r])
            self.gap_counts.append(1)
        self.last[r] = self.now
        self.made[r] += 1
        if self.made[r] >= self.output[r]:
            self.finish(r)


def simulate(
    setup: Setup,
    workload: Workload,
    scheduler: Scheduler | None = None,
    slo: Slo | None = None,
) -> LoadResult:
    """Serve `workload` on `setup` under `scheduler` (prefill-first by default) and measure it.
    The same inputs and seed give the same result. Raises LabError, saying why, for a setup
    or load that makes no sense or a request that cannot fit in the KV cache."""
    workload.check()
    sched = scheduler or Scheduler()
    if sched.chunk is not None and sched.chunk < 1:
        raise LabError(f"the chunked-prefill budget must be at least 1 token, not {sched.chunk}")
    if sched.max_seqs < 1:
        raise LabError(f"at least 1 sequence must decode at once, not {sched.max_seqs}")
    if sched.prefill_tokens is not None and sched.prefill_tokens < 1:
        raise LabError(
            f"a prefill pass's token cap must be at least 1 token, not {sched.prefill_tokens}"
        )
    goal = slo or Slo()
    cost = PassCost(setup)
    run = _Run(cost, workload, sched)
    n = workload.requests
    while run.next_arrival < n or run.running or run.waiting:
        run.step()
    ttft = [(run.first[r] - run.arrival[r]) * 1000 for r in range(n)]
    tpot = [
        (run.end[r] - run.first[r]) / (run.output[r] - 1) * 1000
        for r in range(n)
        if run.output[r] > 1
    ]
    good = sum(
        1
        for r in range(n)
        if ttft[r] <= goal.ttft_ms
        and (
            run.output[r] == 1
            or (run.end[r] - run.first[r]) / (run.output[r] - 1) * 1000 <= goal.tpot_ms
        )
    )
    duration = max(run.end) - run.arrival[0]
    return LoadResult(
        setup,
        workload,
        sched,
        goal,
        ttft=Spread.of(ttft),
        tpot=Spread.of(tpot),
        itl=Spread.weighted([g * 1000 for g in run.gaps], run.gap_counts),
        queue=Spread.of([(run.start[r] - run.arrival[r]) * 1000 for r in range(n)]),
        goodput=good / duration if duration > 0 else math.nan,
        attainment=good / n,
        throughput=sum(run.output) / duration if duration > 0 else math.nan,
        duration_s=duration,
        preemptions=run.preemptions,
        passes=run.passes,
        kv_tokens=cost.kv_tokens,
    )


# The knee chart: arrival rates as shares of the estimate's capacity, chunks of 512 tokens.
KNEE_SHARES = (0.25, 0.5, 0.75, 1.0, 1.5, 2.0)
KNEE_CHUNK = 512
KNEE_REQUESTS = 300  # enough to outnumber MAX_SEQS, so a queue can build past the knee


def knee_rates(setup: Setup, shares: Sequence[float] = KNEE_SHARES) -> list[float]:
    """Arrival rates around where the estimate puts the knee: `shares` of its capacity, the
    loaded throughput at the largest batch (at most MAX_SEQS) over the output length."""
    batch = min(largest_batch(setup), MAX_SEQS)
    per_s = estimate(setup.with_batch(batch)).value("throughput") / setup.output
    return [per_s * share for share in shares]


def knee(
    setup: Setup,
    rates: Sequence[float],
    scheduler: Scheduler,
    requests: int = KNEE_REQUESTS,
    seed: int = 0,
    figure: Callable[[LoadResult], float] = lambda r: r.ttft.p99,
) -> list[tuple[float, float | None]]:
    """`figure` (TTFT p99 by default) at each arrival rate; None where the setup refuses."""
    out: list[tuple[float, float | None]] = []
    for rate in rates:
        try:
            result = simulate(setup, Workload(rate, requests, seed=seed), scheduler)
        except LabError:
            out.append((rate, None))
            continue
        out.append((rate, figure(result)))
    return out


def capacity(
    setup: Setup,
    scheduler: Scheduler,
    holds: Callable[[LoadResult], bool],
    requests: int = 300,
    spread: str = "fixed",
    seed: int = 0,
    high: float = 64.0,
    lengths: tuple[tuple[int, int], ...] = (),
    slo: Slo | None = None,
) -> float:
    """The largest arrival rate up to `high` (requests a second, to 2%) at which `holds` is
    true of the simulated load: Sarathi-Serve's serving capacity under a latency objective,
    or DistServe's goodput rate at an attainment goal. 0 when not even a trickle meets it."""

    def ok(rate: float) -> bool:
        work = Workload(rate, requests, spread, seed, lengths=lengths)
        return holds(simulate(setup, work, scheduler, slo))

    if ok(high):
        return high
    low = high / 2
    while not ok(low):
        high, low = low, low / 2
        if low < 1e-3:
            return 0.0
    while high - low > 0.02 * low:
        mid = (low + high) / 2
        low, high = (mid, high) if ok(mid) else (low, mid)
    return low
