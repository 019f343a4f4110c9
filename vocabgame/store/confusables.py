"""Wrong picks of one term for another, and the confusion drill's answers about a pair."""

from __future__ import annotations

from datetime import datetime

from vocabgame.store.part import Part, reads
from vocabgame.store.records import Confusion


class Confusables(Part):
    """Wrong picks of one term for another, and the confusion drill's answers about a pair."""

    @reads
    def all(self) -> list[Confusion]:
        """Every wrong pick of one term for another still on record, oldest first."""
        # CROSS JOIN: from the few confusions to their answers by id, never a scan of answers.
        rows = self.conn.execute(
            "SELECT c.review_id, c.deck_id, c.answer_term, c.picked_term, r.reviewed_at"
            " FROM confusions AS c CROSS JOIN reviews AS r ON r.id = c.review_id ORDER BY c.review_id"
        )
        return [Confusion(i, d, a, p, datetime.fromisoformat(at)) for i, d, a, p, at in rows]

    def record_drill(self, review_id: int, deck_id: str, a: str, b: str) -> None:
        """Keep that the answer `review_id` was a drill question about the pair (a, b)."""
        with self.transaction() as conn:
            conn.execute(
                "INSERT OR REPLACE INTO drill_answers (review_id, deck_id, term_a, term_b)"
                " VALUES (?,?,?,?)",
                (review_id, deck_id, *sorted((a, b))),
            )

    @reads
    def drill_answers(self) -> list[tuple[int, str, str, str, bool]]:
        """Every drill answer still on record: (review id, deck id, term a, term b, right),
        oldest first, each pair's terms in sorted order."""
        rows = self.conn.execute(
            "SELECT d.review_id, d.deck_id, d.term_a, d.term_b, r.correct FROM drill_answers AS d"
            " CROSS JOIN reviews AS r ON r.id = d.review_id ORDER BY d.review_id"
        )
        return [(int(i), d, a, b, bool(c)) for i, d, a, b, c in rows]
