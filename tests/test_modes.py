"""The game modes beyond learn (vocabgame.play.modes): cram, and choosing what a round plays
(several decks, a tag). Time comes from a clock the tests move by hand."""

from __future__ import annotations

import sqlite3
from datetime import timedelta
from pathlib import Path

import pytest

from vocabgame.play import ModeId

from .test_session import (
    MIXED,
    START,
    Now,
    answer,
    claims_deck,
    make_session,
    parse,
    play,
    terms_deck,
)


@pytest.fixture
def now() -> Now:
    return [START]


def card_rows(path: Path) -> list[tuple[object, ...]]:
    conn = sqlite3.connect(path)
    try:
        return conn.execute("SELECT * FROM cards ORDER BY deck_id, item_id, face").fetchall()
    finally:
        conn.close()


def test_cram_leaves_every_card_row_byte_for_byte_unchanged(tmp_path: Path, now: Now) -> None:
    session = make_session(tmp_path, [claims_deck(6)], now)
    learn = session.start_round(size=4)
    assert learn is not None
    play(learn, now=now)
    learn.finish()
    before = card_rows(tmp_path / "vocabgame.db")
    assert len(before) == 4
    now[0] += timedelta(days=3)
    cram = session.start_round(size=6, mode=ModeId.CRAM)
    assert cram is not None and cram.mode == ModeId.CRAM
    asked = play(cram, right=lambda key, n: key.item_id != "c01", now=now)
    cram.finish()
    assert card_rows(tmp_path / "vocabgame.db") == before  # due dates, states, all of it
    # ... and the answers are kept as practice: unscheduled, in the cram mode, in no round
    rows = session.store.conn.execute(
        "SELECT mode, scheduled, round_id FROM reviews WHERE mode = 'cram'"
    ).fetchall()
    assert len(rows) == len(asked) and {(m, s, r) for m, s, r in rows} == {("cram", 0, None)}
    assert session.store.scoreboard.count() == 1  # the learn round only: cram sets no best score


def test_cram_plays_any_amount_even_with_todays_new_items_used_up(tmp_path: Path, now: Now) -> None:
    session = make_session(tmp_path, [claims_deck(30)], now, new_per_day=2)
    learn = session.start_round(size=10)
    assert learn is not None and learn.total == 2  # the daily limit
    keys, mode = session.plan(None, 25, ModeId.CRAM)
    assert mode == ModeId.CRAM and len(keys) == 25 and len(set(keys)) == 25


def test_cram_asks_answered_faces_before_new_ones(tmp_path: Path, now: Now) -> None:
    session = make_session(tmp_path, [claims_deck(6)], now)
    learn = session.start_round(size=3)
    assert learn is not None
    answered = {k.item_id for k in play(learn, now=now)}
    keys, _ = session.plan(None, 3, ModeId.CRAM)
    assert {k.item_id for k in keys} == answered
    keys, _ = session.plan(None, 6, ModeId.CRAM)
    assert {k.item_id for k in keys} == {f"c{i:02d}" for i in range(6)}


def test_a_round_of_several_decks_asks_only_those(tmp_path: Path, now: Now) -> None:
    decks = [claims_deck(3, "a"), claims_deck(3, "b"), claims_deck(3, "c")]
    session = make_session(tmp_path, decks, now)
    rnd = session.start_round(["a", "c"], size=20, mode=ModeId.CRAM)
    assert rnd is not None
    assert {k.deck_id for k in rnd.queue} == {"a", "c"} and rnd.total == 6
    assert rnd.title == "Facts a, Facts c"
    with pytest.raises(KeyError):
        session.start_round(["a", "nope"])


def test_a_tag_round_asks_tagged_items_across_decks(tmp_path: Path, now: Now) -> None:
    tagged = parse(
        "format: 1\nid: t\ntitle: Tagged\nclaims:\n"
        "  - {id: k1, statement: KV grows., answer: true, explanation: E., tags: [kv-cache]}\n"
        "  - {id: k2, statement: Other., answer: false, explanation: E.}\n"
    )
    whole = parse(MIXED.replace("title: Mixed", "title: Mixed\ntags: [kv-cache]"))
    session = make_session(tmp_path, [tagged, whole, terms_deck(3)], now)
    keys, _ = session.plan(None, 50, ModeId.CRAM, tag="kv-cache")
    items = {(k.deck_id, k.item_id) for k in keys}
    assert ("t", "k1") in items and ("t", "k2") not in items
    assert {i for d, i in items if d == "mixed"} == {
        "alpha",
        "beta",
        "gamma",
        "pick",
        "fact",
        "think",
    }
    assert not any(d == "words" for d, _ in items)
    with pytest.raises(ValueError, match="no item is tagged 'nothing'"):
        session.plan(None, 5, ModeId.CRAM, tag="nothing")
    rnd = session.start_round(None, size=2, mode=ModeId.LEARN, tag="kv-cache")
    assert rnd is not None
    answer(rnd, True)  # a question of a tagged deck builds from the whole deck
