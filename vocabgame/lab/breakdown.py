"""Where a figure's time goes: the terms of TTFT, of one decode step and of a loaded step
(weights read, KV read, compute, all-reduce, hand-offs, all-to-all, the fixed cost of a
pass, prefills mixed in, queue wait), the
counted ones adding up to the total. A roofline step takes the larger of its memory and
compute terms, so the smaller one is shown as hidden under it, not added."""

from __future__ import annotations

from dataclasses import dataclass

from vocabgame.lab.inputs import BYTES, GB, weights_read_b
from vocabgame.lab.model import COMPUTE_BOUND, Estimate, fmt

# The roofline starts every request at once; a queue is the load simulation's to time.
QUEUE_WAIT_MS = 0.0


@dataclass(frozen=True)
class Term:
    name: str
    ms: float
    counted: bool = True  # False: overlapped by a larger term, shown but not added


@dataclass(frozen=True)
class Breakdown:
    """A figure's total in ms and its terms."""

    key: str
    label: str
    total_ms: float
    terms: tuple[Term, ...]

    @property
    def sum_ms(self) -> float:
        return sum(t.ms for t in self.terms if t.counted)

    def text(self) -> str:
        added = " + ".join(f"{t.name} {fmt(t.ms)}" for t in self.terms if t.counted)
        hidden = [t for t in self.terms if not t.counted]
        line = f"{self.label} {fmt(self.total_ms)} ms = {added}"
        if hidden:
            line += " (hidden under it: " + ", ".join(f"{t.name} {fmt(t.ms)}" for t in hidden) + ")"
        return line


def _decode_terms(e: Estimate) -> list[Term]:
    s = e.setup
    micro = s.batch / min(s.batch, s.pp)
    bytes_rate = s.gpu.bandwidth_gbs * GB * s.assumptions.bandwidth_efficiency
    memory = e.value("decode_memory")
    weights = weights_read_b(s.model, micro) * 1e9 * BYTES[s.weights] / s.tp / bytes_rate * 1000
    compute = e.value("decode_compute")
    memory_bound = e.decode_regime != COMPUTE_BOUND
    terms = [
        Term("weights read", weights, memory_bound),
        Term("KV read", memory - weights, memory_bound),
        Term("compute", compute, not memory_bound),
        Term("all-reduce", e.value("allreduce_decode")),
    ]
    if s.pp > 1:
        terms.append(Term("hand-offs", e.value("handoff_decode")))
    if s.ep > 1:
        terms.append(Term("all-to-all", e.value("alltoall_decode")))
    terms.append(Term("fixed cost", _fixed_ms(e)))
    return terms


def _fixed_ms(e: Estimate) -> float:
    return e.setup.assumptions.step_overhead_us / 1000


def breakdown(e: Estimate, key: str) -> Breakdown:
    """The terms of TTFT (`ttft`), one decode step (`tpot`), or a loaded step (`tpot_loaded`,
    and `throughput`, which is batch / that step)."""
    if key == "ttft":
        keys = ("ttft", "allreduce_prefill", "handoff_prefill", "alltoall_prefill")
        prefill, ar, ho, a2a = (e.value(k) for k in keys)
        bound = "compute" if e.prefill_regime == COMPUTE_BOUND else "weights read"
        fixed = _fixed_ms(e)
        terms = [Term(bound, prefill - ar - ho - a2a - fixed), Term("all-reduce", ar)]
        if e.setup.pp > 1:
            terms.append(Term("hand-offs", ho))
        if e.setup.ep > 1:
            terms.append(Term("all-to-all", a2a))
        terms.append(Term("fixed cost", fixed))
        terms.append(Term("queue wait", QUEUE_WAIT_MS))
        return Breakdown(key, "TTFT", e.value("ttft"), tuple(terms))
    terms = _decode_terms(e)
    if key == "tpot":
        terms.append(Term("queue wait", QUEUE_WAIT_MS))
        return Breakdown(key, "TPOT", e.value("tpot"), tuple(terms))
    if key in ("tpot_loaded", "throughput"):
        terms.append(Term("prefills mixed in", e.value("tpot_loaded") - e.value("tpot")))
        terms.append(Term("queue wait", QUEUE_WAIT_MS))
        label = "Loaded step (throughput = batch / it)" if key == "throughput" else "Loaded step"
        return Breakdown(key, label, e.value("tpot_loaded"), tuple(terms))
    raise KeyError(f"no breakdown for {key!r}")
