"""The answers: recording one (with its face's new schedule, in one transaction), taking it
back, counting it as right ("I was right"), and reading them."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

from fsrs import Card

from vocabgame.model import FaceKey
from vocabgame.srs import dump_card, load_card
from vocabgame.store.errors import StoreError
from vocabgame.store.part import Connected, Part, reads
from vocabgame.store.records import Review
from vocabgame.store.schedules import Schedules
from vocabgame.store.scoreboard import Scoreboard


class Answers(Part):
    """The answers, each recorded with its face's new schedule in one transaction."""

    def __init__(self, store: Connected, schedules: Schedules, scoreboard: Scoreboard) -> None:
        super().__init__(store)
        # an answer writes its face's schedule and its round's totals in its own transaction
        self._schedules, self._scoreboard = schedules, scoreboard

    def record(
        self,
        review: Review,
        schedule: Callable[[Card | None, int], Card] | None,
        round_id: int | None,
        round_totals: tuple[int, int, int, int] | None = None,
        *,
        confusion: tuple[str, str] | None = None,
    ) -> tuple[int, Card | None]:
        """Save an answer, its face's new schedule, the round's running totals (questions,
        correct, score, best streak) and the confusion the answer shows, (the right term, the
        term picked) if any, in one write transaction; returns the review id and the new card.

        `schedule(card, new_card_id)` computes the new card from the stored one (None: never
        answered; then `new_card_id` is free) inside the transaction, so two processes
        answering at once never schedule from a stale card or reuse a card id. `schedule`
        None: the mode leaves the schedule alone."""
        key = review.key
        with self.transaction() as conn:
            before = card = None
            if schedule is not None:
                before = self._schedules.card(key)
                card = schedule(before, self._schedules.next_card_id() if before is None else 0)
            cur = conn.execute(
                "INSERT INTO reviews (round_id, deck_id, item_id, face, reviewed_at, rating, correct,"
                " response_ms, mode, answer, points, card_before, scheduled)"
                " VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)",
                (
                    round_id,
                    key.deck_id,
                    key.item_id,
                    key.face,
                    review.reviewed_at.isoformat(),
                    review.rating,
                    int(review.correct),
                    review.response_ms,
                    review.mode,
                    review.answer,
                    review.points,
                    dump_card(before) if before is not None else None,
                    int(card is not None),
                ),
            )
            if card is not None:
                conn.execute(
                    "INSERT INTO cards (deck_id, item_id, face, card_id, card, due) VALUES (?,?,?,?,?,?)"
                    " ON CONFLICT (deck_id, item_id, face) DO UPDATE SET card=excluded.card, due=excluded.due",
                    (
                        key.deck_id,
                        key.item_id,
                        key.face,
                        card.card_id,
                        dump_card(card),
                        card.due.isoformat(),
                    ),
                )
            review_id = int(cur.lastrowid or 0)
            if confusion is not None:
                conn.execute(
                    "INSERT OR REPLACE INTO confusions"
                    " (review_id, deck_id, answer_term, picked_term) VALUES (?,?,?,?)",
                    (review_id, key.deck_id, *confusion),
                )
            if round_id is not None and round_totals is not None:
                self._scoreboard.set_totals(round_id, round_totals)
            return review_id, card

    def undo(
        self,
        review_id: int,
        round_id: int | None = None,
        round_totals: tuple[int, int, int, int] | None = None,
    ) -> Review | None:
        """Remove an answer, put its face's schedule back to how it was before it, and set the
        round's totals, all in one transaction. None: there was no such answer. Refused with
        one sentence (StoreError, nothing changed) when a scheduled answer to the same face
        was saved after it, as another vocabgame on the same data folder may have done."""
        with self.transaction() as conn:
            row = conn.execute(
                "SELECT deck_id, item_id, face, reviewed_at, rating, correct, response_ms, mode,"
                " answer, points, card_before, scheduled FROM reviews WHERE id=?",
                (review_id,),
            ).fetchone()
            if row is None:
                return None
            deck_id, item_id, face, at, rating, correct, ms, mode, answer, points, before, sched = (
                row
            )
            if sched and self._answered_since(review_id, FaceKey(deck_id, item_id, face)):
                raise StoreError(
                    "That answer cannot be undone: another vocabgame on this data folder has "
                    "answered the same question since, and its schedule follows from it "
                    "(nothing was changed)."
                )
            conn.execute("DELETE FROM reviews WHERE id=?", (review_id,))
            if sched and before is None:
                conn.execute(
                    "DELETE FROM cards WHERE deck_id=? AND item_id=? AND face=?",
                    (deck_id, item_id, face),
                )
            elif sched:
                card = load_card(before)
                conn.execute(
                    "UPDATE cards SET card=?, due=? WHERE deck_id=? AND item_id=? AND face=?",
                    (before, card.due.isoformat(), deck_id, item_id, face),
                )
            if round_id is not None and round_totals is not None:
                self._scoreboard.set_totals(round_id, round_totals)
        return Review(
            FaceKey(deck_id, item_id, face),
            datetime.fromisoformat(at),
            rating,
            bool(correct),
            ms,
            mode,
            answer,
            points,
        )

    def _answered_since(self, review_id: int, key: FaceKey) -> bool:
        """Whether a scheduled answer to the face was saved after this one (by another
        process): its card was scheduled from this answer's, so putting back the card before
        this one would throw that answer's schedule away."""
        row = self.conn.execute(
            "SELECT 1 FROM reviews WHERE deck_id=? AND item_id=? AND face=? AND scheduled=1"
            " AND id>? LIMIT 1",
            (key.deck_id, key.item_id, key.face, review_id),
        ).fetchone()
        return row is not None

    @reads
    def all(self, deck_id: str | None = None) -> list[Review]:
        sql = "SELECT deck_id, item_id, face, reviewed_at, rating, correct, response_ms, mode, answer, points FROM reviews"
        args: tuple[str, ...] = ()
        if deck_id is not None:
            sql += " WHERE deck_id=?"
            args = (deck_id,)
        return [
            Review(FaceKey(d, i, f), datetime.fromisoformat(at), r, bool(c), ms, m, a, p)
            for d, i, f, at, r, c, ms, m, a, p in self.conn.execute(sql + " ORDER BY id", args)
        ]

    @reads
    def count(self) -> int:
        """Every answer kept (from the per-item summary: no count over the reviews)."""
        row = self.conn.execute("SELECT COALESCE(SUM(reviews), 0) FROM items").fetchone()
        return int(row[0])

    @reads
    def scheduled_histories(self) -> tuple[list[list[tuple[datetime, int]]], int]:
        """Per face, its answers that moved its schedule (`scheduled` = 1) as (time, FSRS
        rating) in time order, whatever deck it is of, installed or not; and the last
        answer's id (0 when none), from which `scheduled_since` counts."""
        rows = self.conn.execute(
            "SELECT deck_id, item_id, face, reviewed_at, rating FROM reviews WHERE scheduled=1"
            " ORDER BY deck_id, item_id, face, reviewed_at, id"
        )
        histories: list[list[tuple[datetime, int]]] = []
        last: tuple[str, str, str] | None = None
        for deck_id, item_id, face, at, rating in rows:
            if (deck_id, item_id, face) != last:
                histories.append([])
                last = (deck_id, item_id, face)
            histories[-1].append((datetime.fromisoformat(at), int(rating)))
        top = self.conn.execute("SELECT COALESCE(MAX(id), 0) FROM reviews").fetchone()[0]
        return histories, int(top)

    @reads
    def scheduled_since(self, review_id: int) -> int:
        """How many answers that moved a schedule were kept after answer `review_id` (a range
        of row ids: it reads only those)."""
        row = self.conn.execute(
            "SELECT COUNT(*) FROM reviews WHERE id > ? AND scheduled=1", (review_id,)
        ).fetchone()
        return int(row[0])

    @reads
    def recent_response_ms(self, limit: int = 200) -> list[int]:
        """How long the answers among the last `limit` given took (those timed), in ms,
        newest first: a range of row ids, so it reads `limit` rows whatever the history's
        length."""
        rows = self.conn.execute(
            "SELECT response_ms FROM reviews WHERE id > (SELECT MAX(id) FROM reviews) - ? "
            "AND response_ms IS NOT NULL ORDER BY id DESC",
            (limit,),
        )
        return [int(ms) for (ms,) in rows]

    @reads
    def count_in_mode(self, mode: str) -> int:
        return int(
            self.conn.execute("SELECT COUNT(*) FROM reviews WHERE mode=?", (mode,)).fetchone()[0]
        )

    def override(
        self,
        review_id: int,
        *,
        rating: int,
        points: int,
        schedule: Callable[[Card | None, int], Card] | None,
        round_totals: tuple[int, int, int, int] | None = None,
    ) -> Card | None:
        """Count an answer marked wrong as right, in one write transaction: the review becomes
        right with `rating` and `points` and is marked overridden; its face's schedule is
        recomputed by `schedule(card_before, card_id)` from the schedule the review started
        from (None: never answered before; the face keeps its card id); the review's round
        gets its new running totals. Returns the new card (None: the schedule stays, as for
        an unscheduled answer). Undo still puts back the card_before."""
        with self.transaction() as conn:
            row = conn.execute(
                "SELECT deck_id, item_id, face, round_id, card_before, scheduled FROM reviews"
                " WHERE id=?",
                (review_id,),
            ).fetchone()
            if row is None:
                raise StoreError(
                    f"That answer is no longer in {self.path}, so it cannot be counted as "
                    "right (nothing was changed)."
                )
            deck_id, item_id, face, round_id, before, scheduled = row
            key = FaceKey(deck_id, item_id, face)
            if scheduled and schedule is not None and self._answered_since(review_id, key):
                raise StoreError(
                    "That answer cannot be counted as right: another vocabgame on this data "
                    "folder has answered the same question since, and its schedule follows "
                    "from it (nothing was changed)."
                )
            conn.execute(
                "UPDATE reviews SET correct=1, rating=?, points=?, overridden=1 WHERE id=?",
                (rating, points, review_id),
            )
            card = None
            if scheduled and schedule is not None:
                current = self._schedules.card(key)
                card_id = current.card_id if current is not None else self._schedules.next_card_id()
                card = schedule(load_card(before) if before is not None else None, card_id)
                conn.execute(
                    "INSERT INTO cards (deck_id, item_id, face, card_id, card, due) VALUES (?,?,?,?,?,?)"
                    " ON CONFLICT (deck_id, item_id, face) DO UPDATE SET card=excluded.card, due=excluded.due",
                    (deck_id, item_id, face, card.card_id, dump_card(card), card.due.isoformat()),
                )
            if round_id is not None and round_totals is not None:
                self._scoreboard.set_totals(round_id, round_totals)
            return card

    def set_confidence(self, review_id: int, confidence: float | None) -> None:
        """Keep how sure the player said they were of answer `review_id`: the chance of being
        right they gave, from 0 to 1 (None: not said), in one write transaction. No summary
        reads it, so no trigger runs. ValueError for a value outside 0 to 1."""
        if confidence is not None and not 0 <= confidence <= 1:
            raise ValueError(f"a confidence is a probability from 0 to 1, not {confidence!r}")
        with self.transaction() as conn:
            conn.execute("UPDATE reviews SET confidence=? WHERE id=?", (confidence, review_id))

    @reads
    def overridden_ids(self) -> list[int]:
        """The ids of the answers the player overrode as right, oldest first."""
        rows = self.conn.execute("SELECT id FROM reviews WHERE overridden=1 ORDER BY id")
        return [int(review_id) for (review_id,) in rows]

    @reads
    def override_count(self) -> int:
        return int(
            self.conn.execute("SELECT COUNT(*) FROM reviews WHERE overridden=1").fetchone()[0]
        )
