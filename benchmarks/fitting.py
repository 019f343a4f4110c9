"""Fitting the scheduler to a player (`vocabgame optimize`) on a history of 100,000 answers.

The baseline is the library alone: `fsrs_rs_python`'s own time-series evaluation
(`evaluate_with_time_series_splits`, the five fits srs-benchmark makes) and the final fit
(`compute_parameters`), on the same training items built beforehand. The fits are the work;
what vocabgame adds around them (reading the scheduled answers from the store, building the
items, predicting the held-out answers under both sets and scoring them) must stay small
beside them.
"""

from __future__ import annotations

import gc
from typing import TYPE_CHECKING

from benchmarks.measure import Row
from benchmarks.simulate import _alternating

if TYPE_CHECKING:
    from benchmarks.figures import Context

FIGURES = (
    (
        "optimize",
        "fit the scheduler to 100k answers (optimize) vs the library's split and fit alone:"
        " <= 1.5x",
    ),
)
HISTORY_ITEMS = 1_000  # 3,000 faces: about 33 answers each, most a day or more apart
HISTORY_REVIEWS = 100_000


def _training(histories: list[list[tuple[object, int]]], days: object) -> list[object]:
    """The library's training items, as srs-benchmark makes them: for every answer a day or
    more after its face's previous one, the face's answers up to it, in the order given."""
    from fsrs_rs_python import FSRSItem, FSRSReview

    timed = []
    for history in histories:
        pairs = [
            (rating, 0 if n == 0 else days(history[n - 1][0], at))  # type: ignore[operator]
            for n, (at, rating) in enumerate(history)
        ]
        for n in range(1, len(pairs)):
            if pairs[n][1] > 0:
                item = FSRSItem([FSRSReview(r, t) for r, t in pairs[: n + 1]])
                timed.append((history[n][0], item))
    timed.sort(key=lambda pair: pair[0])  # type: ignore[arg-type, return-value]
    return [item for _, item in timed]


def fitting(ctx: Context) -> list[Row]:
    from fsrs_rs_python import DEFAULT_PARAMETERS, FSRS, evaluate_with_time_series_splits

    from vocabgame.optimize import day_count, fit
    from vocabgame.store import DB_NAME, Store

    s = ctx.scale
    items, reviews = (
        (s.history_items, s.history_reviews) if s.quick else (HISTORY_ITEMS, HISTORY_REVIEWS)
    )
    store = Store.open(ctx.inputs.history(items, reviews) / DB_NAME)
    try:
        days = day_count(store)
        histories, _ = store.answers.scheduled_histories()
        training = _training(histories, days)  # type: ignore[arg-type]
        gc.collect()

        def ours() -> None:
            found, _ = store.answers.scheduled_histories()
            fit(found, day_count(store))

        def library() -> None:
            evaluate_with_time_series_splits(training)
            FSRS(list(DEFAULT_PARAMETERS)).compute_parameters(training)

        ours_ms, base_ms = _alternating(ours, library, 1 if s.quick else 3)
    finally:
        store.close()
    answers = sum(len(h) for h in histories)
    return [
        Row(
            "optimize",
            f"fit the scheduler to {answers:,} answers over {items * 3:,} faces (optimize)",
            ours_ms,
            "ms",
            base_ms,
            f"fsrs_rs_python's time-series split and fit alone on the {len(training):,} same items",
            max_ratio=1.5,
        )
    ]
