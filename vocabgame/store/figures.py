"""The stats screen's figures, read from the summaries the triggers keep (and, where a scope
needs it, from the answers through the index on time)."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from datetime import date, datetime, timedelta
from typing import Any

from vocabgame.model import FaceKey
from vocabgame.srs import as_utc
from vocabgame.store.part import Part, reads
from vocabgame.store.schema import LEARNED

Face = tuple[str, str, str]  # deck id, item id, face: plain tuples, quick to hash at any size


# The scope the figures read, held per connection in temporary tables (`Figures.keep_scope`):
# a join in SQLite, where a set of 100k plain tuples in Python took a pass over every row.
_SCOPE_TABLES = """
    CREATE TEMP TABLE IF NOT EXISTS scope_faces (
        deck_id TEXT NOT NULL,
        item_id TEXT NOT NULL,
        face TEXT NOT NULL,
        PRIMARY KEY (deck_id, item_id, face)
    ) WITHOUT ROWID;
    CREATE TEMP TABLE IF NOT EXISTS scope_tags (
        deck_id TEXT NOT NULL,
        item_id TEXT NOT NULL,
        tag TEXT NOT NULL
    );
    CREATE INDEX IF NOT EXISTS temp.scope_tags_item ON scope_tags (deck_id, item_id);
"""
_IN_SCOPE = "JOIN temp.scope_faces USING (deck_id, item_id, face)"
# The same as a test of one row ({0}: the table's alias), for a query that reads along an
# index of its own and stops at what it shows.
_ROW_IN_SCOPE = (
    "EXISTS (SELECT 1 FROM temp.scope_faces AS x"
    " WHERE x.deck_id = {0}.deck_id AND x.item_id = {0}.item_id AND x.face = {0}.face)"
)
_C_IN_SCOPE = _ROW_IN_SCOPE.format("c")
# The same for answers (`reviews AS r`) read through an index of their own first: CROSS JOIN
# keeps that order, where SQLite might read every answer of the faces in view instead.
_ANSWERS_IN_SCOPE = (
    " CROSS JOIN temp.scope_faces AS s"
    " ON s.deck_id = r.deck_id AND s.item_id = r.item_id AND s.face = r.face"
)


class Figures(Part):
    """The stats screen's figures, from the summaries the triggers keep, over the faces of a
    scope held by `keep_scope`."""

    _scope_key: object = None
    _scope_conn: object = None
    _scope_decks: tuple[str, ...] = ()

    @reads
    def keep_scope(
        self, key: object, faces: Sequence[tuple[str, str]], tags: Sequence[str]
    ) -> None:
        """Hold the faces in view (`faces`: per deck, its id and a JSON object of item id ->
        the names of its faces in view, each once) and their items' tags (`tags`: JSON
        arrays of [deck id, item id, tag]) as the scope every read below counts, in temporary tables of this connection (written
        there only, never to the store, so a read-only store takes them too). They are
        rebuilt only when `key` differs from the one they were last built for."""
        if self._scope_conn is self.conn and self._scope_key == key:
            return
        conn = self.conn
        self._scope_key = self._scope_conn = None
        for statement in _SCOPE_TABLES.split(";"):
            if statement.strip():
                conn.execute(statement)
        conn.execute("DELETE FROM temp.scope_faces")
        conn.execute("DELETE FROM temp.scope_tags")
        for deck_id, listed in faces:
            conn.execute(  # in the key's order: the table's B-tree filled from one end
                "INSERT INTO temp.scope_faces SELECT ?, i.key, f.value"
                " FROM json_each(?) AS i, json_each(i.value) AS f ORDER BY 2, 3",
                (deck_id, listed),
            )
        for listed in tags:
            conn.execute(
                "INSERT INTO temp.scope_tags SELECT value ->> 0, value ->> 1, value ->> 2"
                " FROM json_each(?)",
                (listed,),
            )
        self._scope_decks = tuple(
            d for (d,) in conn.execute("SELECT DISTINCT deck_id FROM temp.scope_faces ORDER BY 1")
        )
        self._scope_key, self._scope_conn = key, conn

    @reads
    def scheduled(self, learned_days: float) -> tuple[int, int]:
        """How many faces in scope have a schedule, and how many of those are stable for
        `learned_days` or more (read from the index that holds the stability)."""
        seen, learned = self.conn.execute(
            f"SELECT COUNT(*), TOTAL(IFNULL(stability, 0.0) >= ?) FROM cards {_IN_SCOPE}",
            (learned_days,),
        ).fetchone()
        return int(seen), int(learned)

    @reads
    def dues_before(self, moment: datetime) -> list[str]:
        """The due times before `moment` of the faces in scope, earliest first, as the store
        writes them (ISO text in UTC, which sorts as the times do: parsing each of 27k dues
        took a quarter of this read): each deck's range of the index on its due times, each
        face looked up in the scope from the index alone (a join read the whole index, every
        deck's cards due or not)."""
        bound = as_utc(moment).isoformat()
        dues = [
            due
            for deck_id in self._scope_decks
            for (due,) in self.conn.execute(
                f"SELECT c.due FROM cards AS c WHERE c.deck_id = ? AND c.due < ? AND {_C_IN_SCOPE}"
                " ORDER BY c.due",
                (deck_id, bound),
            )
        ]
        if len(self._scope_decks) > 1:
            dues.sort()
        return dues

    @reads
    def weakest(self, n: int) -> list[tuple[Face, float, int, int, int]]:
        """The `n` scheduled faces in scope forgotten most often after they were learned,
        the least stable first among equals, then by key: (face, stability, lapses, answers,
        right answers). Read along indexes, stopping at `n`: the faces ever forgotten (few)
        from the one on lapses, then each deck's others from the one on stability, merged."""
        rows = [
            self._weak(row)
            for row in self.conn.execute(
                "SELECT c.deck_id, c.item_id, c.face, c.stability, s.lapses, s.reviews, s.right"
                " FROM face_stats AS s CROSS JOIN cards AS c ON c.deck_id = s.deck_id"
                f" AND c.item_id = s.item_id AND c.face = s.face WHERE s.lapses > 0 AND {_C_IN_SCOPE}"
                " ORDER BY s.lapses DESC, IFNULL(c.stability, 0.0), c.deck_id, c.item_id, c.face"
                " LIMIT ?",
                (n,),
            )
        ]
        if len(rows) >= n:
            return rows
        rest: list[tuple[Face, float, int, int, int]] = []
        never_forgotten = (
            "NOT EXISTS (SELECT 1 FROM face_stats AS f WHERE f.deck_id = c.deck_id"
            " AND f.item_id = c.item_id AND f.face = c.face AND f.lapses > 0)"
        )
        for deck_id in self._scope_decks:
            # A stability is positive once answered; NULL (counted as 0) or less, in a foreign
            # store, is read as ranges of its own (an OR would read the whole deck), and all
            # merge below as IFNULL orders them.
            for bound in ("c.stability > 0", "c.stability IS NULL", "c.stability <= 0"):
                rest.extend(
                    self._weak(row)
                    for row in self.conn.execute(
                        "SELECT c.deck_id, c.item_id, c.face, c.stability, 0, s.reviews, s.right"
                        " FROM cards AS c LEFT JOIN face_stats AS s USING (deck_id, item_id, face)"
                        f" WHERE c.deck_id = ? AND {bound} AND {_C_IN_SCOPE}"
                        f" AND {never_forgotten} ORDER BY c.stability, c.item_id, c.face LIMIT ?",
                        (deck_id, n - len(rows)),
                    )
                )
        rest.sort(key=lambda row: (row[1], row[0]))
        return rows + rest[: n - len(rows)]

    @staticmethod
    def _weak(row: Any) -> tuple[Face, float, int, int, int]:
        d, i, f, stability, lapses, total, right = row
        return (d, i, f), float(stability or 0.0), int(lapses), int(total or 0), int(right or 0)

    @reads
    def totals(self) -> tuple[list[tuple[str, int, int]], list[tuple[str, int, int]]]:
        """The answers to the faces in scope and how many were right, per face name (`term`,
        `cue-1`...) and per tag of their items (an item with a tag twice counts twice, as
        its tags list it), from the per-face summary: its join with the scope made once for
        both (a lookup per face: 88 + 66 ms as two queries at 100k faces, 124 ms as one)."""
        by_face: list[tuple[str, int, int]] = []
        by_tag: list[tuple[str, int, int]] = []
        for kind, name, total, right in self.conn.execute(
            "WITH f AS MATERIALIZED (SELECT s.deck_id, s.item_id, s.face, s.reviews, s.right"
            f" FROM face_stats AS s {_IN_SCOPE})"
            " SELECT 0, face, SUM(reviews), SUM(right) FROM f GROUP BY face"
            " UNION ALL SELECT 1, t.tag, SUM(f.reviews), SUM(f.right) FROM f"
            " JOIN temp.scope_tags AS t ON t.deck_id = f.deck_id AND t.item_id = f.item_id"
            " GROUP BY t.tag"
        ):
            (by_tag if kind else by_face).append((name, int(total), int(right)))
        return by_face, by_tag

    @reads
    def answers_per_quarter_in(self, since: datetime) -> list[tuple[datetime, int]]:
        """The answers to the faces in scope given in each quarter hour (UTC) from `since`
        on: for a scope the per-deck summary cannot give (a tag's), read from the answers
        through the index on time."""
        bucket = (
            "strftime('%Y-%m-%dT%H', reviewed_at) || ':'"
            " || printf('%02d', CAST(strftime('%M', reviewed_at) AS INTEGER) / 15 * 15)"
        )
        return [
            (datetime.fromisoformat(at + ":00+00:00"), n)
            for at, n in self.conn.execute(
                f"SELECT {bucket} AS b, COUNT(*) FROM reviews AS r"
                f"{_ANSWERS_IN_SCOPE}"
                " WHERE r.reviewed_at >= ? GROUP BY b",
                (since.isoformat(),),
            )
        ]

    @reads
    def wrong_texts_in(self) -> list[tuple[str, str]]:
        """Each text given wrong to a face in scope, once per deck: (deck id, text). Each
        deck's distinct texts are stepped through along the index on them (a few hundred
        where a deck has tens of thousands of wrong answers), each kept if one of its
        answers is to a face in scope."""
        step = "SELECT MIN(answer) FROM wrong_answers WHERE deck_id = ?1"
        w_in_scope = _ROW_IN_SCOPE.format("w")
        texts: list[tuple[str, str]] = []
        for deck_id in self._scope_decks:
            texts.extend(
                self.conn.execute(
                    f"WITH RECURSIVE t(text) AS (SELECT ({step}) UNION ALL"
                    f" SELECT ({step} AND answer > t.text) FROM t WHERE t.text IS NOT NULL)"
                    " SELECT ?1, text FROM t WHERE text IS NOT NULL AND EXISTS (SELECT 1"
                    " FROM wrong_answers AS w WHERE w.deck_id = ?1 AND w.answer = t.text"
                    f" AND {w_in_scope})",
                    (deck_id,),
                )
            )
        return texts

    @reads
    def wrong_answers_in(self, texts: Mapping[str, Sequence[str]]) -> list[tuple[Face, str, int]]:
        """The wrong answers to the faces in scope that gave one of a deck's `texts` (deck id
        -> texts), counted per face and text (the summary the triggers keep)."""
        rows: list[tuple[Face, str, int]] = []
        for deck_id, given in texts.items():
            rows.extend(
                ((d, i, f), answer, n)
                for d, i, f, answer, n in self.conn.execute(
                    "SELECT deck_id, item_id, face, answer, times FROM wrong_answers"
                    f" {_IN_SCOPE} WHERE deck_id = ? AND answer IN"
                    " (SELECT value FROM json_each(?))",
                    (deck_id, json.dumps(list(given))),
                )
            )
        return rows

    @reads
    def wrong_picks_in(self) -> list[tuple[Face, str, str, str, int]]:
        """The wrong answers to the faces in scope with a recorded pick, counted per face,
        text given and pick (the right term's id, the picked term's id)."""
        # CROSS JOIN keeps SQLite's join order: each confusion finds its answer by id,
        # rather than every answer ever given being read to find the few confused.
        return [
            ((d, i, f), given, right, picked, n)
            for d, i, f, given, right, picked, n in self.conn.execute(
                "SELECT r.deck_id, r.item_id, r.face, r.answer, c.answer_term, c.picked_term,"
                " COUNT(*) FROM confusions AS c CROSS JOIN reviews AS r ON r.id = c.review_id"
                f"{_ANSWERS_IN_SCOPE}"
                " WHERE r.correct = 0 GROUP BY 1, 2, 3, 4, 5, 6"
            )
        ]

    @reads
    def confidences_in(self) -> list[tuple[datetime, int | None, float, bool]]:
        """The answers to the faces in scope the player said how sure they were of, oldest
        first: (when, round id, the chance of being right they gave, whether it was right),
        through the index on those few answers: no pass over the whole history."""
        return [
            (datetime.fromisoformat(at), round_id, float(said), bool(right))
            for at, round_id, said, right in self.conn.execute(
                "SELECT r.reviewed_at, r.round_id, r.confidence, r.correct FROM reviews AS r"
                f"{_ANSWERS_IN_SCOPE}"
                " WHERE r.confidence IS NOT NULL ORDER BY r.reviewed_at, r.id"
            )
        ]

    @reads
    def flags_in(self) -> int:
        """How many flags the faces in scope carry."""
        return int(self.conn.execute(f"SELECT COUNT(*) FROM flags {_IN_SCOPE}").fetchone()[0])

    @reads
    def answers_per_quarter(
        self, since: datetime, deck_id: str | None = None
    ) -> list[tuple[datetime, int]]:
        """The answers given in each quarter hour (UTC) from the one holding `since` on (of one
        deck, if given): from the per-quarter summary, a few thousand rows at any history."""
        start = as_utc(since)
        quarter = start.replace(minute=start.minute // 15 * 15).strftime("%Y-%m-%dT%H:%M")
        sql = "SELECT quarter, SUM(answers) FROM answer_quarters WHERE quarter >= ?"
        args: tuple[str, ...] = (quarter,)
        if deck_id is not None:
            sql += " AND deck_id = ?"
            args += (deck_id,)
        return [
            (datetime.fromisoformat(at + ":00+00:00"), int(n))
            for at, n in self.conn.execute(sql + " GROUP BY quarter", args)
        ]

    @reads
    def learned_answers(self, since: datetime) -> list[tuple[FaceKey, int, int]]:
        """Per face, the answers given at or after `since` to it once learned (FSRS's Review
        state when it was asked, a scheduled answer), and how many were right. Whole days
        come from the per-day summary; the answers of the day `since` falls in (its first ten
        characters, as the summary keys them: the same order as comparing the times written)
        from the reviews, through the index on time."""
        moment = since.isoformat()
        day = moment[:10]
        following = (date.fromisoformat(day) + timedelta(days=1)).isoformat()
        tally: dict[FaceKey, list[int]] = {}
        for d, i, f, n, right in self.conn.execute(
            "SELECT deck_id, item_id, face, SUM(answers), SUM(right) FROM learned_days"
            " WHERE day > ? GROUP BY deck_id, item_id, face",
            (day,),
        ):
            tally[FaceKey(d, i, f)] = [int(n), int(right)]
        for d, i, f, n, right in self.conn.execute(
            "SELECT deck_id, item_id, face, COUNT(*), SUM(correct) FROM reviews"
            f" WHERE reviewed_at >= ? AND reviewed_at < ? AND {LEARNED.format('')}"
            " GROUP BY deck_id, item_id, face",
            (moment, following),
        ):
            counts = tally.setdefault(FaceKey(d, i, f), [0, 0])
            counts[0] += int(n)
            counts[1] += int(right)
        return [(key, n, right) for key, (n, right) in tally.items()]

    @reads
    def retention_in(self, since: datetime) -> tuple[int, int]:
        """The answers given at or after `since` to faces in scope once they were learned
        (as `learned_answers` counts them), and how many were right."""
        moment = since.isoformat()
        day = moment[:10]
        following = (date.fromisoformat(day) + timedelta(days=1)).isoformat()
        whole = self.conn.execute(
            f"SELECT TOTAL(answers), TOTAL(right) FROM learned_days {_IN_SCOPE} WHERE day > ?",
            (day,),
        ).fetchone()
        first = self.conn.execute(
            "SELECT COUNT(*), TOTAL(r.correct) FROM reviews AS r"
            f"{_ANSWERS_IN_SCOPE}"
            f" WHERE r.reviewed_at >= ? AND r.reviewed_at < ? AND {LEARNED.format('r.')}",
            (moment, following),
        ).fetchone()
        return int(whole[0]) + int(first[0]), int(whole[1]) + int(first[1])
