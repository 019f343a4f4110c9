"""`calc-tolerance`: a calculation's explanation states a result that its own tolerance would
mark wrong."""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator

from vocabgame.deck.entry import Entry
from vocabgame.kinds.calculation import MAX_COMBINATIONS
from vocabgame.model import Calculation, Deck
from vocabgame.reading import calc

from .base import CALC_CLOSE, CALC_TOLERANCE, Finding, rule

# A number the explanation presents as a result: after =, ≈, ~, "so", "about", "roughly",
# "gives" or "is about"; written 1,040 or 3.69 or 1.12e15, with an optional $ before it.
_RESULT = re.compile(
    r"(?:=|≈|~|\bso\b|\babout\b|\broughly\b|\bgives?\b|\bnear\b)\s*\$?"
    r"(?P<num>\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?(?:e[-+]?\d+)?)(?![\w.^/*x×(])",
    re.I,
)
_CLAUSE_END = re.compile(r";|\.(?:\s|$)")


def _is_input(text: str, match: re.Match[str]) -> bool:
    """'k = 5' names an input; '0.6 * 5 = 4' and '131,072 bytes = 128' state results."""
    if not match.group(0).startswith("="):
        return False
    return not re.search(r"[\d)]", " ".join(text[: match.start()].split()[-2:]))


def stated_results(text: str) -> list[float]:
    """The numbers an explanation presents as final results: the last result in each clause
    (a result followed by 'so N' in the same clause is a step, not the result)."""
    results: list[float] = []
    start = 0
    for end in [m.start() for m in _CLAUSE_END.finditer(text)] + [len(text)]:
        found = [m for m in _RESULT.finditer(text, start, end) if not _is_input(text, m)]
        if found:
            results.append(float(found[-1].group("num").replace(",", "")))
        start = end + 1
    return results


@rule(CALC_TOLERANCE, "the tolerance rejects a result the explanation calls right")
def calc_tolerance(deck: Deck, entry: Entry) -> Iterator[Finding]:
    item = entry.item
    if not isinstance(item, Calculation) or not item.given:
        return
    try:
        tree = calc.parse(item.answer)
        answers = [
            calc.evaluate(tree, {g.name: v for g, (_, v) in zip(item.given, combo, strict=True)})
            for combo in itertools.islice(
                itertools.product(*(g.options for g in item.given)), MAX_COMBINATIONS
            )
        ]
    except calc.CalcError:
        return
    for stated in stated_results(item.explanation):
        if any(item.tolerance.accepts(a, stated) for a in answers):
            continue
        close = [a for a in answers if a and abs(stated - a) <= CALC_CLOSE * abs(a)]
        if not close:
            continue  # not this calculation's result: an intermediate step or another quantity
        nearest = min(close, key=lambda a: abs(stated - a))
        yield Finding(
            entry.fields.get("explanation", entry.node),
            f"the explanation gives {stated:g} as the result, but the answer is {nearest:.6g} "
            f"and the tolerance {item.tolerance} rejects {stated:g}; widen the tolerance or "
            "state the value more precisely",
        )
