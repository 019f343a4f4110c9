"""The deck orders the store keeps for planning (migration 10): the next new items read from
the kept order must be the ones a scan of every started item gives, after answers, undos,
renames and a changed deck, and the store that cannot keep the order must still plan."""

from __future__ import annotations

import random
import sqlite3
from datetime import timedelta
from itertools import filterfalse, islice
from pathlib import Path

import pytest

from vocabgame import check, stats
from vocabgame import store as store_module
from vocabgame.deck import Catalog
from vocabgame.model import Deck
from vocabgame.play import Session
from vocabgame.settings import Settings
from vocabgame.store import Store, StoreDamaged

from .faults import ERRORS, FaultyConnection, contents
from .test_session import START, Now, answer, make_session, parse, terms_deck


def scanned(store: Store, deck: Deck, count: int) -> list[str]:
    """The first `count` items of the deck's new-item order never answered, found by reading
    every started item, as planning did before the kept order."""
    started = store.items.started_ids(deck.id)
    return list(islice(filterfalse(started.__contains__, stats.new_item_order(deck)), count))


def from_kept_order(store: Store, deck: Deck, count: int) -> list[str]:
    shape = stats.deck_shape(deck)
    return store.items.next_new(deck.id, shape.order, shape.order_digest, count)


def kept_rows(store: Store, deck_id: str) -> list[tuple[str, int, int]]:
    return store.conn.execute(
        "SELECT item_id, position, started FROM item_order WHERE deck_id = ? ORDER BY position",
        (deck_id,),
    ).fetchall()


def played(tmp_path: Path, deck: Deck, size: int, seed: int, **settings: object) -> None:
    """A store in `tmp_path` where one round of `size` on `deck` was answered right."""
    session = make_session(tmp_path, [deck], [START], **settings)
    round_ = session.start_round(size=size, seed=seed)
    assert round_ is not None
    while round_.question() is not None:
        answer(round_, True)
        round_.advance()
    session.close()


def reversed_terms(n: int) -> Deck:
    """The same items as `terms_deck(n)`, listed last first: another order of new items."""
    lines = ["format: 1\nid: words\ntitle: Words\nterms:"]
    for i in reversed(range(n)):
        lines.append(f"  - {{id: t{i:02d}, term: Word {i}, definition: Meaning number {i}.}}")
    return parse("\n".join(lines))


def test_the_kept_order_gives_the_next_new_items_after_answers_and_undos(tmp_path: Path) -> None:
    now: Now = [START]
    deck = terms_deck(14)
    session = make_session(tmp_path, [deck], now, new_per_day=3)
    store = session.store
    assert [r[0] for r in kept_rows(store, "words")] == stats.new_item_order(deck)
    rng = random.Random(7)
    compared = 0
    for day in range(8):
        now[0] = START + timedelta(days=day, hours=1)
        round_ = session.start_round(size=5, seed=day)
        assert round_ is not None
        while round_.question() is not None:
            now[0] += timedelta(minutes=2)
            answer(round_, rng.random() < 0.7)
            if rng.random() < 0.3:  # an undo can take back an item's only answer
                assert round_.undo() is not None
                answer(round_, True)
            round_.advance()
        round_.finish()
        for count in (1, 3, 20):
            assert from_kept_order(store, deck, count) == scanned(store, deck, count)
            compared += 1
        assert check.check(store.conn).clean
    started = len(store.items.started_ids("words"))
    assert 0 < started < len(deck.terms)  # some items started, some still new
    assert compared == 24


def test_an_undo_of_an_items_only_answer_makes_it_new_again(tmp_path: Path) -> None:
    now: Now = [START]
    deck = terms_deck(5)
    session = make_session(tmp_path, [deck], now)
    round_ = session.start_round(size=1, seed=1)
    assert round_ is not None
    first = from_kept_order(session.store, deck, 1)
    answer(round_, True)
    assert from_kept_order(session.store, deck, 1) != first
    assert round_.undo() is not None
    assert from_kept_order(session.store, deck, 1) == first == scanned(session.store, deck, 1)


def test_a_deck_in_a_new_order_is_kept_anew_and_started_items_stay_started(
    tmp_path: Path,
) -> None:
    now: Now = [START]
    played(tmp_path, terms_deck(9), size=4, seed=2, new_per_day=4)

    turned = reversed_terms(9)
    with Store.open(tmp_path / "vocabgame.db") as store:
        Session(store, Catalog((turned,), ()), clock=lambda: now[0])
        assert [r[0] for r in kept_rows(store, "words")] == stats.new_item_order(turned)
        started = store.items.started_ids("words")
        assert {r[0] for r in kept_rows(store, "words") if r[2]} == started
        assert len(started) == 4
        assert from_kept_order(store, turned, 9) == scanned(store, turned, 9)
        assert from_kept_order(store, turned, 9)[0] == "t08"  # the last item now comes first


def test_opening_again_on_the_same_decks_writes_nothing(tmp_path: Path) -> None:
    now: Now = [START]
    make_session(tmp_path, [terms_deck(6)], now).close()
    path = tmp_path / "vocabgame.db"
    before = contents(path)
    store = Store.open(path, factory=FaultyConnection)
    assert isinstance(store.conn, FaultyConnection)
    store.conn.arm(None)
    session = Session(store, Catalog((terms_deck(6),), ()), clock=lambda: now[0])
    session.plan(None, 5)
    statements = store.conn.statements
    store.close()
    assert contents(path) == before
    assert statements > 0


def test_a_store_that_cannot_be_written_plans_from_the_started_items(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Read-only (as a file with mode 444; tests may run as root, so the permission check
    is replaced): the order is not kept, and the next new items are still the right ones."""
    now: Now = [START]
    played(tmp_path, terms_deck(6), size=2, seed=1, new_per_day=2)
    monkeypatch.setattr(store_module.os, "access", lambda p, mode: False)
    other = terms_deck(6, deck_id="other")
    with Store.open(tmp_path / "vocabgame.db") as store:
        assert store.read_only is not None
        Session(store, Catalog((terms_deck(6), other), ()), clock=lambda: now[0])
        assert kept_rows(store, "other") == []  # nothing written
        assert from_kept_order(store, other, 3) == ["t00", "t01", "t02"]
        words = terms_deck(6)
        assert from_kept_order(store, words, 6) == scanned(store, words, 6)
        assert len(from_kept_order(store, words, 6)) == 4


def test_a_refused_write_of_the_order_leaves_the_store_as_it_was_and_plans_anyway(
    tmp_path: Path,
) -> None:
    path = tmp_path / "vocabgame.db"

    def made() -> None:  # a store a session has opened before: its day rollover is kept
        with Store.open(path) as store:
            store.preferences.keep_rollover(Settings().rollover_hour, START)

    made()
    before = contents(path)
    deck = terms_deck(6)
    for error in ERRORS:
        store = Store.open(path, factory=FaultyConnection)
        assert isinstance(store.conn, FaultyConnection)
        store.conn.arm(1, ERRORS[error], writes_only=True)  # the first write: the order's
        if error == "damaged":  # not a write to skip: the player is told, nothing changes
            with pytest.raises(StoreDamaged):
                Session(store, Catalog((deck,), ()), clock=lambda: START)
            assert not store.conn.in_transaction
            store.close()
            assert contents(path) == before
            continue
        session = Session(store, Catalog((deck,), ()), clock=lambda: START)
        assert not store.conn.in_transaction
        assert contents(path) == before, error
        # planning reads the started items instead, and keeps the order this time
        assert from_kept_order(store, deck, 2) == ["t00", "t01"]
        keys, _ = session.plan(None, 4)
        assert len(keys) > 0
        assert [r[0] for r in kept_rows(store, "words")] == stats.new_item_order(deck)
        store.close()
        Path(path).unlink()
        made()


def test_check_reports_and_rebuilds_a_kept_order_that_disagrees(tmp_path: Path) -> None:
    played(tmp_path, terms_deck(6), size=3, seed=1)
    conn = sqlite3.connect(tmp_path / "vocabgame.db", isolation_level=None)
    assert check.check(conn).clean
    conn.execute("UPDATE item_order SET started = 1 - started")
    report = check.check(conn)
    assert not report.clean
    summaries = [f.message.split()[3] for f in report.findings if f.kind == check.SUMMARY]
    assert summaries == ["item_order"]
    check.check(conn, fix=True)
    assert check.check(conn).clean
    started = {item for (item,) in conn.execute("SELECT item_id FROM items WHERE reviews > 0")}
    kept = {item for (item,) in conn.execute("SELECT item_id FROM item_order WHERE started")}
    assert kept == started and len(kept) == 3
    conn.close()


def test_the_next_new_items_and_todays_started_items_are_index_ranges(tmp_path: Path) -> None:
    """What keeps a plan's cost flat as the history grows: no scan of the items."""
    with Store.open(tmp_path / "vocabgame.db") as store:
        new = store.conn.execute(
            "EXPLAIN QUERY PLAN SELECT item_id FROM item_order WHERE deck_id = ?"
            " AND started = 0 ORDER BY position LIMIT ?",
            ("words", 3),
        ).fetchall()
        today = store.conn.execute(
            "EXPLAIN QUERY PLAN SELECT deck_id FROM items WHERE reviews > 0"
            " AND julianday(first_at) >= julianday(?)",
            (START.isoformat(),),
        ).fetchall()
    assert "item_order_new" in new[-1][-1] and "SEARCH" in new[-1][-1]
    assert "items_first" in today[-1][-1] and "SEARCH" in today[-1][-1]
