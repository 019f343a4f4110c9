"""Tools for breaking the store on purpose: a connection that raises a chosen SQLite error at
the k-th statement, and ways to look at everything a database holds."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable
from datetime import datetime
from pathlib import Path
from typing import Any

from vocabgame.play import Round
from vocabgame.quiz import Kind
from vocabgame.srs import Srs, dump_card, load_card
from vocabgame.store import SUMMARIES

# The errors SQLite raises when a write or a read cannot go ahead, as it words them.
ERRORS: dict[str, sqlite3.Error] = {
    "full": sqlite3.OperationalError("database or disk is full"),
    "locked": sqlite3.OperationalError("database is locked"),
    "io": sqlite3.OperationalError("disk I/O error"),
    "damaged": sqlite3.DatabaseError("database disk image is malformed"),
}


WRITES = frozenset({"INSERT", "UPDATE", "DELETE", "REPLACE"})


class FaultyConnection(sqlite3.Connection):
    """A real connection that counts the statements it runs and, once armed, raises `error`
    at statement number `fail_at` (counting from when it was armed)."""

    statements: int = 0
    fail_at: int | None = None
    error: sqlite3.Error = ERRORS["full"]
    rollbacks_fail: bool = False  # while armed, every ROLLBACK is refused too
    begin_fails_after: bool = False  # the next BEGIN begins, then reports `error`
    writes_only: bool = False  # count only the statements that write (INSERT, UPDATE, ...)

    def arm(
        self,
        k: int | None,
        error: sqlite3.Error | None = None,
        *,
        rollbacks_fail: bool = False,
        begin_fails_after: bool = False,
        writes_only: bool = False,
    ) -> None:
        self.statements, self.fail_at = 0, k
        self.rollbacks_fail, self.begin_fails_after = rollbacks_fail, begin_fails_after
        self.writes_only = writes_only
        if error is not None:
            self.error = error

    def _tick(self, sql: str) -> None:
        words = sql.lstrip().split(None, 1)
        if self.writes_only and (not words or words[0].upper() not in WRITES):
            return
        self.statements += 1
        if self.fail_at is not None and self.statements == self.fail_at:
            self.fail_at = None
            raise self.error

    def execute(self, sql: str, parameters: Any = (), /) -> sqlite3.Cursor:
        if self.rollbacks_fail and sql.lstrip().upper().startswith("ROLLBACK"):
            raise self.error
        self._tick(sql)
        cursor = super().execute(sql, parameters)
        if self.begin_fails_after and sql.lstrip().upper().startswith("BEGIN"):
            self.begin_fails_after = False
            raise self.error
        return cursor

    def executemany(self, sql: str, parameters: Iterable[Any], /) -> sqlite3.Cursor:
        self._tick(sql)
        return super().executemany(sql, parameters)


def contents(path: Path) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of every table, read through a connection of its own."""
    conn = sqlite3.connect(path)
    try:
        tables = [r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")]
        return {t: sorted(conn.execute(f"SELECT * FROM {t}").fetchall(), key=repr) for t in tables}
    finally:
        conn.close()


def integrity(path: Path) -> str:
    conn = sqlite3.connect(path)
    try:
        return str(conn.execute("PRAGMA integrity_check").fetchone()[0])
    finally:
        conn.close()


def answer_right(round_: Round) -> None:
    """Answer the current question rightly, whatever its kind, then move on."""
    question = round_.question()
    assert question is not None
    if question.kind == Kind.CHOICE:
        index = next(i for i, c in enumerate(question.choices) if c.value == question.answer)
        round_.answer_choice(index)
    elif question.kind == Kind.RECALL:
        round_.answer_recall(3)
    else:
        round_.answer_text(question.answer)


def one_sentence(message: str) -> bool:
    body = message.rstrip(".")
    return message.endswith(".") and ". " not in body.replace("e.g. ", "") and "\n" not in message


def replay_problems(path: Path, srs: Srs, order: str = "id") -> list[str]:
    """Each face whose stored card differs from replaying its scheduled reviews, in `order`
    ("id": as stored; "time": as answered, for merged histories), from a new card: an empty
    list when every card agrees with its history."""
    conn = sqlite3.connect(path)
    try:
        cards = {
            (d, i, f): (card_id, card)
            for d, i, f, card_id, card in conn.execute(
                "SELECT deck_id, item_id, face, card_id, card FROM cards"
            )
        }
        history: dict[tuple[str, str, str], list[tuple[str, int]]] = {}
        for d, i, f, at, rating in conn.execute(
            "SELECT deck_id, item_id, face, reviewed_at, rating FROM reviews"
            " WHERE scheduled = 1 ORDER BY " + ("reviewed_at, id" if order == "time" else "id")
        ):
            history.setdefault((d, i, f), []).append((at, rating))
    finally:
        conn.close()
    problems = [f"{key}: reviews but no card" for key in history if key not in cards]
    for key, (card_id, text) in cards.items():
        steps = history.get(key, [])
        if not steps:
            problems.append(f"{key}: a card with no review")
            continue
        card = srs.new_card(card_id, datetime.fromisoformat(steps[0][0]))
        for at, rating in steps:
            card = srs.review(card, rating, datetime.fromisoformat(at))
        if dump_card(card) != dump_card(load_card(text)):
            problems.append(f"{key}: the stored card is not its history replayed")
    ids = [card_id for card_id, _ in cards.values()]
    if len(ids) != len(set(ids)):
        problems.append("two faces share a card id")
    return problems


def items_problems(path: Path) -> list[str]:
    """Where the per-item table the triggers keep disagrees with the reviews and cards it
    summarises; an empty list when it agrees everywhere."""
    conn = sqlite3.connect(path)
    try:
        kept = {
            (d, i): (first, n, f)
            for d, i, first, n, f in conn.execute(
                "SELECT deck_id, item_id, julianday(first_at), reviews, faces FROM items"
            )
        }
        truth: dict[tuple[str, str], list[Any]] = {}
        for d, i, first, n in conn.execute(
            "SELECT deck_id, item_id, MIN(julianday(reviewed_at)), COUNT(*) FROM reviews"
            " GROUP BY deck_id, item_id"
        ):
            truth[(d, i)] = [first, n, 0]
        for d, i, f in conn.execute(
            "SELECT deck_id, item_id, COUNT(*) FROM cards GROUP BY deck_id, item_id"
        ):
            truth.setdefault((d, i), [None, 0, 0])[2] = f
    finally:
        conn.close()
    wanted = {k: tuple(v) for k, v in truth.items()}
    problems = [
        f"{key}: kept {kept.get(key)}, should be {wanted.get(key)}"
        for key in sorted(set(kept) | set(wanted))
        if kept.get(key) != wanted.get(key)
    ]
    conn = sqlite3.connect(path)
    try:
        # Every summary the triggers keep (store.SUMMARIES) against what it summarises: the
        # per-face counts, the wrong answers by text, the answers per quarter hour.
        for kept_sql, truth_sql in ((t.kept, t.truth) for t in SUMMARIES):
            have = sorted(conn.execute(kept_sql).fetchall())
            should = sorted(conn.execute(truth_sql).fetchall())
            if have != should:
                problems.append(f"{kept_sql.split()[-1]}: {have[:3]} ... != {should[:3]} ...")
    finally:
        conn.close()
    return problems
