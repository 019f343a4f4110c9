"""Side by side with Anki (optional: `python -m benchmarks --only anki`; skipped, saying why,
without the `anki` package, which is no dependency of vocabgame).

An Anki collection of the heavy history's size is built once into the inputs folder: 100,002
cards (one Basic note each) in one deck, every card a review card, due over the next two
months (as many due today as the generated store has due faces, about 1.6%), and 1,000,000
review log entries over the year before. Both keep WAL files with synchronous=FULL. Each pair
is timed in this process, vocabgame on a copy of the generated store of the same size:

- open: `Collection(path)` against `Store.open` and a `Session` (decks already loaded);
- the deck list with due counts: `sched.deck_due_tree()` against `Session.home()`;
- the queue: `sched.get_queued_cards(fetch_limit=20)` as first built after an open (Anki
  keeps the queue once built) against planning a round of 20;
- an answer with its commit: `sched.answer_card` against a round's answer, saved;
- the stats: Anki's graphs of the deck over a year against the stats screen's figures.
"""

from __future__ import annotations

import importlib.util
import random
import shutil
import statistics
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from benchmarks import big
from benchmarks.measure import Row, median_time

if TYPE_CHECKING:
    from benchmarks.figures import Context

FIGURES = (
    ("anki-open", "open the store vs Anki's Collection(): <= 1.0x"),
    ("anki-deck-list", "home data vs Anki's deck list with due counts: <= 1.0x"),
    ("anki-queue", "plan a round of 20 vs Anki's queue of 20: <= 1.0x"),
    ("anki-answer", "an answer with its commit vs Anki's answer_card: <= 1.0x"),
    ("anki-stats", "the stats screen's figures vs Anki's graphs of a year: <= 1.0x"),
)
WHAT = dict(FIGURES)


def side_by_side(ctx: Context) -> list[Row]:
    if importlib.util.find_spec("anki") is None:
        reason = "skipped: the anki package is not installed (pip install anki)"
        return [Row(row_id, f"{about} ({reason})", float("nan"), "ms") for row_id, about in FIGURES]
    s = ctx.scale
    cards = s.history_items * len(big.FACES)
    collection = ctx.inputs.folder / f"anki-{cards}-{s.history_reviews}"
    if not (collection / ".complete").exists():
        shutil.rmtree(collection, ignore_errors=True)
        collection.mkdir(parents=True)
        print("  generating an Anki collection ...", flush=True)
        _build(collection / "collection.anki2", cards, s.history_reviews)
        (collection / ".complete").write_text("", encoding="utf-8")
    work = ctx.work / "anki"
    shutil.copytree(collection, work)
    data = ctx.work / "anki-vocabgame"
    shutil.copytree(ctx.inputs.history(s.history_items, s.history_reviews), data)
    try:
        ours = _vocabgame(data, ctx.inputs.deck_folder(s.history_items), s.runs)
        theirs = _anki(work / "collection.anki2", s.runs)
    finally:
        shutil.rmtree(work, ignore_errors=True)
        shutil.rmtree(data, ignore_errors=True)
    where = f"{cards:,} cards, {s.history_reviews:,} answers"
    return [
        Row(
            row_id,
            f"{WHAT[row_id].split(' vs ')[0]}, {where} (in the process)",
            ours[row_id],
            "ms",
            theirs[row_id],
            "Anki " + WHAT[row_id].split(" vs Anki's ")[1].split(":")[0],
            max_ratio=1.0,
        )
        for row_id, _ in FIGURES
    ]


def _build(path: Path, cards: int, reviews: int) -> None:
    """The notes through Anki; the schedules and the review log written with SQLite itself
    (through Anki's own database calls, a row each, a million rows take most of an hour)."""
    import sqlite3

    from anki.collection import AddNoteRequest, Collection

    col = Collection(str(path))
    try:
        model = col.models.by_name("Basic")
        assert model is not None
        deck_id = col.decks.id("big")
        assert deck_id is not None
        requests = []
        for i in range(cards):
            note = col.new_note(model)
            note["Front"], note["Back"] = f"Term number {i}", f"The meaning of term number {i}"
            requests.append(AddNoteRequest(note, deck_id))
        col.add_notes(requests)
        col.decks.select(deck_id)
        today = col.sched.today
    finally:
        col.close()
    rng = random.Random(1)
    conn = sqlite3.connect(path)
    try:
        ids = [cid for (cid,) in conn.execute("SELECT id FROM cards")]
        # ~1.6% due today, the rest over the next two months: as the generated store
        conn.executemany(
            "UPDATE cards SET type = 2, queue = 2, due = ?, ivl = ?, factor = 2500, reps = ?"
            " WHERE id = ?",
            [(today + rng.randrange(0, 62), rng.randrange(1, 60), 10, cid) for cid in ids],
        )
        start_ms = int((big.NOW.timestamp() - 365 * 86400) * 1000)
        step = 365 * 86400 * 1000 // reviews
        conn.executemany(
            "INSERT INTO revlog (id, cid, usn, ease, ivl, lastIvl, factor, time, type)"
            " VALUES (?, ?, -1, ?, ?, ?, 2500, ?, 1)",
            (
                (start_ms + n * step, ids[n % len(ids)], rng.choice((1, 3, 3, 3, 4)), 10, 5, 8000)
                for n in range(reviews)
            ),
        )
        conn.commit()
    finally:
        conn.close()


def _anki(path: Path, runs: int) -> dict[str, float]:
    from anki.collection import Collection

    def open_close() -> None:
        Collection(str(path)).close()

    out = {"anki-open": median_time(open_close, runs)}
    # Anki keeps a study queue once built (fetched again in about half a millisecond) and
    # builds it anew after an open or a change: what a round's plan compares with is that
    # build, timed as the first fetch after each open (the open itself not timed).
    builds = []
    for _ in range(runs):
        fresh = Collection(str(path))
        try:
            deck_id = fresh.decks.id("big")
            assert deck_id is not None
            fresh.decks.select(deck_id)
            start = time.perf_counter()
            fresh.sched.get_queued_cards(fetch_limit=20)
            builds.append(time.perf_counter() - start)
        finally:
            fresh.close()
    out["anki-queue"] = statistics.median(builds) * 1000
    col = Collection(str(path))
    try:
        deck_id = col.decks.id("big")
        assert deck_id is not None
        col.decks.select(deck_id)
        out["anki-deck-list"] = median_time(col.sched.deck_due_tree, runs)
        times = []
        for _ in range(20 * runs):
            due = col.sched.get_queued_cards(fetch_limit=1).cards
            if not due:
                break
            queued = due[0]
            card = col.get_card(queued.card.id)
            card.start_timer()
            answer = col.sched.build_answer(card=card, states=queued.states, rating=3)
            start = time.perf_counter()
            col.sched.answer_card(answer)
            times.append(time.perf_counter() - start)
        out["anki-answer"] = statistics.median(times) * 1000
        out["anki-stats"] = median_time(
            lambda: col._backend.graphs(search="deck:big", days=365), runs
        )
    finally:
        col.close()
    return out


def _vocabgame(data: Path, decks: Path, runs: int) -> dict[str, float]:
    from vocabgame.deck import load_catalog
    from vocabgame.play import Session
    from vocabgame.store import DB_NAME, Store

    catalog = load_catalog([decks])

    def clock() -> Any:
        return big.NOW

    def open_close() -> None:
        Session(Store.open(data / DB_NAME), catalog, clock=clock).close()

    open_close()  # the first open keeps each deck's order of new items (once per store)
    out = {"anki-open": median_time(open_close, runs)}
    session = Session(Store.open(data / DB_NAME), catalog, clock=clock, fuzz=False)
    try:
        session.home()  # each deck's shape, once per loaded deck (as the game on its launch)
        out["anki-deck-list"] = median_time(session.home, runs)
        out["anki-queue"] = median_time(lambda: session.plan(None, 20), runs)
        times = []
        round_ = session.start_round(None, size=20, seed=1)
        while len(times) < 20 * runs:
            if round_ is None or (question := round_.question()) is None:
                round_ = session.start_round(None, size=20, seed=len(times))
                if round_ is None:
                    raise RuntimeError("nothing left to answer in the generated store")
                continue
            start = time.perf_counter()
            if question.choices:
                round_.answer_choice(0)
            else:
                round_.answer_text("1")
            times.append(time.perf_counter() - start)
            round_.advance()
        out["anki-answer"] = statistics.median(times) * 1000
        out["anki-stats"] = median_time(session.insights, runs)
    finally:
        session.close()
    return out
