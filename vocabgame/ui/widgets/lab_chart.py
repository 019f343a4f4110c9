"""Plain-text charts for the serving lab: a column per batch size, and a memory bar."""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import Console, ConsoleOptions, RenderResult
from rich.measure import Measurement
from rich.text import Text

from vocabgame.lab.model import fmt

BLOCKS = " ▁▂▃▄▅▆▇█"
MEMORY_STYLE = "green"
COMPUTE_STYLE = "yellow"
# The batch on show: its own colour, its column as tall as its value (drawn in reverse, its
# empty cells would fill up to the top and read as the largest value of all).
CURRENT_STYLE = "bold bright_blue"


def _label(batch: int) -> str:
    return f"{batch // 1024}k" if batch >= 1024 and batch % 1024 == 0 else str(batch)


def column_chart(
    title: str,
    points: Sequence[tuple[int, float | None, bool]],
    current: int,
    height: int = 3,
    width: int = 3,
) -> Text:
    """`title`, then one column per (batch, value or None, compute-bound) from the bottom up,
    `height` rows tall, then every other batch size under its column. The current batch's
    column is drawn in `CURRENT_STYLE`; a batch that does not fit is blank."""
    values = [v for _, v, _ in points if v is not None]
    top = max(values) if values else 1.0
    out = Text(title, style="bold")
    for row in range(height, 0, -1):
        out.append("\n")
        for batch, value, compute in points:
            cell = " " * width
            if value is not None and top > 0:
                eighths = round(value / top * height * 8)
                level = max(0, min(8, eighths - (row - 1) * 8))
                if row == 1 and level == 0:
                    level = 1  # every fitting batch shows at least a sliver
                cell = BLOCKS[level] * (width - 1) + " "
            style = COMPUTE_STYLE if compute else MEMORY_STYLE
            out.append(cell, style=CURRENT_STYLE if batch == current else style)
    out.append("\n")
    every = 2 if width >= 2 else 4  # a label per so many columns: room for "256 "
    for i, (batch, _, _) in enumerate(points):
        out.append(_label(batch).ljust(width * every)[: width * every] if i % every == 0 else "")
    return out


class ColumnChart:
    """A `column_chart` drawn as wide as it has room for: columns of 3 cells, or of 2 or 1
    on a narrow terminal, so a line never wraps and the columns stay over their labels."""

    def __init__(
        self, title: str, points: Sequence[tuple[int, float | None, bool]], current: int
    ) -> None:
        self.title, self.points, self.current = title, points, current

    def chart(self, width: int) -> Text:
        """The chart in `width` cells (its title may wrap; its columns do not)."""
        column = max(1, min(3, width // max(1, len(self.points))))
        return column_chart(self.title, self.points, self.current, width=column)

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        return Measurement(len(self.points), 3 * len(self.points))

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        yield self.chart(options.max_width)


def memory_bar(weights: float, kv: float, usable: float, total: float, width: int = 20) -> Text:
    """One GPU's memory: weights, this batch's KV cache, and what is free of the usable share."""
    scale = width / total if total > 0 else 0
    w = min(width, round(weights * scale))
    k = min(width - w, round(kv * scale))
    u = min(width - w - k, max(0, round(usable * scale) - w - k))
    out = Text("Memory/GPU ")
    out.append("█" * w, style="magenta")
    out.append("█" * k, style="cyan")
    out.append("░" * u, style="green")
    out.append("·" * (width - w - k - u), style="dim")
    free = usable - weights - kv
    out.append(
        f" weights {fmt(weights)} · KV {fmt(kv)} · free {fmt(max(free, 0))} of {fmt(usable)} GB"
    )
    return out
