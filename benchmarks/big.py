"""Big inputs for the benchmarks: generated decks of many items, and a store holding a heavy
player's history (a year of reviews over every face of such a deck).

    python -m benchmarks.big DIR --items 33334 --reviews 1000000

writes DIR/decks/big.yaml and DIR/data/vocabgame.db. Each term has three faces, so 33,334
terms make 100,002 faces. The history is written straight into SQLite: it is the shape the
game writes (one card per answered face, reviews with their card before), not a replay of a
year of play, which would take hours.
"""

from __future__ import annotations

import argparse
import random
import sqlite3
from datetime import UTC, datetime, timedelta
from pathlib import Path

import yaml
from fsrs import Card, State

from vocabgame.srs import dump_card
from vocabgame.store import DB_NAME, Store

NOW = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)
FACES = ("definition", "term", "typed")


def deck_text(items: int, deck_id: str = "big") -> str:
    """A valid deck of `items` terms, each with a definition, a caveat and a source."""
    terms = [
        {
            "id": f"t{i:06d}",
            "term": f"Term number {i}",
            "definition": f"The meaning of term number {i}, written out as a short sentence.",
            "caveat": f"What definition {i} leaves out.",
            "sources": ["doc"],
        }
        for i in range(items)
    ]
    deck = {
        "format": 1,
        "id": deck_id,
        "title": f"Generated deck of {items} items",
        "sources": {"doc": {"title": "Generated", "url": "https://example.org/generated"}},
        "terms": terms,
    }
    # The C emitter when PyYAML has it: the same YAML, ten times sooner.
    dumper = getattr(yaml, "CSafeDumper", yaml.SafeDumper)
    return yaml.dump(deck, Dumper=dumper, sort_keys=False, width=100)


def write_deck(folder: Path, items: int, deck_id: str = "big") -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{deck_id}.yaml"
    path.write_text(deck_text(items, deck_id), encoding="utf-8")
    return path


def generated_faces(items: int, deck_id: str = "big") -> list[tuple[str, str, str]]:
    return [(deck_id, f"t{i:06d}", face) for i in range(items) for face in FACES]


def write_store(
    data_dir: Path,
    faces: list[tuple[str, str, str]],
    reviews: int,
    deck_id: str | None = "big",
    seed: int = 1,
) -> Path:
    """A store with every one of `faces` (deck id, item id, face) answered, `reviews` answers
    in all, spread over the year before NOW, and one finished round per day."""
    path = data_dir / DB_NAME
    Store.open(path).close()  # the current schema
    rng = random.Random(seed)
    per_face, extra = divmod(reviews, len(faces))
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA synchronous=OFF")
    conn.execute("BEGIN")
    start = NOW - timedelta(days=365)
    days = 365
    conn.executemany(
        "INSERT INTO rounds (id, deck_id, mode, started_at, ended_at, questions, correct, score,"
        " best_streak, finished) VALUES (?,?,?,?,?,?,?,?,?,1)",
        [
            (
                d + 1,
                deck_id,
                "review",
                (start + timedelta(days=d)).isoformat(),
                (start + timedelta(days=d, minutes=20)).isoformat(),
                20,
                16,
                200 + d % 50,
                8,
            )
            for d in range(days)
        ],
    )
    review_rows: list[tuple[object, ...]] = []
    card_rows = []
    for number, (face_deck, item_id, face) in enumerate(faces, 1):
        count = per_face + (number <= extra)
        # The face's answers, spread over the year at random times.
        times = sorted(rng.randrange(60 * 24 * 365) for _ in range(count))
        for minute in times:
            when = start + timedelta(minutes=minute)
            rating = 3 if rng.random() < 0.85 else 1
            review_rows.append(
                (
                    1 + (when - start).days % days,
                    face_deck,
                    item_id,
                    face,
                    when.isoformat(),
                    rating,
                    int(rating > 1),
                    2500,
                    "review",
                    "x",
                    10 if rating > 1 else 0,
                    None,
                )
            )
        # A card in review, last seen within the past month and due within the next two:
        # about 2% of faces are due on a given day, as with a steady year of reviews.
        last = NOW - timedelta(minutes=rng.randrange(60 * 24 * 30))
        due = NOW + timedelta(minutes=rng.randrange(-60 * 24, 60 * 24 * 60))
        card = Card(
            card_id=number,
            state=State.Review,
            step=None,
            stability=max(1.0, (due - last).total_seconds() / 86400),
            difficulty=round(rng.uniform(2, 8), 3),
            due=due,
            last_review=last,
        )
        card_rows.append((face_deck, item_id, face, number, dump_card(card), card.due.isoformat()))
        if len(review_rows) > 200_000:
            _flush(conn, review_rows)
    _flush(conn, review_rows)
    conn.executemany(
        "INSERT INTO cards (deck_id, item_id, face, card_id, card, due) VALUES (?,?,?,?,?,?)",
        card_rows,
    )
    conn.execute("COMMIT")
    conn.close()
    return path


def _flush(conn: sqlite3.Connection, rows: list[tuple[object, ...]]) -> None:
    conn.executemany(
        "INSERT INTO reviews (round_id, deck_id, item_id, face, reviewed_at, rating, correct,"
        " response_ms, mode, answer, points, card_before) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)",
        rows,
    )
    rows.clear()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", type=Path)
    parser.add_argument("--items", type=int, default=33_334)
    parser.add_argument("--reviews", type=int, default=1_000_000)
    args = parser.parse_args()
    write_deck(args.folder / "decks", args.items)
    write_store(args.folder / "data", generated_faces(args.items), args.reviews)


if __name__ == "__main__":
    main()
