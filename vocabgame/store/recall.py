"""Retrievability in SQL, from a card's kept columns (its stability and last review, in
microseconds since 1970), and the reads a big deck's orders by it make day of last review by
day along `cards_recall` instead of a pass over every card: the first page of the order by
recall (cram, the interview, practice's due faces) and the faces fading by a day (readiness).
"""

from __future__ import annotations

import math
import sqlite3
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from vocabgame.srs import as_utc

# What `cards.last_review` counts microseconds from (see `schema.MICROSECONDS`).
EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


# A card's retrievability as fsrs works it out, from its kept columns; its parameters are the
# curve's factor, the moment in microseconds since 1970, and the curve's decay.
RECALL = (
    "CASE WHEN last_review IS NULL OR stability IS NULL THEN 0"
    " ELSE pow(1 + ? * MAX(0, (? - last_review) / 86400000000) / stability, ?) END"
)

# What orders cards as `RECALL` does with no power worked out per card: fsrs's curve falls as
# whole days since the last review over stability grow (factor > 0 > decay), so that ratio,
# largest first, is retrievability, lowest first. A card with no last review or stability
# (retrievability 0) comes before every other, as 0 does; its parameter is the moment.
FORGOTTEN = (
    "CASE WHEN last_review IS NULL OR stability IS NULL THEN -1e300"
    " ELSE -(MAX(0, (? - last_review) / 86400000000) / stability) END"
)


# From this many cards in the decks asked, the first page in the ratio's order is read day
# of last review by day along `cards_recall` (`bounded_first_page`), not by a pass over
# every card; rows read per day at a time.
BOUNDED_FROM = 20_000
DAY_PAGE = 16
DAY = 86_400_000_000  # microseconds
DAY_OF = "last_review / 86400000000"  # a card's day of last review, as cards_recall holds it


def microseconds(moment: datetime) -> int:
    delta = as_utc(moment) - EPOCH
    return (delta.days * 86400 + delta.seconds) * 1_000_000 + delta.microseconds


def curve_at(curve: tuple[float, float], moment: datetime) -> tuple[float, int, float]:
    """The parameters `RECALL` takes for retrievability at `moment`."""
    return curve[0], microseconds(moment), curve[1]


def python_pow(base: float, exponent: float) -> float:
    return float(base) ** float(exponent)


def days_old(at: int, reviewed: Any) -> float:
    """The most whole days a card last reviewed on day `reviewed` (as `DAY_OF` gives it) can
    be old at `at` (microseconds since 1970): a real number where the column holds one."""
    if isinstance(reviewed, int):
        return max(0, at // DAY - reviewed)
    return max(0.0, at / DAY - reviewed)


def many_cards(conn: sqlite3.Connection, ids: list[str]) -> bool:
    """Whether these decks hold `BOUNDED_FROM` cards or more (counted up to that)."""
    held = conn.execute(
        f"SELECT COUNT(*) FROM (SELECT 1 FROM cards WHERE deck_id IN"
        f" ({','.join('?' * len(ids))}) LIMIT ?)",
        (*ids, BOUNDED_FROM),
    ).fetchone()[0]
    return bool(held >= BOUNDED_FROM)


def review_days(conn: sqlite3.Connection, deck_id: str) -> list[Any]:
    """The UTC days (days since 1970) of the deck's cards' last reviews as cards_recall
    holds them, earliest first: one seek a day along the index."""
    return [
        day
        for (day,) in conn.execute(
            f"WITH RECURSIVE t(d) AS (SELECT (SELECT MIN({DAY_OF}) FROM cards"
            f" WHERE deck_id = ?1) UNION ALL SELECT (SELECT MIN({DAY_OF}) FROM cards"
            f" WHERE deck_id = ?1 AND {DAY_OF} > t.d) FROM t WHERE t.d IS NOT NULL)"
            " SELECT d FROM t WHERE d IS NOT NULL",
            (deck_id,),
        )
    ]


def bounded_first_page(
    conn: sqlite3.Connection, ids: list[str], now: int, then: str, due_by: str | None, size: int
) -> list[Any] | None:
    """The first `size` rows of `_by_recall`'s order in the ratio's form, exactly, read
    along `cards_recall` (each deck's cards by the day of their last review, then by
    stability): the cards of one such day are at most its days since `now` old, so the
    best ratio a day's unread cards can have is those days over the last stability read
    there, and a day is read no further once that cannot beat the page's last row. The
    cards no day bounds (no last review, no stability above 0) are read first, from
    their indexes. None where the decks hold fewer than `BOUNDED_FROM` cards: a pass
    over them is quicker."""
    if not many_cards(conn, ids):
        return None
    due, due_args = ("", ()) if due_by is None else (" AND due <= ?", (due_by,))
    select = f"SELECT COALESCE({FORGOTTEN}, -2e300) AS r, {then}, stability, item_id, face"
    rows: list[Any] = []
    for deck_id in ids:
        for index, unbounded in (
            ("cards_recall", f"{DAY_OF} IS NULL"),
            # (left to itself, SQLite walks the deck's whole cards_recall for these)
            ("cards_weak", "stability IS NULL AND last_review IS NOT NULL"),
            ("cards_weak", "stability <= 0 AND last_review IS NOT NULL"),
        ):
            rows += conn.execute(
                f"{select} FROM cards INDEXED BY {index} WHERE deck_id = ? AND {unbounded}{due}",
                (now, deck_id, *due_args),
            ).fetchall()
    # per day read: the last (stability, item, face) read there; None: none yet
    kept: dict[tuple[str, Any], tuple[float, str, str] | None] = {
        (deck_id, day): None for deck_id in ids for day in review_days(conn, deck_id)
    }
    first = (
        f"{select} FROM cards WHERE deck_id = ? AND {DAY_OF} = ? AND stability > 0{due}"
        " ORDER BY stability, item_id, face LIMIT ?"
    )
    more = (
        f"{select} FROM cards WHERE deck_id = ? AND {DAY_OF} = ?"
        f" AND (stability, item_id, face) > (?, ?, ?){due} ORDER BY stability, item_id, face"
        " LIMIT ?"
    )
    while True:
        rows.sort(key=lambda row: row[:-3])
        worst = rows[size - 1][0] if len(rows) >= size else math.inf
        wanted = []
        for (deck_id, day), last in kept.items():
            if last is None:
                wanted.append((deck_id, day))
                continue
            if (
                -(days_old(now, day) / last[0]) <= worst
            ):  # an unread card of that day may come first
                wanted.append((deck_id, day))
        if not wanted:
            return [row[:-3] for row in rows[:size]]
        for deck_id, day in wanted:
            last = kept[(deck_id, day)]
            if last is None:
                got = conn.execute(first, (now, deck_id, day, *due_args, DAY_PAGE))
            else:
                got = conn.execute(more, (now, deck_id, day, *last, *due_args, DAY_PAGE))
            page = got.fetchall()
            rows += page
            if len(page) < DAY_PAGE:
                del kept[(deck_id, day)]
            else:
                kept[(deck_id, day)] = (page[-1][-3], page[-1][-2], page[-1][-1])


def fading_by_day(
    read: Callable[[str, tuple[object, ...]], list[Any]],
    conn: sqlite3.Connection,
    deck_id: str,
    day: datetime,
    now: datetime,
    curve: tuple[float, float],
    ratio: float,
    any_recall_now: bool,
) -> list[Any]:
    """`fading_by` of a deck of many cards, read along cards_recall a day of last review
    at a time: a card last reviewed on day g is at most (`day`'s day - g) days old by
    `day`, so only those of stability below that over `ratio` can qualify, a range of
    the index; the cards with no last review or no stability are read from ranges of
    their own. Every row read is tested as `fading_by` tests it, in its order."""
    days = "MAX(0, (? - last_review) / 86400000000)"
    select = f"SELECT item_id, face, {RECALL} AS r_now FROM cards"
    at, after = microseconds(day), as_utc(day).isoformat()
    head = (*curve_at(curve, now), deck_id)
    rows = read(
        f"{select} INDEXED BY cards_recall WHERE deck_id = ? AND {DAY_OF} IS NULL AND due > ?",
        (*head, after),
    )
    rows += read(
        f"{select} INDEXED BY cards_weak WHERE deck_id = ? AND stability IS NULL"
        " AND last_review IS NOT NULL AND due > ?",
        (*head, after),
    )
    by_day = (
        f"{select} INDEXED BY cards_recall WHERE deck_id = ? AND {DAY_OF} = ?"
        f" AND stability < ? AND due > ? AND {days} > ? * stability"
        f" AND (? OR {days} >= ? * stability)"
    )
    test = (at, ratio, any_recall_now, microseconds(now), ratio)
    for reviewed in review_days(conn, deck_id):
        below = days_old(at, reviewed) / ratio * (1 + 1e-9) + 1e-12  # a little over: tested
        rows += read(by_day, (*head, reviewed, below, after, *test))
    # NULL (a stability of 0) first, as SQLite orders it
    rows.sort(key=lambda row: (row[2] is not None, row[2] or 0.0, row[0], row[1]))
    return rows
