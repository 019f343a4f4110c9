"""The stats figures, from a store filled with known answers at known times, against numbers
worked out by hand in each test."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from vocabgame.deck import load_text
from vocabgame.insights import Tally, _by_deck, collect, streaks
from vocabgame.model import Deck, FaceKey
from vocabgame.store import DB_NAME, Store

NOW = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)
TODAY = NOW.date()

DECK = """
format: 1
id: serving
title: Serving basics
terms:
  - id: ttft
    term: Time to first token
    definition: Time from sending a request until its first output token arrives.
    tags: [latency]
  - id: tpot
    term: Time per output token
    definition: Average gap between output tokens after the first, for one request.
    tags: [latency, decode]
scenarios:
  - id: blank-reply
    prompt: Users stare at a blank reply. Which metric names the problem?
    choices: [ttft, tpot]
    answer: ttft
    explanation: The wait before anything appears.
    why_not: {tpot: It measures the pace after the first token.}
    tags: [latency]
"""


def day_of(moment: datetime) -> object:
    return moment.astimezone(UTC).date()


def card(key: FaceKey, due: datetime, stability: float, state: int = 2) -> tuple[object, ...]:
    body = {
        "card_id": abs(hash(key)) % 10**9,
        "state": state,
        "step": None,
        "stability": stability,
        "difficulty": 5.0,
        "due": due.isoformat(),
        "last_review": (due - timedelta(days=1)).isoformat(),
    }
    return (key.deck_id, key.item_id, key.face, body["card_id"], json.dumps(body), due.isoformat())


@pytest.fixture
def filled(tmp_path: Path) -> tuple[Store, Deck]:
    deck, problems = load_text(DECK, "serving.yaml")
    assert deck is not None, problems
    store = Store.open(tmp_path / DB_NAME)
    ttft_def = FaceKey("serving", "ttft", "definition")
    ttft_term = FaceKey("serving", "ttft", "term")
    tpot_def = FaceKey("serving", "tpot", "definition")
    scenario = FaceKey("serving", "blank-reply", "scenario")
    conn = store.conn
    conn.executemany(
        "INSERT INTO cards (deck_id, item_id, face, card_id, card, due) VALUES (?,?,?,?,?,?)",
        [
            card(ttft_def, NOW - timedelta(days=2), 1.5),  # overdue: due today
            card(ttft_term, NOW + timedelta(days=1), 3.0),  # tomorrow
            card(tpot_def, NOW + timedelta(days=3), 10.0),  # this week
            card(scenario, NOW + timedelta(days=20), 40.0),  # beyond the forecast
        ],
    )

    def review(key: FaceKey, days_ago: float, correct: bool, state: int | None, given: str) -> None:
        before = None if state is None else json.dumps({"state": state})
        conn.execute(
            "INSERT INTO reviews (deck_id, item_id, face, reviewed_at, rating, correct, mode,"
            " answer, card_before) VALUES (?,?,?,?,?,?,?,?,?)",
            (
                key.deck_id,
                key.item_id,
                key.face,
                (NOW - timedelta(days=days_ago)).isoformat(),
                3 if correct else 1,
                int(correct),
                "review",
                given,
                before,
            ),
        )

    tpot_text = "Average gap between output tokens after the first, for one request."
    review(ttft_def, 40, True, None, "Time from sending...")  # 1: new, long ago
    review(ttft_def, 10, False, 2, tpot_text)  # 2: learned, wrong: a lapse, a confusion
    review(ttft_term, 5, True, 2, "Time to first token")  # 3: learned, right
    review(tpot_def, 1, True, 1, tpot_text)  # 4: still learning: not in retention
    review(scenario, 2, False, 2, "Time per output token")  # 5: learned, wrong, a confusion
    review(scenario, 1, True, 2, "Time to first token")  # 6: learned, right
    for days_ago, mode, score, finished in [
        (0, "review", 100, 1),
        (1, "review", 150, 1),
        (2, "practice", 80, 1),
        (5, "review", 60, 1),
        (6, "review", 60, 1),
        (7, "review", 60, 1),
        (8, "review", 60, 1),
        (3, "review", 500, 0),  # unfinished: counts for nothing
    ]:
        at = (NOW - timedelta(days=days_ago)).isoformat()
        conn.execute(
            "INSERT INTO rounds (deck_id, mode, started_at, ended_at, score, finished)"
            " VALUES ('serving', ?, ?, ?, ?, ?)",
            (mode, at, at, score, finished),
        )
    conn.execute(
        "INSERT INTO flags (deck_id, item_id, face, flagged_at) VALUES (?,?,?,?)",
        (*(ttft_def.deck_id, ttft_def.item_id, ttft_def.face), NOW.isoformat()),
    )
    yield store, deck
    store.close()


def test_every_figure_for_the_whole_store(filled) -> None:
    store, deck = filled
    figures = collect(store, [deck], NOW, day_of)
    assert (figures.seen, figures.total) == (4, 7)  # 3 + 3 term faces + 1 scenario
    assert [n for _, n in figures.forecast] == [1, 1, 0, 1] + [0] * 10
    assert figures.forecast[0][0] == TODAY
    assert (figures.due_today, figures.due_tomorrow, figures.due_this_week) == (1, 1, 3)
    assert figures.retention == Tally(2, 4)  # answers 2, 3, 5, 6; right: 3 and 6
    assert figures.retention.share == 0.5
    daily = dict(figures.daily)
    assert len(figures.daily) == 84 and figures.daily[-1][0] == TODAY
    assert {d: n for d, n in daily.items() if n} == {
        TODAY - timedelta(days=40): 1,
        TODAY - timedelta(days=10): 1,
        TODAY - timedelta(days=5): 1,
        TODAY - timedelta(days=2): 1,
        TODAY - timedelta(days=1): 2,
    }
    assert (figures.streak_days, figures.longest_streak) == (3, 4)
    assert figures.per_kind == {
        "pick the definition": Tally(2, 3),
        "pick the term": Tally(1, 1),
        "scenario": Tally(1, 2),
    }
    assert figures.per_tag == {"decode": Tally(1, 1), "latency": Tally(4, 6)}
    assert [(w.key.item_id, w.key.face, w.lapses) for w in figures.weakest] == [
        ("ttft", "definition", 1),
        ("blank-reply", "scenario", 1),
        ("ttft", "term", 0),
        ("tpot", "definition", 0),
    ]
    [confusion] = figures.confusions
    assert (confusion.right, confusion.picked, confusion.times) == (
        "Time to first token",
        "Time per output token",
        2,
    )
    assert figures.modes == {"review": 150, "practice": 80}
    assert figures.flags == 1


def test_one_tag_narrows_every_figure(filled) -> None:
    store, deck = filled
    figures = collect(store, [deck], NOW, day_of, tag="decode")
    assert figures.scope == "tag decode"
    assert (figures.seen, figures.total) == (1, 3)
    assert [n for _, n in figures.forecast][:4] == [0, 0, 0, 1]
    assert figures.retention == Tally(0, 0) and figures.retention.share is None
    assert figures.per_kind == {"pick the definition": Tally(1, 1)}
    assert figures.confusions == () and figures.flags == 0


def test_streaks_count_days_in_a_row() -> None:
    day = TODAY
    assert streaks([], day) == (0, 0)
    assert streaks([day - timedelta(days=1), day - timedelta(days=2)], day) == (2, 2)
    gaps = [day - timedelta(days=n) for n in (0, 3, 4, 5, 6, 10)]
    assert streaks(gaps, day) == (1, 4)


def test_each_kind_is_named_as_a_player_knows_it_never_by_an_id_or_a_template() -> None:
    from vocabgame.play.overview import label

    deck, problems = load_text(
        """
format: 1
id: named
title: Named
terms:
  - {id: ttft, term: Time to first token, aliases: [TTFT], definition: Wait for the first token.}
  - {id: tpot, term: Time per output token, aliases: [TPOT], definition: Gap between tokens.}
confusables:
  - id: latency-pair
    terms: [ttft, tpot]
    distinction: One is the wait, the other the pace.
    cues: [{text: The wait before the reply starts., answer: ttft}]
calculations:
  - id: budget
    prompt: A server runs with max_num_batched_tokens = {budget}. A {prompt}-token prompt arrives. Steps?
    given: {budget: [2048, 8192], prompt: [8000]}
    answer: prompt / budget
    explanation: One chunk a step.
lab_challenges:
  - {id: double-batch-tpot, change: batch, figure: tpot}
""",
        "named.yaml",
    )
    assert deck is not None, problems
    assert label([deck], FaceKey("named", "latency-pair", "cue-1")) == (
        "TTFT vs TPOT (which term fits a cue)"
    )
    # the prompt filled with each given's first value (its article too), cut at 60
    assert label([deck], FaceKey("named", "budget", "calculation")) == (
        "A server runs with max_num_batched_tokens = 2048. An 8000-t… (calculation)"
    )
    assert label([deck], FaceKey("named", "double-batch-tpot", "predict")) == (
        "Double the batch: TPOT up, down or the same? (lab challenge)"
    )


def test_weakest_dues_and_wrong_texts_read_along_indexes_as_the_join_over_the_scope(
    tmp_path: Path,
) -> None:
    """`Figures.weakest` reads indexes and stops at what it shows, `dues_before` reads each
    deck's range of due times, and `wrong_texts_in` steps through each deck's distinct
    texts: all hold to the plain join of every face in view,
    over two decks with ties, lapses, stabilities NULL, zero or negative (a foreign store's),
    faces out of view (a deck's removed items) and a tag's narrower scope."""
    import random

    rng = random.Random(7)
    store = Store.open(tmp_path / DB_NAME)
    conn = store.conn
    faces = [(d, f"i{n:03d}", face) for d in ("a", "b") for n in range(60) for face in ("x", "y")]
    stabilities = [None, 0.0, -1.0, 0.5, 1.5, 1.5, 3.0, 40.0]
    for n, (d, i, f) in enumerate(faces):
        body = {"card_id": n, "state": 2, "stability": rng.choice(stabilities)}
        conn.execute(
            "INSERT INTO cards (deck_id, item_id, face, card_id, card, due) VALUES (?,?,?,?,?,?)",
            (
                d,
                i,
                f,
                n,
                json.dumps(body),
                (NOW + timedelta(hours=rng.randrange(-48, 900))).isoformat(),
            ),
        )
        for _ in range(rng.randrange(4)):
            correct = rng.random() < 0.5
            conn.execute(
                "INSERT INTO reviews (deck_id, item_id, face, reviewed_at, rating, correct,"
                " mode, answer, card_before) VALUES (?,?,?,?,?,?,'review',?,?)",
                (
                    d,
                    i,
                    f,
                    NOW.isoformat(),
                    3 if correct else 1,
                    int(correct),
                    rng.choice(["ttft", "tpot", "goodput", "?"]),
                    json.dumps({"state": rng.choice([1, 2])}),
                ),
            )
    conn.execute(  # a text given only to a face out of view
        "INSERT INTO reviews (deck_id, item_id, face, reviewed_at, rating, correct, mode,"
        " answer) VALUES ('a', 'i055', 'x', ?, 1, 0, 'review', 'only to a removed item')",
        (NOW.isoformat(),),
    )
    conn.commit()
    join = "JOIN temp.scope_faces USING (deck_id, item_id, face)"
    every = _by_deck(face for face in faces if face[1] < "i050")  # 10 items gone
    narrow = _by_deck(face for face in faces if face[1] < "i007" and face[0] == "b")
    for key, scope in (("every", every), ("narrow", narrow)):
        store.figures.keep_scope(key, scope, [])
        for n in (1, 5, 30, 500):
            expected = [
                ((d, i, f), float(stability or 0.0), int(lapses), int(total or 0), int(right or 0))
                for d, i, f, stability, lapses, total, right in conn.execute(
                    "SELECT c.deck_id, c.item_id, c.face, c.stability, IFNULL(s.lapses, 0),"
                    f" s.reviews, s.right FROM cards AS c {join}"
                    " LEFT JOIN face_stats AS s USING (deck_id, item_id, face)"
                    " ORDER BY IFNULL(s.lapses, 0) DESC, IFNULL(c.stability, 0.0),"
                    " c.deck_id, c.item_id, c.face LIMIT ?",
                    (n,),
                )
            ]
            assert store.figures.weakest(n) == expected, (key, n)
        bound = NOW + timedelta(days=16)
        dues = conn.execute(
            f"SELECT due FROM cards {join} WHERE due < ? ORDER BY due", (bound.isoformat(),)
        )
        assert store.figures.dues_before(bound) == [d for (d,) in dues]
        texts = set(conn.execute(f"SELECT DISTINCT deck_id, answer FROM wrong_answers {join}"))
        got = store.figures.wrong_texts_in()
        assert len(got) == len(set(got)) and set(got) == texts, key
    # the narrow scope has lapsed faces and faces never forgotten, at every kind of stability
    assert {row[2] > 0 for row in store.figures.weakest(500)} == {True, False}
    store.close()
