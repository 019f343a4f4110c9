"""Times and durations in the player's words."""

from __future__ import annotations

from datetime import datetime


def until(due: datetime, now: datetime) -> str:
    """'now', 'in 10 minutes', 'in 3 hours', 'in 2 days', 'in 5 months'."""
    seconds = (due - now).total_seconds()
    if seconds <= 0:
        return "now"
    if seconds < 60:
        return "in under a minute"
    for size, unit in (
        (365 * 86400, "year"),
        (30 * 86400, "month"),
        (86400, "day"),
        (3600, "hour"),
        (60, "minute"),
    ):
        if seconds >= size:
            count = round(seconds / size)
            return f"in {count} {unit}{'s' * (count != 1)}"
    return "now"  # pragma: no cover


def duration(seconds: float) -> str:
    """'45 s', '3 min 05 s', '1 h 02 min'."""
    seconds = max(0, int(round(seconds)))
    if seconds < 60:
        return f"{seconds} s"
    minutes, secs = divmod(seconds, 60)
    if minutes < 60:
        return f"{minutes} min {secs:02d} s"
    hours, minutes = divmod(minutes, 60)
    return f"{hours} h {minutes:02d} min"
