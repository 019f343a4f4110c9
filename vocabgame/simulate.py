"""`vocabgame simulate`: what each desired retention would cost over the next days.

For each retention of a grid from 0.70 to 0.97, FSRS's own simulator (`fsrs_rs_python.
simulate`, the Rust FSRS that Anki runs) plays the player's decks day by day: the faces start
at the new items a day the settings allow, each review is drawn from the memory that the
parameters in force predict, and every answer takes the player's own time. What comes out, per
retention: the reviews a day and the minutes a day, averaged over the days, and the share of
the decks' faces remembered at the end. The retention whose minutes buy the most remembered
faces (the least cost per face remembered) is marked.

The simulator starts every face afresh (the library takes no existing schedules), so it says
what the decks cost to learn from today; with many faces learned already the first weeks'
reviews run higher than it says. It is seeded: the same inputs give the same figures. When
more than `SAMPLE` faces would start within the days, a sample of the deck is simulated at
the same pace and its counts scaled back up.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from statistics import median
from typing import Any

from vocabgame.settings import Settings
from vocabgame.srs import DEFAULT_PARAMETERS
from vocabgame.store import Store

# The retentions compared: the setting's range, in steps of 0.05 up to 0.95, then 0.97.
GRID = (0.70, 0.75, 0.80, 0.85, 0.90, 0.95, 0.97)
SPANS = (30, 90, 365)  # the days `vocabgame simulate --days` offers
SEED = 42  # one seed for every retention, so their differences are not the draw's
# The player's own answer times count once this many answers were timed: the median of a
# few dozen is steady to a second or so; below it the library's times (Anki users') apply.
MIN_TIMED = 30
RECENT = 200  # the answers whose times are read (the newest), as the home screen's estimate
# More faces started within the days simulated are simulated as a sample of this many:
# 2,000 take about 20 ms a retention over 30 days (0.1 s over a year), 60,000 over a second.
SAMPLE = 2000


@dataclass(frozen=True, slots=True)
class Inputs:
    """What the simulation is run on."""

    parameters: tuple[float, ...]  # the 21 FSRS parameters in force
    faces: int  # the decks' faces (questions), all started afresh
    new_per_day: int  # new faces a day
    seconds: float | None  # seconds per answer; None: the library's, by state and rating
    current: float  # the desired retention set now

    def as_json(self) -> dict[str, Any]:
        return {
            "faces": self.faces,
            "new_faces_per_day": self.new_per_day,
            "seconds_per_answer": self.seconds,
            "desired_retention": self.current,
            "parameters": list(self.parameters),
        }


@dataclass(frozen=True, slots=True)
class Point:
    """What one desired retention costs and gives over the days simulated."""

    retention: float
    reviews_per_day: float  # answers to faces started on an earlier day, a day on average
    minutes_per_day: float  # every answer's time (new faces, their steps, reviews), a day
    remembered: float  # the share of the faces recalled on the last day (0 to 1)
    minutes_per_face: float  # all the minutes over the faces remembered at the end

    def as_json(self) -> dict[str, float]:
        return {
            "retention": self.retention,
            "reviews_per_day": round(self.reviews_per_day, 2),
            "minutes_per_day": round(self.minutes_per_day, 2),
            "remembered": round(self.remembered, 4),
            "minutes_per_face_remembered": round(self.minutes_per_face, 4),
        }


@dataclass(frozen=True, slots=True)
class Forecast:
    """The grid over `days` days, with the cheapest retention marked."""

    days: int
    inputs: Inputs
    points: tuple[Point, ...]
    daily_reviews: tuple[tuple[float, ...], ...]  # per point, the reviews of each day

    @property
    def cheapest(self) -> float | None:
        """The retention with the fewest minutes per face remembered (None: nothing to learn)."""
        if not self.points or self.inputs.faces == 0:
            return None
        return min(self.points, key=lambda p: (p.minutes_per_face, p.retention)).retention

    def point(self, retention: float) -> Point | None:
        return next((p for p in self.points if abs(p.retention - retention) < 1e-9), None)

    def as_json(self) -> dict[str, Any]:
        """The command contract of `vocabgame simulate --json` (docs/stats-json.md)."""
        return {
            "days": self.days,
            "inputs": self.inputs.as_json(),
            "cheapest": self.cheapest,
            "grid": [p.as_json() for p in self.points],
        }


def grid_with(current: float) -> tuple[float, ...]:
    """The grid, with the retention set now among it (if it is not a grid value)."""
    return tuple(sorted({*GRID, round(current, 4)}))


def new_faces_a_day(sizes: Sequence[tuple[int, int]], new_items_per_day: int) -> int:
    """New faces a day, from each deck's (items, faces): each deck starts up to
    `new_items_per_day` items a day, and an item starts with all its faces (a term counts
    once, though asked three ways)."""
    return sum(round(new_items_per_day * n_faces / items) for items, n_faces in sizes if items)


def inputs(store: Store, sizes: Sequence[tuple[int, int]], settings: Settings) -> Inputs:
    """The simulation's inputs for this player: the parameters in force, the faces of the
    decks (`sizes`: each deck's items and faces, `stats.deck_sizes`), the new items a day of
    the settings, and the median of the newest answers' times."""
    history, _ = store.preferences.parameters()
    recent = store.answers.recent_response_ms(RECENT)
    return Inputs(
        parameters=history[-1][1] if history else DEFAULT_PARAMETERS,
        faces=sum(n for _, n in sizes),
        new_per_day=new_faces_a_day(sizes, settings.new_per_day),
        seconds=median(recent) / 1000 if len(recent) >= MIN_TIMED else None,
        current=settings.desired_retention,
    )


def forecast(given: Inputs, days: int, grid: Sequence[float] = GRID) -> Forecast:
    """Simulate `days` days at each retention of `grid` (see the module's docstring)."""
    runs = [simulate_one(given, days, retention) for retention in grid]
    return Forecast(days, given, tuple(p for p, _ in runs), tuple(d for _, d in runs))


def sample(faces: int, new_per_day: int, days: int) -> tuple[int, int, float]:
    """The deck size and new faces a day to simulate, and the factor that scales its counts
    back up. Only the faces that can start within the days are simulated (the others wait
    unseen, the same at every retention). The work grows with them: past `SAMPLE`, a sample
    is simulated at the same pace (new faces a day in the same proportion to its size), as
    the simulator's faces are independent of one another."""
    started = min(faces, new_per_day * days)
    if started <= SAMPLE or new_per_day <= 1:
        return max(1, started), new_per_day, 1.0
    new = max(1, round(new_per_day * SAMPLE / started))
    scale = new_per_day / new
    return max(1, round(started / scale)), new, scale


def simulate_one(given: Inputs, days: int, retention: float) -> tuple[Point, tuple[float, ...]]:
    """One retention of the grid: its point and the reviews of each day. The library holds
    the interpreter while it runs, so a screen runs one at a time between its events."""
    from fsrs_rs_python import default_simulator_config, simulate

    if given.faces == 0 or days <= 0:
        return Point(retention, 0.0, 0.0, 0.0, 0.0), ()
    deck, new, scale = sample(given.faces, given.new_per_day, days)
    config = default_simulator_config()
    config.deck_size = deck
    config.learn_span = days
    config.learn_limit = new
    config.max_cost_perday = 1e12  # the game sets no cap on a day's time
    if given.seconds is not None:
        config.state_rating_costs = [[given.seconds] * 4 for _ in range(3)]
    result = simulate(list(given.parameters), retention, config, seed=SEED)
    reviews = tuple(float(n) * scale for n in result.review_cnt_per_day)
    minutes = sum(result.cost_per_day) / 60 * scale
    remembered = float(result.memorized_cnt_per_day[-1])
    point = Point(
        retention,
        sum(reviews) / days,
        minutes / days,
        remembered * scale / given.faces,
        minutes / (remembered * scale) if remembered else float("inf"),
    )
    return point, reviews


__all__ = [
    "GRID",
    "SPANS",
    "Forecast",
    "Inputs",
    "Point",
    "forecast",
    "grid_with",
    "inputs",
    "new_faces_a_day",
    "sample",
    "simulate_one",
]
