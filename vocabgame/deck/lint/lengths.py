"""`answer-length-skew`: across a deck's scenarios, how often the answer is the strictly longest
choice, and how often the strictly shortest, against what chance gives.

A deck can pass the per-item `longest-answer` rule and still teach a length rule: answers that
are never the longest teach "never pick the longest". Chance here means the answer drawn at
random from the choices as written: a scenario with n choices and one strictly longest gives
that place to the answer with probability 1/n (and with none, when the longest is tied), so a
deck's count follows a Poisson binomial distribution, and a count in either of its far tails
is a pattern a player can use.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from vocabgame.deck.entry import Entry
from vocabgame.model import Deck, Scenario

from .base import ANSWER_LENGTH_SKEW, LENGTH_SKEW_P, Finding, Where, rule, shown

MAX_NAMED = 3  # scenarios an answer-length warning names as the cheapest to change


@dataclass(frozen=True, slots=True)
class _Lengths:
    """One scenario's answer length and its distractors' lengths, as the player sees them."""

    id: str
    answer: int
    others: tuple[int, ...]

    def chance(self, longest: bool) -> float:
        """The chance that a random choice is strictly the longest (or shortest)."""
        every = (self.answer, *self.others)
        extreme = max(every) if longest else min(every)
        return 1 / len(every) if every.count(extreme) == 1 else 0.0

    def is_extreme(self, longest: bool) -> bool:
        if longest:
            return self.answer > max(self.others)
        return self.answer < min(self.others)

    def gap(self, longest: bool) -> int:
        """Characters to change to move the answer into (or out of) the extreme place."""
        if self.is_extreme(longest):
            return abs(self.answer - (max(self.others) if longest else min(self.others)))
        return abs((max(self.others) if longest else min(self.others)) - self.answer) + 1


def distribution(chances: list[float]) -> list[float]:
    """P(count = k) for k = 0..n, the count of successes of independent trials."""
    dist = [1.0]
    for p in chances:
        dist = [
            (dist[k] if k < len(dist) else 0.0) * (1 - p) + (dist[k - 1] * p if k else 0.0)
            for k in range(len(dist) + 1)
        ]
    return dist


def bounds(chances: list[float], p: float = LENGTH_SKEW_P) -> tuple[int, int]:
    """The fewest and the most successes that chance gives with odds of at least `p` each
    (a count below the first or above the second is in a far tail)."""
    dist = distribution(chances)
    low, below = 0, dist[0]
    while below < p and low < len(dist) - 1:
        low += 1
        below += dist[low]
    high, above = len(dist) - 1, dist[-1]
    while above < p and high > 0:
        high -= 1
        above += dist[high]
    return low, high


def _lengths(deck: Deck, entries: list[Entry]) -> list[_Lengths]:
    out = []
    for entry in entries:
        item = entry.item
        if isinstance(item, Scenario) and len(item.choices) >= 2:
            others = tuple(len(shown(deck, c)) for c in item.choices if c != item.answer)
            out.append(_Lengths(item.id, len(shown(deck, item.answer)), others))
    return out


def _skew(rows: list[_Lengths], longest: bool) -> str | None:
    """The warning for one tail (longest or shortest), if the deck's count is in a far tail."""
    place = "longest" if longest else "shortest"
    count = sum(r.is_extreme(longest) for r in rows)
    chances = [r.chance(longest) for r in rows]
    low, high = bounds(chances)
    if low <= count <= high:
        return None
    head = (
        f"the answer is the strictly {place} choice in {count} of {len(rows)} scenarios, where "
        f"chance gives about {sum(chances):.1f} (odds under {LENGTH_SKEW_P:.0%})"
    )
    too_few = count < low
    change = [r for r in rows if r.is_extreme(longest) != too_few]
    change.sort(key=lambda r: (r.gap(longest), r.id))
    named = ", ".join(f"{r.id!r} ({r.gap(longest)})" for r in change[:MAX_NAMED])
    if too_few:
        verb = "lengthen the answer or shorten" if longest else "shorten the answer or lengthen"
        return (
            f"{head}; players learn never to pick the {place}. Make the answer the {place} "
            f"in at least {low - count} more: {verb} its distractors, e.g. in {named} "
            "(characters to change)"
        )
    verb = "shorten the answer or lengthen" if longest else "lengthen the answer or shorten"
    return (
        f"{head}; players learn to pick the {place}. Make it not the {place} in at least "
        f"{count - high} of them: {verb} a distractor, e.g. in {named} (characters to change)"
    )


@rule(
    ANSWER_LENGTH_SKEW,
    "across a deck, the answer is the strictly longest (or shortest) choice far more or far "
    "less often than chance",
    "deck",
    "scenarios",
)
def answer_length_skew(deck: Deck, entries: list[Entry], where: Where) -> Iterator[Finding]:
    rows = _lengths(deck, [e for e in entries if ANSWER_LENGTH_SKEW not in e.ignore])
    for longest in (True, False):
        message = _skew(rows, longest)
        if message is not None:
            yield Finding(where, message)
