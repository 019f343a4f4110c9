"""A scripted player in a process of its own, for the crash and two-process tests.

    python tests/player.py DATA_DIR DECKS_DIR ANSWERS SEED [--slow] [--undo-every N] [--faces N]
        [--start-at TIME]

Answers ANSWERS questions as fast as it can (0: until killed), every face of the deck over
and over with the schedule updated, and prints one line the moment each action is
acknowledged by the store: `answer ID@TIME`, `undoing ID@TIME` (before an undo starts),
`undone ID@TIME`, and `refused ID@TIME` when the store refused the undo (another player
answered the same face since) and the answer stays.
`--slow` sleeps a random few milliseconds before every SQL statement, so that a kill lands
inside transactions and commits as often as between them."""

from __future__ import annotations

import argparse
import random
import sqlite3
import sys
import time
from pathlib import Path
from typing import Any

from vocabgame.deck import load_catalog
from vocabgame.kinds import faces
from vocabgame.play import Session
from vocabgame.quiz import Kind
from vocabgame.store import DB_NAME, Store, StoreError


class Slow(sqlite3.Connection):
    def execute(self, sql: str, parameters: Any = (), /) -> sqlite3.Cursor:
        time.sleep(random.random() * 0.004)
        return super().execute(sql, parameters)


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("data_dir", type=Path)
    parser.add_argument("decks", type=Path)
    parser.add_argument("answers", type=int)
    parser.add_argument("seed", type=int)
    parser.add_argument("--slow", action="store_true")
    parser.add_argument("--undo-every", type=int, default=0)
    parser.add_argument("--faces", type=int, default=0, help="play only the deck's first N faces")
    parser.add_argument("--start-at", type=float, default=0.0, help="wait until this time.time()")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    random.seed(args.seed)
    factory = Slow if args.slow else sqlite3.Connection
    store = Store.open(args.data_dir / DB_NAME, timeout=10, factory=factory)
    session = Session(store, load_catalog([args.decks]))
    deck = session.catalog.decks[0]
    round_ = session.start_round(deck.id, size=5, seed=args.seed)
    assert round_ is not None
    every = list(faces(deck))[: args.faces or None]
    round_.queue[:] = [every[rng.randrange(len(every))] for _ in range(100_000)]
    time.sleep(max(0.0, args.start_at - time.time()))  # players started together play together
    done = 0
    while args.answers == 0 or done < args.answers:
        question = round_.question()
        assert question is not None
        right = rng.random() < 0.7
        if question.kind == Kind.CHOICE:
            pick = next(
                i for i, c in enumerate(question.choices) if (c.value == question.answer) == right
            )
            round_.answer_choice(pick)
        elif question.kind == Kind.RECALL:
            round_.answer_recall(3 if right else 1)
        else:
            round_.answer_text(question.answer if right else "99999")
        # SQLite may give an undone answer's id to the next one: the time tells them apart.
        review_id, at = store.conn.execute(
            "SELECT id, reviewed_at FROM reviews WHERE round_id = ? ORDER BY id DESC LIMIT 1",
            (round_.round_id,),
        ).fetchone()
        review_id = f"{review_id}@{at}"
        print(f"answer {review_id}", flush=True)
        done += 1
        if args.undo_every and done % args.undo_every == 0:
            print(f"undoing {review_id}", flush=True)
            try:
                round_.undo()
            except StoreError:  # another player answered that face since: refused, unchanged
                print(f"refused {review_id}", flush=True)
                round_.advance()
            else:
                print(f"undone {review_id}", flush=True)
        else:
            round_.advance()
    session.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
