"""The retention simulator (`vocabgame simulate`, the settings screen's chart) at the heavy
history: the player's inputs read from the store, then the grid simulated.

The baseline is the library alone: `fsrs_rs_python.simulate` once per retention of the same
grid, on the same configuration (the same sample of the deck, the same days). The simulation
is the work; nothing vocabgame does around it (reading the parameters in force and the answer
times from a store of 1M answers, counting the faces of 100k, shaping the grid) may add much
to it, whatever the history's size. The settings screen's own opening is `screen-settings`.
"""

from __future__ import annotations

import gc
import statistics
import time
from collections.abc import Callable
from typing import TYPE_CHECKING

from benchmarks.measure import Row

if TYPE_CHECKING:
    from benchmarks.figures import Context

FIGURES = (
    ("simulate-30", "the retention grid over 30 days vs the library's simulations alone: <= 1.2x"),
    ("simulate-365", "the same over 365 days: <= 1.2x"),
)


def _alternating(
    ours: Callable[[], object], base: Callable[[], object], runs: int
) -> tuple[float, float]:
    """The medians, in ms, of `runs` timings of each, taken in turn (ours, base, ours, ...):
    both sides see the same moments of a busy machine."""
    times: tuple[list[float], list[float]] = ([], [])
    for _ in range(runs):
        for side, fn in enumerate((ours, base)):
            start = time.perf_counter()
            fn()
            times[side].append(time.perf_counter() - start)
    return statistics.median(times[0]) * 1000, statistics.median(times[1]) * 1000


def simulator(ctx: Context) -> list[Row]:
    from fsrs_rs_python import default_simulator_config, simulate

    from benchmarks.big import FACES
    from vocabgame.deck import load_catalog
    from vocabgame.settings import Settings
    from vocabgame.simulate import SEED, forecast, grid_with, inputs, sample
    from vocabgame.stats import deck_sizes
    from vocabgame.store import DB_NAME, Store

    s = ctx.scale
    catalog = load_catalog([ctx.inputs.deck_folder(s.history_items)])
    store = Store.open(ctx.inputs.history(s.history_items, s.history_reviews) / DB_NAME)
    settings = Settings()
    deck_sizes(catalog.decks)  # each deck's shape, worked out once as a session's start does
    gc.collect()
    try:
        given = inputs(store, deck_sizes(catalog.decks), settings)
        grid = grid_with(given.current)

        def library(days: int) -> None:
            deck, new, _ = sample(given.faces, given.new_per_day, days)
            for retention in grid:
                config = default_simulator_config()
                config.deck_size, config.learn_span, config.learn_limit = deck, days, new
                config.max_cost_perday = 1e12
                if given.seconds is not None:  # the player's answer times, as the grid's
                    config.state_rating_costs = [[given.seconds] * 4 for _ in range(3)]
                simulate(list(given.parameters), retention, config, seed=SEED)

        rows = []
        for row_id, days, most in (("simulate-30", 30, 1.2), ("simulate-365", 365, 1.2)):
            ours, base = _alternating(
                lambda days=days: forecast(
                    inputs(store, deck_sizes(catalog.decks), settings), days, grid
                ),
                lambda days=days: library(days),
                s.runs,
            )
            faces = s.history_items * len(FACES)
            rows.append(
                Row(
                    row_id,
                    f"the grid of {len(grid)} retentions over {days} days, {faces:,} faces, "
                    f"{s.history_reviews:,} answers, inputs read from the store",
                    ours,
                    "ms",
                    base,
                    "fsrs_rs_python.simulate alone, the same runs",
                    max_ratio=most,
                )
            )
    finally:
        store.close()
    return rows
