"""Predict-then-reveal challenges: a fresh setup, one change to it, and for two figures the
question "up, down or about the same?". The player predicts; the lab reveals both setups'
numbers and the reason, from the same model as every other figure."""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

from vocabgame.lab.asked import ASKED, DIRECTIONS, DOWN, KINDS, SAME, TOLERANCE, UP, WORDS
from vocabgame.lab.breakdown import breakdown
from vocabgame.lab.catalogue import Catalogue
from vocabgame.lab.model import (
    COMPUTE_BOUND,
    Estimate,
    LabError,
    Setup,
    estimate,
    fmt,
)


def direction(before: float, after: float, tolerance: float = TOLERANCE) -> str:
    """up, down or same: `same` when after is within `tolerance` of before, either way."""
    if after > before * (1 + tolerance):
        return UP
    if after < before / (1 + tolerance):
        return DOWN
    return SAME


@dataclass(frozen=True)
class Ask:
    """One prediction: which way a figure moves."""

    key: str
    label: str
    before: float
    after: float
    unit: str
    answer: str

    def moved(self) -> str:
        ratio = self.after / self.before if self.before else float("inf")
        return (
            f"{self.label}: {fmt(self.before)} -> {fmt(self.after)} {self.unit} "
            f"(x{fmt(ratio)}, {WORDS[self.answer]})"
        )


def asks_between(before: Estimate, after: Estimate, keys: Iterable[str]) -> tuple[Ask, ...]:
    """What a challenge asks of each figure in `keys`: its value before and after a change,
    and which way it went."""
    return tuple(
        Ask(
            key,
            before[key].label,
            before.value(key),
            after.value(key),
            before[key].unit,
            direction(before.value(key), after.value(key)),
        )
        for key in keys
    )


@dataclass(frozen=True)
class Verdict:
    ask: Ask
    guess: str

    @property
    def right(self) -> bool:
        return self.guess == self.ask.answer


@dataclass(frozen=True)
class Challenge:
    """A setup before and after one change, what to predict, and why it moves as it does."""

    kind: str
    change: str  # "You double the batch from 8 to 16"
    before: Estimate
    after: Estimate
    asks: tuple[Ask, ...]
    reason: str

    @property
    def prompt(self) -> str:
        questions = " And ".join(f"{a.label}?" for a in self.asks[1:])
        first = self.asks[0].label
        more = f" {questions}" if questions else ""
        return (
            f"{self.before.setup.describe()}.\n{self.change} on this setup: {first} goes up, "
            f"down or stays about the same (within {TOLERANCE:.0%})?{more}"
        )

    def grade(self, guesses: Sequence[str]) -> tuple[Verdict, ...]:
        if len(guesses) != len(self.asks) or any(g not in DIRECTIONS for g in guesses):
            raise ValueError(f"give one of {DIRECTIONS} for each of {len(self.asks)} questions")
        return tuple(Verdict(a, g) for a, g in zip(self.asks, guesses, strict=True))


def _step(e: Estimate) -> str:
    comm = e.value("allreduce_decode")
    return (
        f"decode is {e.decode_regime} (intensity {fmt(e.value('decode_intensity'))}, ridge "
        f"{fmt(e.value('ridge'))} FLOP/byte): step = max(memory {fmt(e.value('decode_memory'))}"
        f" ms, compute {fmt(e.value('decode_compute'))} ms)"
        + (f" + all-reduces {fmt(comm)} ms" if comm else "")
    )


def _loaded(b: Estimate, a: Estimate) -> str:
    """What the prefills mixed into each step under load do to the throughput, both sides."""

    def prefills(e: Estimate) -> float:
        return e.value("tpot_loaded") - e.value("tpot")

    most = prefills(a) > 0.5 * a.value("tpot_loaded")
    return (
        f" Under load each step also carries batch / output of a new request's prefill: "
        f"{fmt(prefills(b))} of {fmt(b.value('tpot_loaded'))} ms a step before, "
        f"{fmt(prefills(a))} of {fmt(a.value('tpot_loaded'))} ms after"
        + (", so the prefills, more than the decode step, set the throughput." if most else ".")
    )


def _why_batch(b: Estimate, a: Estimate) -> str:
    if b.decode_regime == a.decode_regime == COMPUTE_BOUND:
        lead = (
            "Past the knee each step's math grows with the batch, so TPOT grows about as fast as "
            "the batch and total throughput stays about flat."
        )
    elif a.decode_regime == COMPUTE_BOUND:
        lead = (
            "The batch crosses the knee: the math of a step now takes longer than its memory "
            "reads, so TPOT starts to grow with the batch and throughput gains flatten."
        )
    else:
        lead = (
            "A bigger batch shares each step's weight read: while decode is memory-bound the step "
            "costs the weights plus every sequence's KV cache, so TPOT rises only by the extra KV "
            "read and the decode steps' throughput climbs with the batch."
        )
    return lead


def _why_fp8(b: Estimate, a: Estimate) -> str:
    fast_math = a.math_precision == "fp8"
    if b.decode_regime == COMPUTE_BOUND:
        return "Here decode is compute-bound, so the math rate decides: " + (
            "this GPU multiplies FP8 at twice the BF16 rate, so TPOT falls and throughput rises."
            if fast_math
            else "this GPU has no FP8 math and multiplies in BF16 either way, so halving the "
            "weight bytes helps only the smaller memory term."
        )
    return (
        "FP8 weights are half the bytes of BF16, and a memory-bound decode step is paid for in "
        "bytes read, so TPOT falls and throughput rises by as much as the weights are of the "
        "bytes each step reads"
        + (
            "; this GPU also multiplies FP8 at twice the BF16 rate."
            if fast_math
            else "; this GPU has no FP8 math, so the multiplies still run in BF16."
        )
    )


def where_the_time_goes(b: Estimate, a: Estimate, keys: Sequence[str]) -> str:
    """Each asked figure's terms on both sides, the added ones summing to its total."""
    lines = ["Where the time goes:"]
    for key in keys:
        for side, e in (("before", b), ("after", a)):
            lines.append(f"  {side}: {breakdown(e, key).text()}")
    return "\n".join(lines)


WHY = {
    "batch": _why_batch,
    "fp8": lambda b, a: _why_fp8(b, a),
    "tp": lambda b, a: (
        "Twice the GPUs each hold half the weights and half the KV heads, so each reads half as "
        "much per step: TPOT falls and throughput rises, less than twofold because every layer's "
        "two all-reduces now cross more GPUs, while each token costs GPU-hours on twice the GPUs."
    ),
    "prompt": lambda b, a: (
        "Prefill is compute-bound: its matmul FLOPs double with the prompt and attention's grow "
        "with its square, so TTFT about doubles or more. Decode reads a longer KV cache each "
        "step, so TPOT rises only by that share of the bytes it reads."
    ),
}


def _apply(kind: str, s: Setup) -> tuple[Setup, str]:
    if kind == "batch":
        return replace(
            s, batch=s.batch * 2
        ), f"You double the batch from {s.batch} to {s.batch * 2}"
    if kind == "fp8":
        return replace(s, weights="fp8"), "You move the weights from BF16 to FP8"
    if kind == "tp":
        return replace(s, tp=s.tp * 2), f"You serve on {s.tp * 2} GPUs instead of {s.tp} (TP)"
    return (
        replace(s, prompt=s.prompt * 2),
        f"Prompts grow from {s.prompt} to {s.prompt * 2} tokens",
    )


def make_challenge(catalogue: Catalogue, seed: int, kind: str | None = None) -> Challenge:
    """A challenge on a setup drawn with `seed`: a GPU and model from the catalogue, a batch,
    lengths and the smallest TP that fits, and a change that fits too."""
    if kind is not None and kind not in KINDS:  # a load's change is load_challenge's
        raise LabError(f"{kind!r} is not a change to the setup; choose one of {', '.join(KINDS)}")
    rng = random.Random(seed)
    gpus = sorted(catalogue.gpus.values(), key=lambda g: g.id)
    models = sorted(catalogue.models.values(), key=lambda m: m.id)
    if not gpus or not models:
        raise LabError("the catalogue has no GPUs or no models to build a challenge on")
    for _ in range(200):
        k = kind or rng.choice(KINDS)
        base = Setup(
            rng.choice(gpus),
            rng.choice(models),
            weights="bf16",
            kv=rng.choice(("bf16", "fp8")),
            batch=rng.choice((1, 4, 8, 16, 32, 64, 128, 256)),
            prompt=rng.choice((200, 500, 1000, 2000, 4000)),
            output=rng.choice((100, 200, 500)),
        )
        for tp in (1, 2, 4):
            try:
                before = estimate(replace(base, tp=tp))
                changed, words = _apply(k, before.setup)
                after = estimate(changed)
            except LabError:
                continue
            asks = asks_between(before, after, ASKED[k])
            reason = f"{WHY[k](before, after)} Before, {_step(before)}. After, {_step(after)}."
            if "throughput" in ASKED[k]:
                reason += _loaded(before, after)
            reason += "\n" + where_the_time_goes(before, after, ASKED[k])
            return Challenge(k, words, before, after, asks, reason)
    raise LabError("no setup in the catalogue fits for this challenge")
