"""How well the player's own judgement matches what happened: in a mock interview the player
says, after each answer and before any model answer is shown, how sure they are (one of four
levels, each a chance of being right), and these figures compare that with the answers
counted right.

- The **Brier score** is the mean of (chance said - outcome)², the outcome 1 for a right
  answer and 0 for a wrong one: 0 is perfect, always saying 50% scores 0.25, and saying 95%
  of an answer that was wrong costs 0.9025.
- The **calibration table** puts the answers of each level side by side with how often they
  were right: a player who is well calibrated is right about 75% of the time they say 75%.

Pure functions of (chance said, right) pairs; nothing here reads the store or a clock.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any


@dataclass(frozen=True, slots=True)
class Level:
    """One of the keys a player says how sure they are with: its chance of being right."""

    key: int
    said: float
    label: str

    @property
    def name(self) -> str:
        """The level as the player sees it: "3 fairly sure (75%)"."""
        return f"{self.key} {self.label} ({self.said:.0%})"


# Equal steps up from a blind pick among four choices (25%); "certain" is 95%, not 100%:
# even a sure answer slips now and then, about one in twenty.
LEVELS = (
    Level(1, 0.25, "guessing"),
    Level(2, 0.50, "unsure"),
    Level(3, 0.75, "fairly sure"),
    Level(4, 0.95, "certain"),
)
BY_KEY = {level.key: level for level in LEVELS}
ABOUT_RIGHT = 0.05  # said and right this close (5 points) reads as calibrated


def level(key: int) -> Level:
    """The level of key `key` (1 to 4); KeyError for any other."""
    return BY_KEY[key]


def nearest(said: float) -> Level:
    """The level whose chance is nearest `said` (a chance from an imported file may be any
    share from 0 to 1); the lower one on a tie."""
    return min(LEVELS, key=lambda lv: (abs(lv.said - said), lv.said))


def brier(pairs: Iterable[tuple[float, bool]]) -> float | None:
    """The mean of (chance said - outcome)² over (chance said, right) pairs, the outcome 1 for
    right and 0 for wrong; None for no pairs."""
    total, count = 0.0, 0
    for said, right in pairs:
        total += (said - (1.0 if right else 0.0)) ** 2
        count += 1
    return total / count if count else None


@dataclass(frozen=True, slots=True)
class Row:
    """One line of the calibration table: the answers said at one level and how many of them
    were right; `said` is the mean chance given (the level's own, unless a file brought
    others)."""

    level: Level
    answers: int
    right: int
    said: float

    @property
    def right_share(self) -> float | None:
        return self.right / self.answers if self.answers else None


@dataclass(frozen=True, slots=True)
class Calibration:
    """The answers with a confidence said: how many, how many right, the mean chance said,
    the Brier score, and the table (a row per level, in level order, empty ones too)."""

    answers: int
    right: int
    said: float | None
    brier: float | None
    rows: tuple[Row, ...]

    @property
    def right_share(self) -> float | None:
        return self.right / self.answers if self.answers else None

    def verdict(self) -> str:
        """One sentence on the gap between how sure the player was and how often right."""
        return verdict(self.said, self.right_share)

    def as_json(self) -> dict[str, Any]:
        """As `stats --json` and the interview report keep it (docs/stats-json.md)."""
        return {
            "answers": self.answers,
            "right": self.right,
            "said": _rounded(self.said),
            "right_share": _rounded(self.right_share),
            "brier": _rounded(self.brier),
            "levels": [
                {
                    "level": row.level.key,
                    "label": row.level.label,
                    "said": _rounded(row.said),
                    "answers": row.answers,
                    "right": row.right,
                    "right_share": _rounded(row.right_share),
                }
                for row in self.rows
            ],
        }


def verdict(said: float | None, right: float | None) -> str:
    """One sentence on the gap between the mean chance said and the share right."""
    if said is None or right is None:
        return "No answer with a confidence said yet."
    gap = said - right
    where = f"You said {said:.0%} on average and were right {right:.0%} of the time"
    if abs(gap) < ABOUT_RIGHT:
        return f"{where}: about as sure as you were right."
    points = round(abs(gap) * 100)
    return f"{where}: {'over' if gap > 0 else 'under'}confident by {points} points."


def score_text(brier: float) -> str:
    """A Brier score as shown: to 3 places, from the 4 that are kept (so a report and the
    stats show the same digits for the same answers)."""
    return f"{round(brier, 4):.3f}"


def _rounded(value: float | None) -> float | None:
    return None if value is None else round(value, 4)


def calibrate(pairs: Iterable[tuple[float, bool]]) -> Calibration:
    """The figures of (chance said, right) pairs."""
    pairs = list(pairs)
    by_level: dict[int, list[tuple[float, bool]]] = {lv.key: [] for lv in LEVELS}
    for said, right in pairs:
        by_level[nearest(said).key].append((said, right))
    rows = tuple(
        Row(
            lv,
            len(by_level[lv.key]),
            sum(1 for _, right in by_level[lv.key] if right),
            (sum(s for s, _ in by_level[lv.key]) / len(by_level[lv.key]))
            if by_level[lv.key]
            else lv.said,
        )
        for lv in LEVELS
    )
    count = len(pairs)
    return Calibration(
        answers=count,
        right=sum(1 for _, right in pairs if right),
        said=sum(s for s, _ in pairs) / count if count else None,
        brier=brier(pairs),
        rows=rows,
    )


@dataclass(frozen=True, slots=True)
class Period:
    """The calibration of one stretch of time: one mock interview (labelled by its day) or
    one ISO week ("2026-W49")."""

    label: str
    start: datetime
    calibration: Calibration


@dataclass(frozen=True, slots=True)
class Trend:
    """Calibration over time: over every answer, per interview and per week, the last
    `LAST` of each, oldest first."""

    overall: Calibration
    interviews: tuple[Period, ...]
    weeks: tuple[Period, ...]

    def as_json(self) -> dict[str, Any]:
        return self.overall.as_json() | {
            "interviews": [_period_json(p, "day") for p in self.interviews],
            "weeks": [_period_json(p, "week") for p in self.weeks],
        }


LAST = 10  # interviews and weeks a trend keeps
NO_TREND = Trend(calibrate([]), (), ())  # nothing said yet


def _period_json(period: Period, name: str) -> dict[str, Any]:
    c = period.calibration
    return {
        name: period.label,
        "answers": c.answers,
        "said": _rounded(c.said),
        "right_share": _rounded(c.right_share),
        "brier": _rounded(c.brier),
    }


Said = tuple[datetime, int | None, float, bool]  # when, round id, chance said, right


def trend(answers: Sequence[Said], day_of: Callable[[datetime], date], last: int = LAST) -> Trend:
    """Calibration over `answers` (oldest first): overall, per interview (its round; an
    answer of no round is an interview of its own day) and per ISO week of the player's
    days, the last `last` of each."""
    interviews: dict[tuple[int | None, date | None], list[Said]] = {}
    weeks: dict[tuple[int, int], list[Said]] = {}
    for answer in answers:
        at, round_id = answer[0], answer[1]
        day = day_of(at)
        interviews.setdefault((round_id, None if round_id is not None else day), []).append(answer)
        year, week, _ = day.isocalendar()
        weeks.setdefault((year, week), []).append(answer)

    def period(label: str, group: list[Said]) -> Period:
        return Period(label, group[0][0], calibrate((s, r) for _, _, s, r in group))

    by_interview = sorted(
        (period(day_of(g[0][0]).isoformat(), g) for g in interviews.values()),
        key=lambda p: p.start,
    )
    by_week = [period(f"{y}-W{w:02d}", g) for (y, w), g in sorted(weeks.items())]
    return Trend(
        overall=calibrate((s, r) for _, _, s, r in answers),
        interviews=tuple(by_interview[-last:]),
        weeks=tuple(by_week[-last:]),
    )
