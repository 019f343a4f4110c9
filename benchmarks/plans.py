"""Every store query the home screen, a round's plans and the stats run, with SQLite's plan.

    python -m benchmarks.plans [--quick | --smoke] [--scratch DIR]

It opens a generated store (100k faces and a million answers; --quick: 3,000 faces and
100k answers; --smoke: 600 faces and 10k answers), runs each piece of work once with the
connection's statements traced, and prints each distinct query (shortened) with `EXPLAIN QUERY PLAN` for it. A plan line that
says SCAN over `reviews` reads every answer ever given: none of these should.
"""

from __future__ import annotations

import argparse
import re
import sqlite3
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from benchmarks.figures import FULL, QUICK, SMOKE, Scale, fixed_clock
from benchmarks.inputs import Inputs

WORK: tuple[tuple[str, Callable[[Any], object]], ...] = (
    ("home screen", lambda s: s.home()),
    ("plan a round", lambda s: s.plan(None, 20)),
    ("plan a cram round", lambda s: s.plan(None, 20, "cram")),
    ("plan an interview", lambda s: s.plan(None, 20, "interview")),
    ("stats figures", lambda s: s.stats()),
    ("stats screen", lambda s: s.insights()),
)


def traced(conn: sqlite3.Connection, work: Callable[[], object]) -> list[str]:
    """The distinct queries `work` runs on `conn`, in the order first run."""
    seen: list[str] = []
    conn.set_trace_callback(seen.append)
    try:
        work()
    finally:
        conn.set_trace_callback(None)
    queries: list[str] = []
    for statement in seen:
        text = " ".join(statement.split())
        if text.upper().startswith(("SELECT", "WITH")) and text not in queries:
            queries.append(text)
    return queries


def shorten(query: str, width: int = 160) -> str:
    """A query as printed: long literals (a deck's JSON, say) cut to their start."""
    query = re.sub(r"'([^']{40})[^']*'", r"'\1…'", query)
    return query if len(query) <= width else query[: width - 1] + "…"


_NOT_ALIASES = {"WHERE", "JOIN", "ON", "GROUP", "ORDER", "LIMIT", "INNER", "LEFT", "USING"}


def scans_of_reviews(query: str, plan: list[str], partial: frozenset[str] = frozenset()) -> int:
    """Plan lines that read the whole `reviews` table, by its name or its alias here. A scan
    of a partial index (`partial`: their names) reads only the few rows it holds, not the
    table."""
    names = {"reviews"} | {
        alias
        for alias in re.findall(r"\breviews\s+(?:AS\s+)?(\w+)", query, flags=re.IGNORECASE)
        if alias.upper() not in _NOT_ALIASES
    }
    return sum(
        1
        for line in plan
        if line.startswith("SCAN ")
        and line.split()[1] in names
        and not any(line.endswith(f" INDEX {index}") for index in partial)
    )


def partial_indexes(conn: sqlite3.Connection) -> frozenset[str]:
    """The names of the partial indexes on `reviews` (those with a WHERE)."""
    rows = conn.execute(
        "SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'reviews'"
        " AND sql IS NOT NULL"
    )
    return frozenset(name for name, sql in rows if re.search(r"\bWHERE\b", sql, re.IGNORECASE))


def plans(conn: sqlite3.Connection, query: str) -> list[str]:
    return [row[-1] for row in conn.execute(f"EXPLAIN QUERY PLAN {query}")]


@contextmanager
def heavy_session(quick: bool | Scale, scratch: Path | None) -> Iterator[Any]:
    """A game session over the generated heavy history (100k faces and a million answers;
    `quick`: 3,000 faces and 100k answers; or a scale's history), kept in `scratch` or a
    temporary folder, with each deck's shape worked out (once per loaded deck, not a store
    query); closed afterwards."""
    from vocabgame.deck import load_catalog
    from vocabgame.play import Session
    from vocabgame.store import DB_NAME, Store

    scale = quick if isinstance(quick, Scale) else QUICK if quick else FULL
    with tempfile.TemporaryDirectory() as tmp:
        inputs = Inputs(scratch or Path(tmp))
        catalog = load_catalog([inputs.deck_folder(scale.history_items)])
        data = inputs.history(scale.history_items, scale.history_reviews)
        session = Session(Store.open(data / DB_NAME), catalog, clock=fixed_clock)
        try:
            session.home()
            yield session
        finally:
            session.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.plans", description=__doc__)
    parser.add_argument("--quick", action="store_true", help="a smaller store (100k answers)")
    parser.add_argument(
        "--smoke",
        action="store_true",
        help="the smallest store (10k answers; the plans are the same: no store is analysed)",
    )
    parser.add_argument("--scratch", type=Path, help="where generated inputs are kept")
    args = parser.parse_args(argv)

    scans = 0
    with heavy_session(SMOKE if args.smoke else args.quick, args.scratch) as session:
        partial = partial_indexes(session.store.conn)
        for name, work in WORK:
            queries = traced(session.store.conn, lambda work=work: work(session))  # type: ignore[misc]
            print(f"## {name}: {len(queries)} distinct queries\n")
            for query in queries:
                print(f"    {shorten(query)}")
                plan = plans(session.store.conn, query)
                scans += scans_of_reviews(query, plan, partial)
                for line in plan:
                    print(f"        {line}")
                print()
    print(f"full scans of reviews: {scans}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
