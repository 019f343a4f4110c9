"""The load knee as plain text: TTFT p99 against the arrival rate, prefill-first and chunked
prefill side by side, on a log scale (past the knee the tail grows a hundredfold)."""

from __future__ import annotations

import math
from collections.abc import Sequence

from rich.text import Text

from vocabgame.lab.model import fmt

BLOCKS = " ▁▂▃▄▅▆▇█"
FIRST_STYLE = "red"
CHUNKED_STYLE = "cyan"
GROUP = 5  # cells a rate: two columns of two cells and a space


def knee_chart(
    title: str,
    rates: Sequence[float],
    first: Sequence[float | None],
    chunked: Sequence[float | None],
    height: int = 3,
) -> Text:
    """`title`, then for each rate a prefill-first column and a chunked-prefill one, their
    heights the log of TTFT p99 between the smallest and the largest value shown, then each
    rate under its pair. A rate the setup refuses is blank."""
    shown = [v for v in (*first, *chunked) if v is not None and v > 0]
    low = math.log10(min(shown)) if shown else 0.0
    span = (math.log10(max(shown)) - low) if shown else 0.0

    def level(value: float | None, row: int) -> str:
        if value is None or value <= 0:
            return "  "
        share = (math.log10(value) - low) / span if span > 0 else 1.0
        eighths = max(1, round((0.15 + 0.85 * share) * height * 8))  # the lowest still shows
        return BLOCKS[max(0, min(8, eighths - (row - 1) * 8))] * 2

    out = Text(title, style="bold")
    for row in range(height, 0, -1):
        out.append("\n")
        for a, b in zip(first, chunked, strict=True):
            out.append(level(a, row), style=FIRST_STYLE)
            out.append(level(b, row), style=CHUNKED_STYLE)
            out.append(" ")
    out.append("\n")
    for rate in rates:
        out.append(fmt(rate)[: GROUP - 1].ljust(GROUP))
    return out


def knee_legend() -> Text:
    """What the two colours of the knee chart are (its title says what is drawn)."""
    return Text.assemble(
        ("██", FIRST_STYLE),
        " prefill-first  ",
        ("██", CHUNKED_STYLE),
        " chunked prefill",
    )
