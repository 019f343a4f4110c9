"""The settings screen's chart of what each desired retention costs: a bar a retention, as long
as its minutes a day (`vocabgame.simulate`), the setting now and the cheapest marked."""

from __future__ import annotations

from rich.console import Console, ConsoleOptions, RenderResult
from rich.measure import Measurement
from rich.text import Text

from vocabgame.simulate import Forecast

BAR_STYLE = "green"
CURRENT_STYLE = "bold bright_blue"  # as the lab chart's batch on show
CHEAPEST_STYLE = "bold yellow"


def retention_chart(result: Forecast, width: int = 60) -> Text:
    """A title line, then one line a retention: the retention, a bar as long as its minutes a
    day (the longest fills what `width` leaves), the minutes, and "now" / "cheapest"."""
    current, cheapest = result.inputs.current, result.cheapest
    out = Text(f"Minutes a day over the next {result.days} days, by desired retention", "bold")
    top = max((p.minutes_per_day for p in result.points), default=0.0)
    room = max(4, width - 5 - 9 - 16)  # "0.70 " and " 104 min" and "  now, cheapest"
    for point in result.points:
        now = abs(point.retention - current) < 1e-9
        best = cheapest is not None and abs(point.retention - cheapest) < 1e-9
        out.append(f"\n{point.retention:.2f} ", CURRENT_STYLE if now else "")
        eighths = round(point.minutes_per_day / top * room * 8) if top > 0 else 0
        bar = "█" * (eighths // 8) + (" ▏▎▍▌▋▊▉"[eighths % 8] if eighths % 8 else "")
        out.append(bar.ljust(room), CURRENT_STYLE if now else BAR_STYLE)
        minutes = point.minutes_per_day
        out.append(f" {minutes:4.1f} min" if minutes < 10 else f" {minutes:4.0f} min")
        marks = [("now", CURRENT_STYLE)] if now else []
        marks += [("cheapest", CHEAPEST_STYLE)] if best else []
        for n, (mark, style) in enumerate(marks):
            out.append("  " if n == 0 else ", ")
            out.append(mark, style)
    return out


class RetentionChart:
    """A `retention_chart` drawn as wide as it has room for."""

    def __init__(self, result: Forecast) -> None:
        self.result = result

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        return Measurement(30, 80)

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        yield retention_chart(self.result, min(80, options.max_width))
