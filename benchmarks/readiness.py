"""The readiness for an interview at 100k faces (`--only readiness`).

A session over the heavy history (100k faces, 1M answers; --quick: 3k faces, 100k answers)
works out what home and `stats --json` show with an interview date set: the items each deck
must still start today, the questions to bring forward and the readiness over every face
(`InterviewPlan.readiness`). Its baseline, in the same run and on the same store: the home
screen's data without an interview date (`Session.home`), which the readiness is added to
when one is set. The interview date is given to the session alone, never saved, so the kept
inputs stay as generated.
"""

from __future__ import annotations

import gc
from dataclasses import replace
from datetime import timedelta
from typing import TYPE_CHECKING

from benchmarks import big
from benchmarks.measure import Row, median_time

if TYPE_CHECKING:
    from benchmarks.figures import Context

FIGURES = (
    (
        "readiness",
        "interview readiness at 100k faces, 1M answers: <= 2x the home screen's data",
    ),
)


def readiness(ctx: Context) -> list[Row]:
    from vocabgame.deck import load_catalog
    from vocabgame.play import Session
    from vocabgame.store import DB_NAME, Store

    s = ctx.scale
    catalog = load_catalog([ctx.inputs.deck_folder(s.history_items)])
    data = ctx.inputs.history(s.history_items, s.history_reviews)
    session = Session(Store.open(data / DB_NAME), catalog, clock=lambda: big.NOW)
    day = (big.NOW + timedelta(days=10)).date().isoformat()
    session.settings = replace(session.settings, interview_date=day)  # not saved
    ready = session.interview.readiness()
    assert ready is not None and ready.questions == s.history_items * len(big.FACES)
    plain = Session(Store.open(data / DB_NAME), catalog, clock=lambda: big.NOW)  # no date
    plain.home()
    gc.collect()
    gc.freeze()  # as the game does once started: what was loaded is not walked again
    try:
        ours = median_time(session.interview.readiness, s.runs)
        base = median_time(plain.home, s.runs)
    finally:
        gc.unfreeze()
        session.close()
        plain.close()
    faces = s.history_items * len(big.FACES)
    return [
        Row(
            "readiness",
            f"interview readiness with today's plan (home, stats --json), {faces:,} faces,"
            f" {s.history_reviews:,} answers",
            ours,
            "ms",
            base,
            "the home screen's data without an interview date, same store",
            max_ratio=2.0,
        )
    ]
