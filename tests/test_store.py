"""The SQLite store (vocabgame.store): schema, WAL, errors a player can act on, settings."""

from __future__ import annotations

import random
import sqlite3
from collections.abc import Callable
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path

import pytest
from fsrs import Card, State

from vocabgame import store as store_module
from vocabgame.quiz import FaceKey
from vocabgame.srs import Srs
from vocabgame.store import SCHEMA_VERSION, Review, Store, StoreError
from vocabgame.store import core as store_core

from .faults import one_sentence

NOW = datetime(2025, 3, 3, 9, 0, tzinfo=UTC)
KEY = FaceKey("deck", "item", "claim")


def test_a_new_store_has_the_current_schema_version_and_uses_wal(tmp_path: Path) -> None:
    path = tmp_path / "data" / "vocabgame.db"  # the folder is created too
    store = Store.open(path)
    try:
        assert SCHEMA_VERSION == len(store_module.MIGRATIONS) >= 1
        assert store.conn.execute("PRAGMA user_version").fetchone() == (SCHEMA_VERSION,)
        assert store.conn.execute("PRAGMA journal_mode").fetchone() == ("wal",)
        tables = {
            row[0]
            for row in store.conn.execute("SELECT name FROM sqlite_master WHERE type='table'")
        }
        assert {"cards", "reviews", "rounds", "flags", "settings"} <= tables
    finally:
        store.close()
    # seen from another connection too: both are stored in the file
    conn = sqlite3.connect(path)
    try:
        assert conn.execute("PRAGMA user_version").fetchone() == (SCHEMA_VERSION,)
        assert conn.execute("PRAGMA journal_mode").fetchone() == ("wal",)
    finally:
        conn.close()


def test_reopening_keeps_the_data_and_does_not_migrate_again(tmp_path: Path) -> None:
    path = tmp_path / "vocabgame.db"
    store = Store.open(path)
    store.preferences.set("round_size", 12)
    store.close()
    store = Store.open(path)
    try:
        assert store.preferences.get("round_size") == 12
        assert store.conn.execute("PRAGMA user_version").fetchone() == (SCHEMA_VERSION,)
    finally:
        store.close()


def test_a_damaged_file_is_reported_and_left_alone(tmp_path: Path) -> None:
    path = tmp_path / "vocabgame.db"
    data = random.Random(1).randbytes(8192)
    path.write_bytes(data)
    with pytest.raises(StoreError) as info:
        Store.open(path)
    message = str(info.value)
    assert str(path) in message and "damaged" in message
    assert one_sentence(message), message
    assert path.read_bytes() == data  # not modified, not replaced
    assert sorted(p.name for p in tmp_path.iterdir()) == ["vocabgame.db"]


def test_a_locked_database_is_reported_as_in_use(tmp_path: Path) -> None:
    path = tmp_path / "vocabgame.db"
    Store.open(path).close()
    other = sqlite3.connect(path, isolation_level=None)
    other.execute("BEGIN EXCLUSIVE")
    try:
        store = Store.open(path, timeout=0.1)  # reading still works in WAL mode
        try:
            with pytest.raises(StoreError) as info:
                store.preferences.set("new_per_day", 5)
            message = str(info.value)
            assert "in use" in message and str(path) in message
            assert one_sentence(message), message
            with pytest.raises(StoreError, match="in use"):
                store.face_flags.add(KEY, NOW)
        finally:
            store.close()
    finally:
        other.execute("ROLLBACK")
        other.close()
    store = Store.open(path, timeout=0.1)  # free again: the write goes through
    try:
        store.preferences.set("new_per_day", 5)
        assert store.preferences.get("new_per_day") == 5
        assert store.face_flags.all() == []  # the refused write left nothing behind
    finally:
        store.close()


def test_a_database_from_a_newer_version_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "vocabgame.db"
    conn = sqlite3.connect(path)
    conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    conn.execute("CREATE TABLE future (x)")
    conn.commit()
    conn.close()
    data = path.read_bytes()
    with pytest.raises(StoreError) as info:
        Store.open(path)
    message = str(info.value)
    assert "newer" in message and str(path) in message
    assert one_sentence(message), message
    assert path.read_bytes() == data  # "nothing was changed": not even the journal mode
    conn = sqlite3.connect(path)
    try:
        assert conn.execute("PRAGMA user_version").fetchone() == (SCHEMA_VERSION + 1,)
        names = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        assert names == {"future"}  # no tables of ours were added
    finally:
        conn.close()


def test_a_folder_that_cannot_be_created_is_reported(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    with pytest.raises(StoreError) as info:
        Store.open(blocker / "data" / "vocabgame.db")
    assert str(blocker / "data") in str(info.value)


@pytest.mark.parametrize(
    "value",
    [5, 0.85, "text", True, None, [1, 2], {"nested": {"a": [1, "b"]}}, "ünïcödé"],
)
def test_settings_round_trip(tmp_path: Path, value: object) -> None:
    path = tmp_path / "vocabgame.db"
    store = Store.open(path)
    assert store.preferences.get("some_key") is None
    assert store.preferences.get("some_key", "fallback") == "fallback"
    store.preferences.set("some_key", value)
    store.close()
    store = Store.open(path)
    try:
        assert store.preferences.get("some_key", "fallback") == value
        store.preferences.set("some_key", "replaced")
        assert store.preferences.get("some_key") == "replaced"
        assert store.conn.execute("SELECT COUNT(*) FROM settings").fetchone() == (1,)
    finally:
        store.close()


def test_record_and_undo_at_the_store_level(tmp_path: Path) -> None:
    store = Store.open(tmp_path / "vocabgame.db")
    srs = Srs(fuzz=False)
    seen: list[tuple[Card | None, int]] = []

    def schedule(rating: int, at: datetime) -> Callable[[Card | None, int], Card]:
        def compute(before: Card | None, new_id: int) -> Card:
            seen.append((before, new_id))
            return srs.review(before or Card(card_id=new_id, due=at), rating, at)

        return compute

    try:
        round_id = store.scoreboard.start("deck", "review", NOW)
        review = Review(KEY, NOW, 3, True, 1234, "review", "True", 10)
        first_id, first = store.answers.record(review, schedule(3, NOW), round_id, (1, 1, 10, 1))
        assert first is not None and seen == [(None, 1)]  # a new card gets a free id
        assert store.answers.all() == [review]
        assert store.schedules.card(KEY).to_dict() == first.to_dict()  # type: ignore[union-attr]
        later = NOW + timedelta(days=1)
        review2 = Review(KEY, later, 1, False, 99, "review", "False", 0)
        second_id, second = store.answers.record(
            review2, schedule(1, later), round_id, (2, 1, 10, 1)
        )
        assert seen[1][0].to_dict() == first.to_dict()  # type: ignore[union-attr]
        assert store.schedules.card(KEY).to_dict() == second.to_dict()  # type: ignore[union-attr]
        assert store.scoreboard.all()[0].questions == 2

        assert store.answers.undo(second_id, round_id, (1, 1, 10, 1)) == review2
        assert store.schedules.card(KEY).to_dict() == first.to_dict()  # type: ignore[union-attr]
        assert store.answers.all() == [review]
        assert store.scoreboard.all()[0].questions == 1  # in the same transaction as the delete
        assert store.answers.undo(first_id, round_id, (0, 0, 0, 0)) == review
        assert store.schedules.card(KEY) is None and store.answers.all() == []
        assert store.scoreboard.all()[0].questions == 0
        assert store.answers.undo(first_id) is None
    finally:
        store.close()


def test_a_write_refused_inside_a_transaction_is_one_sentence_and_keeps_nothing(
    tmp_path: Path,
) -> None:
    """A store that refuses writes (here with query_only, as a read-only file does): the
    store's own error in one sentence, nothing kept, and the store stays usable."""
    with Store.open(tmp_path / "vocabgame.db") as store:
        round_id = store.scoreboard.start("deck", "review", NOW)
        store.conn.execute("PRAGMA query_only = ON")
        review = Review(KEY, NOW, 3, True, 10, "review", "True", 10)

        def card(before: Card | None, new_id: int) -> Card:
            return Srs(fuzz=False).review(Card(card_id=new_id, due=NOW), 3, NOW)

        with pytest.raises(StoreError) as info:
            store.answers.record(review, card, round_id, (1, 1, 10, 1))
        message = str(info.value)
        assert "read-only" in message and "not saved" in message and one_sentence(message)
        assert not store.conn.in_transaction
        store.conn.execute("PRAGMA query_only = OFF")
        assert store.answers.count() == 0 and store.schedules.cards() == {}
        store.answers.record(review, card, round_id, (1, 1, 10, 1))
        assert store.answers.count() == 1


def test_a_full_disk_says_so_instead_of_a_rollback_error(tmp_path: Path) -> None:
    """SQLite rolls back by itself when the disk is full; a second ROLLBACK would raise
    'no transaction is active' and hide the cause."""
    with Store.open(tmp_path / "vocabgame.db") as store:
        pages = store.conn.execute("PRAGMA page_count").fetchone()[0]
        store.conn.execute(f"PRAGMA max_page_count = {pages}")
        with pytest.raises(StoreError) as info:
            for n in range(2000):
                store.face_flags.add(FaceKey("deck", f"item-{n}", "claim"), NOW, "x" * 2000)
        message = str(info.value)
        assert "full" in message and "not saved" in message, message
        assert "rollback" not in message.lower()
        assert not store.conn.in_transaction


def test_migrating_keeps_one_flag_per_face_with_its_latest_note(tmp_path: Path) -> None:
    path = tmp_path / "vocabgame.db"
    conn = sqlite3.connect(path, isolation_level=None)
    for migration in store_module.MIGRATIONS[:3]:  # a store as schema 3 left it
        conn.executescript(migration)
    conn.execute("PRAGMA user_version = 3")
    rows = [
        ("d", "a", "term", "2025-03-01T09:00:00+00:00", ""),
        ("d", "a", "term", "2025-03-02T09:00:00+00:00", "typo in the definition"),
        ("d", "a", "term", "2025-03-03T09:00:00+00:00", ""),
        ("d", "a", "typed", "2025-03-04T09:00:00+00:00", ""),
        ("d", "b", "term", "2025-03-05T09:00:00+00:00", "old note"),
        ("d", "b", "term", "2025-03-06T09:00:00+00:00", "new note"),
    ]
    conn.executemany(
        "INSERT INTO flags (deck_id, item_id, face, flagged_at, note) VALUES (?,?,?,?,?)", rows
    )
    conn.close()
    with Store.open(path) as store:
        assert store.face_flags.all() == [
            (
                FaceKey("d", "a", "term"),
                datetime(2025, 3, 1, 9, tzinfo=UTC),
                "typo in the definition",
            ),
            (FaceKey("d", "a", "typed"), datetime(2025, 3, 4, 9, tzinfo=UTC), ""),
            (FaceKey("d", "b", "term"), datetime(2025, 3, 5, 9, tzinfo=UTC), "new note"),
        ]
        store.face_flags.add(FaceKey("d", "a", "term"), NOW)  # still one row: the index holds
        assert len(store.face_flags.all()) == 3
        assert store.face_flags.remove(FaceKey("d", "a", "term")) and not store.face_flags.remove(
            KEY
        )
        assert not store.face_flags.is_flagged(FaceKey("d", "a", "term"))
        assert store.face_flags.is_flagged(FaceKey("d", "b", "term"))


def test_an_override_is_one_transaction_and_undo_still_takes_it_back(tmp_path: Path) -> None:
    srs = Srs(fuzz=False)

    def wrong(before: Card | None, new_id: int) -> Card:
        return srs.review(before or srs.new_card(new_id, NOW), 1, NOW)

    def right(before: Card | None, card_id: int) -> Card:
        return srs.review(before or srs.new_card(card_id, NOW), 3, NOW)

    with Store.open(tmp_path / "vocabgame.db") as store:
        round_id = store.scoreboard.start("deck", "review", NOW)
        review = Review(KEY, NOW, 1, False, 900, "review", "tpot")
        review_id, card = store.answers.record(review, wrong, round_id, round_totals=(1, 0, 0, 0))
        assert card is not None
        store.conn.execute("PRAGMA query_only = ON")  # a refused write changes nothing
        with pytest.raises(StoreError):
            store.answers.override(
                review_id, rating=3, points=10, schedule=right, round_totals=(1, 1, 10, 1)
            )
        store.conn.execute("PRAGMA query_only = OFF")
        assert (
            store.answers.overridden_ids() == []
            and store.schedules.card(KEY).to_dict() == card.to_dict()
        )  # type: ignore[union-attr]
        new = store.answers.override(
            review_id, rating=3, points=10, schedule=right, round_totals=(1, 1, 10, 1)
        )
        # recomputed from the schedule before the answer (none: a new card, same card id)
        expected = srs.review(srs.new_card(card.card_id, NOW), 3, NOW)
        assert new is not None and new.to_dict() == expected.to_dict()
        [saved] = store.answers.all()
        assert (saved.correct, saved.rating, saved.points) == (True, 3, 10)
        assert store.answers.overridden_ids() == [review_id] and store.answers.override_count() == 1
        assert store.schedules.card(KEY).to_dict() == expected.to_dict()  # type: ignore[union-attr]
        [played] = store.scoreboard.all()
        assert (played.questions, played.correct, played.score, played.best_streak) == (1, 1, 10, 1)
        store.answers.undo(review_id, round_id, (0, 0, 0, 0))
        assert (
            store.answers.all() == []
            and store.schedules.card(KEY) is None
            and store.answers.override_count() == 0
        )
        with pytest.raises(StoreError, match="no longer in"):
            store.answers.override(review_id, rating=3, points=10, schedule=right)


def test_damage_advice_names_all_three_files(tmp_path: Path) -> None:
    """Moving only vocabgame.db aside leaves its -wal behind for the new database to discard."""
    path = tmp_path / "vocabgame.db"
    path.write_bytes(b"x" * 4096)
    with pytest.raises(StoreError) as info:
        Store.open(path)
    message = str(info.value)
    assert all(
        name in message for name in ("vocabgame.db,", "vocabgame.db-wal", "vocabgame.db-shm")
    )


def test_a_folder_where_the_database_should_be_is_called_a_folder(tmp_path: Path) -> None:
    (tmp_path / "vocabgame.db").mkdir()
    with pytest.raises(StoreError) as info:
        Store.open(tmp_path / "vocabgame.db")
    message = str(info.value)
    assert "is a folder, not a file" in message and one_sentence(message)
    assert "permission" not in message


def test_an_empty_file_alone_is_set_up_anew_and_said_so(tmp_path: Path) -> None:
    path = tmp_path / "vocabgame.db"
    path.write_bytes(b"")
    with Store.open(path) as store:
        assert store.schema_version() == SCHEMA_VERSION
        [notice] = store.notices
        assert "was an empty file" in notice and "new one" in notice and one_sentence(notice)


def test_an_empty_file_with_a_log_beside_it_is_left_alone(tmp_path: Path) -> None:
    """An empty vocabgame.db with a non-empty -wal may hold answers only in the log: refuse,
    and touch neither file."""
    path = tmp_path / "vocabgame.db"
    path.write_bytes(b"")
    wal = tmp_path / "vocabgame.db-wal"
    wal.write_bytes(b"\x37\x7f\x06\x82" + b"\0" * 60)
    with pytest.raises(StoreError) as info:
        Store.open(path)
    message = str(info.value)
    assert "empty" in message and "vocabgame.db-wal" in message and one_sentence(message)
    assert path.read_bytes() == b"" and wal.stat().st_size == 64


def test_a_read_only_file_opens_for_reading(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """As a file with mode 444 for a player who is not root (tests run as root in CI, where
    permissions do not stop writes, so the permission check is what is replaced here)."""
    path = tmp_path / "vocabgame.db"
    with Store.open(path) as store:
        store.preferences.set("round_size", 12)
    monkeypatch.setattr(store_module.os, "access", lambda p, mode: False)
    with Store.open(path) as store:
        assert store.read_only is not None
        assert "read-only" in str(store.read_only) and one_sentence(str(store.read_only))
        assert store.preferences.get("round_size") == 12  # still readable


def test_a_damaged_settings_value_falls_back_with_one_sentence(tmp_path: Path) -> None:
    with Store.open(tmp_path / "vocabgame.db") as store:
        store.conn.execute("INSERT INTO settings VALUES ('round_size', '{not json')")
        store.conn.execute("INSERT INTO settings VALUES ('new_per_day', '-4')")
        settings, problems = store.preferences.read()
    assert settings.round_size == type(settings)().round_size
    assert settings.new_per_day == type(settings)().new_per_day
    assert len(problems) == 2 and all(one_sentence(p) for p in problems)


def test_synchronous_full_so_an_answer_survives_a_power_loss(tmp_path: Path) -> None:
    with Store.open(tmp_path / "vocabgame.db") as store:
        assert store.conn.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL


def test_a_large_store_opens_without_reading_every_page(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """quick_check reads the whole file; above the size limit opening reads the schema only
    (damage further in is reported where a read meets it, and by vocabgame check)."""
    path = tmp_path / "vocabgame.db"
    with Store.open(path) as store:
        store.preferences.set("round_size", 12)
    calls: list[str] = []
    monkeypatch.setattr(store_core, "QUICK_CHECK_BYTES", 0)
    real_connect = sqlite3.connect

    def traced(*args: object, **kwargs: object) -> sqlite3.Connection:
        conn = real_connect(*args, **kwargs)  # type: ignore[arg-type]
        conn.set_trace_callback(calls.append)
        return conn

    monkeypatch.setattr(store_module.sqlite3, "connect", traced)
    with Store.open(path) as store:
        assert store.preferences.get("round_size") == 12
    assert not any("quick_check" in sql for sql in calls)
    monkeypatch.setattr(store_core, "QUICK_CHECK_BYTES", 1 << 30)
    calls.clear()
    Store.open(path).close()
    assert any("quick_check" in sql for sql in calls)


def _put_cards(store: Store, cards: dict[FaceKey, Card]) -> None:
    """Cards written straight into the store, as they would be after their answers."""
    for key, card in cards.items():
        store.conn.execute(
            "INSERT INTO cards (deck_id, item_id, face, card_id, card, due) VALUES (?,?,?,?,?,?)",
            (
                key.deck_id,
                key.item_id,
                key.face,
                card.card_id,
                card.to_json(),
                card.due.isoformat(),
            ),
        )


@pytest.mark.parametrize(
    "pages",
    [None, (4, 8), (40, 80, 3)],
    ids=["one page", "pages of 4 then 8", "a first page read day by day"],
)
def test_weakest_orders_cards_exactly_as_fsrs_retrievability_does(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, pages: tuple[int, ...] | None
) -> None:
    """SQLite's order of every card by retrievability is the one `Srs.retrievability` gives,
    down to a microsecond either side of a whole day, a fraction SQLite would round up, a last
    review after now, ties of stability, and a card never reviewed; read a page at a time, the
    pages join up with no card lost or repeated."""
    if pages is not None:
        from vocabgame.store import recall, schedules

        monkeypatch.setattr(schedules, "_FIRST_PAGE", pages[0])
        monkeypatch.setattr(schedules, "_LAST_PAGE", pages[1])
        if len(pages) > 2:  # the first page along cards_recall, a few cards a day at a time
            monkeypatch.setattr(recall, "BOUNDED_FROM", 1)
            monkeypatch.setattr(recall, "DAY_PAGE", pages[2])
    srs = Srs()
    now = NOW.replace(microsecond=999_800)  # a fraction SQLite reads as the next second
    rng = random.Random(3)
    edges = [
        timedelta(days=2),
        timedelta(days=2, microseconds=-1),
        timedelta(days=2, microseconds=1),
        timedelta(days=5, hours=23, minutes=59, seconds=59, microseconds=999_700),
        timedelta(days=9, microseconds=-999_800),  # no fraction at all
        timedelta(days=-1),  # answered "after" now: no days have passed
    ]
    cards: dict[FaceKey, Card] = {}
    for n in range(120):
        elapsed = edges[n % len(edges)] + timedelta(days=rng.randrange(0, 40) * (n % 3 > 0))
        stability = rng.choice([1.5, 3.25, 10.0, rng.uniform(0.1, 300)])
        last = now - elapsed
        due = last + timedelta(days=rng.uniform(0, 20))
        cards[FaceKey("deck", f"i{n:03d}", "claim")] = Card(
            card_id=n + 1,
            state=State.Review,
            stability=stability,
            difficulty=5.0,
            due=due,
            last_review=last,
        )
    cards[FaceKey("deck", "never", "claim")] = Card(card_id=999, due=now)
    cards[FaceKey("other", "i000", "claim")] = Card(card_id=1000, due=now)  # not asked for
    with Store.open(tmp_path / "vocabgame.db") as store:
        _put_cards(store, cards)
        got = list(store.schedules.weakest(["deck"], now, srs.forgetting_curve()))
        by_key = list(store.schedules.least_remembered(["deck"], now, srs.forgetting_curve()))
        soonest = store.schedules.soonest_due("deck", lambda item_id, face: item_id != "i001")
    ours = {k: c for k, c in cards.items() if k.deck_id == "deck"}
    expected = sorted(ours, key=lambda k: (srs.retrievability(ours[k], now), ours[k].due, k))
    assert got == expected
    # the interview's order: retrievability, then the key alone
    assert [FaceKey(*row) for row in by_key] == sorted(
        ours, key=lambda k: (srs.retrievability(ours[k], now), k)
    )
    # the soonest due of the cards kept, read in due order
    assert soonest == min(c.due for k, c in ours.items() if k.item_id != "i001")
    # the edges do make days differ by one microsecond
    assert {(now - ours[k].last_review).days for k in ours if ours[k].last_review} >= {1, 2, 5, 8}


def _odd_store(
    path: Path, rng: random.Random, now: datetime, decks: list[str], days_ago: list[int]
) -> Store:
    """A store of 20-70 cards of these decks, last reviewed these many days ago (and up to
    two more), of close stabilities, and some with columns no card of fsrs's holds: a NULL,
    zero or negative stability, no last review."""
    cards: dict[FaceKey, Card] = {}
    for n in range(rng.randrange(20, 70)):
        ago = timedelta(days=rng.choice(days_ago), hours=rng.randrange(48))
        cards[FaceKey(rng.choice(decks), f"i{n:03d}", "claim")] = Card(
            card_id=n + 1,
            state=State.Review,
            stability=rng.choice([1.0, 2.0, 4.0, round(rng.uniform(0.5, 2 * max(days_ago)), 1)]),
            difficulty=5.0,
            due=now - ago + timedelta(days=rng.uniform(-3, 20)),
            last_review=now - ago,
        )
    store = Store.open(path)
    _put_cards(store, cards)
    for n, value in enumerate(["NULL", "0", "-1.5"]):
        if rng.random() < 0.5:
            store.conn.execute(f"UPDATE cards SET stability = {value} WHERE item_id = 'i00{n}'")
    if rng.random() < 0.5:
        store.conn.execute("UPDATE cards SET last_review = NULL WHERE item_id = 'i004'")
    store.conn.commit()
    return store


@pytest.mark.parametrize("day_page", [1, 2, 7])
def test_the_first_page_read_day_by_day_is_the_first_page_of_the_whole_order(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, day_page: int
) -> None:
    """Read along cards_recall, a day of last review at a time, the first page by recall is
    exactly the one a pass over every card gives, whatever the columns hold: two decks, ties
    of days and stability, last reviews after now, none at all, stabilities NULL, zero and
    negative, a due bound, and either order's tie-break; over stores of many seeds, each
    small, so that the page ends in the middle of some day's cards."""
    from vocabgame.store import recall, schedules

    monkeypatch.setattr(schedules, "_FIRST_PAGE", 8)
    curve = Srs().forgetting_curve()
    now = NOW.replace(microsecond=400_000)
    for seed in range(40):
        rng = random.Random(seed * 10 + day_page)
        orders = []
        with _odd_store(
            tmp_path / f"{seed}.db", rng, now, ["a", "b"], [-1, 0, 1, 2, 3, 8]
        ) as store:
            for bounded in (10**9, 1):
                monkeypatch.setattr(recall, "BOUNDED_FROM", bounded)
                monkeypatch.setattr(recall, "DAY_PAGE", day_page)
                for decks in (["a"], ["a", "b"]):
                    for due_by in (None, now):
                        orders.append(list(store.schedules.weakest(decks, now, curve, due_by)))
                    orders.append(list(store.schedules.least_remembered(decks, now, curve)))
        whole, by_day = orders[: len(orders) // 2], orders[len(orders) // 2 :]
        assert by_day == whole, seed


def test_the_kept_columns_follow_each_card_written(tmp_path: Path) -> None:
    """`cards.stability` and `cards.last_review` (microseconds since 1970) are the card's own,
    on insert and on every later write of the card, for a time with no fraction, one SQLite
    would round up, one in another zone and a card never reviewed."""
    east = timezone(timedelta(hours=5, minutes=30))
    lasts = [
        NOW.replace(microsecond=0),
        NOW.replace(microsecond=999_500),
        NOW.astimezone(east).replace(microsecond=123_456),
        None,
    ]
    cards = {
        FaceKey("deck", f"i{n}", "claim"): Card(
            card_id=n + 1,
            state=State.Review if last else State.Learning,
            stability=1.5 + n if last else None,
            difficulty=5.0,
            due=NOW - timedelta(hours=n),
            last_review=last,
        )
        for n, last in enumerate(lasts)
    }

    def kept(store: Store) -> list[tuple[object, ...]]:
        return store.conn.execute(
            "SELECT item_id, stability, last_review FROM cards ORDER BY item_id"
        ).fetchall()

    def expected() -> list[tuple[object, ...]]:
        epoch = datetime(1970, 1, 1, tzinfo=UTC)
        return [
            (
                k.item_id,
                c.stability,
                None
                if c.last_review is None
                else (c.last_review - epoch) // timedelta(microseconds=1),
            )
            for k, c in sorted(cards.items(), key=lambda kc: kc[0].item_id)
        ]

    with Store.open(tmp_path / "vocabgame.db") as store:
        _put_cards(store, cards)
        assert kept(store) == expected()
        for n, (key, card) in enumerate(cards.items()):  # a later write of each card
            card.stability, card.last_review = 40.0 + n, NOW + timedelta(days=n, microseconds=7)
            store.conn.execute(
                "UPDATE cards SET card = ? WHERE item_id = ?", (card.to_json(), key.item_id)
            )
        assert kept(store) == expected()


def test_the_forgetting_curve_gives_fsrs_retrievability_to_the_last_bit() -> None:
    srs = Srs(desired_retention=0.85)
    factor, decay = srs.forgetting_curve()
    for days, stability in ((0, 1.0), (1, 0.3), (7, 2.5), (30, 41.7), (400, 3.1)):
        card = Card(
            card_id=1,
            state=State.Review,
            stability=stability,
            difficulty=5.0,
            due=NOW,
            last_review=NOW - timedelta(days=days, hours=5),
        )
        assert (1 + factor * days / stability) ** decay == srs.retrievability(card, NOW)


def test_recall_brings_pythons_pow_where_sqlite_was_built_without_it(tmp_path: Path) -> None:
    """Some SQLite builds lack the math functions: the store then gives SQLite Python's `pow`
    for the sums of retrievability, and the order by recall (which needs none) is the same."""
    srs = Srs()

    class WithoutPow:
        """The store's connection, as a SQLite without `pow` would answer."""

        def __init__(self, conn: sqlite3.Connection) -> None:
            self.conn, self.given = conn, False

        def execute(self, sql: str, *args: object) -> sqlite3.Cursor:
            if "pow(" in sql and not self.given:
                raise sqlite3.OperationalError("no such function: pow")
            return self.conn.execute(sql, *args)

        def create_function(
            self, name: str, arity: int, fn: Callable[..., object], **kw: bool
        ) -> None:
            self.given = name == "pow"
            self.conn.create_function(name, arity, fn, **kw)

        def __getattr__(self, name: str) -> object:  # the rest, as the connection has it
            return getattr(self.conn, name)

    cards = {
        FaceKey("deck", f"i{n}", "claim"): Card(
            card_id=n + 1,
            state=State.Review,
            stability=1.0 + n * 0.7,
            difficulty=5.0,
            due=NOW + timedelta(days=n),
            last_review=NOW - timedelta(days=3 * n, hours=n),
        )
        for n in range(8)
    }
    with Store.open(tmp_path / "vocabgame.db") as store:
        _put_cards(store, cards)
        without = WithoutPow(store.conn)
        store.conn = without  # type: ignore[assignment]
        got = list(store.schedules.weakest(["deck"], NOW, srs.forgetting_curve()))
        assert not without.given  # the order by recall asks for no pow
        faces, summed, _ = store.schedules.recall_sum("deck", NOW, srs.forgetting_curve(), 0.9)
        store.conn = without.conn
    assert without.given
    assert got == sorted(cards, key=lambda k: (srs.retrievability(cards[k], NOW), cards[k].due, k))
    assert faces == len(cards)
    assert summed == pytest.approx(sum(srs.retrievability(c, NOW) for c in cards.values()))


def test_a_store_that_fails_the_pow_probe_otherwise_is_said_so_not_given_pythons_pow(
    tmp_path: Path,
) -> None:
    """Only "no such function" means SQLite lacks `pow`: a full disk (or any other error) as
    the store is first asked is the store's problem, said as one, and asked again next time."""

    class Full:
        def __init__(self, conn: sqlite3.Connection) -> None:
            self.conn, self.created = conn, False

        def execute(self, sql: str, *args: object) -> sqlite3.Cursor:
            if "pow(" in sql:
                raise sqlite3.OperationalError("database or disk is full")
            return self.conn.execute(sql, *args)

        def create_function(self, *args: object, **kw: object) -> None:
            self.created = True

        def __getattr__(self, name: str) -> object:  # the rest, as the connection has it
            return getattr(self.conn, name)

    with Store.open(tmp_path / "vocabgame.db") as store:
        full = Full(store.conn)
        store.conn = full  # type: ignore[assignment]
        with pytest.raises(StoreError, match="full"):
            store.schedules.recall_sum("deck", NOW, Srs().forgetting_curve(), 0.9)
        store.conn = full.conn
        assert not full.created
        assert store.schedules.recall_sum("deck", NOW, Srs().forgetting_curve(), 0.9)[0] == 0


def test_undo_and_override_refuse_once_another_process_answered_the_same_face(
    tmp_path: Path,
) -> None:
    """Two connections on one file stand for two vocabgames: B answers a face after A did; A's
    undo or "I was right" would put back or rebuild a card B's answer moved on from."""
    srs = Srs(fuzz=False)

    def wrong(before: Card | None, new_id: int) -> Card:
        return srs.review(before or srs.new_card(new_id, NOW), 1, NOW)

    path = tmp_path / "vocabgame.db"
    with Store.open(path) as a, Store.open(path) as b:
        review = Review(KEY, NOW, 1, False, 900, "review", "tpot")
        first, _ = a.answers.record(review, wrong, None)
        _, card = b.answers.record(review, wrong, None)
        for action in (
            lambda: a.answers.undo(first),
            lambda: a.answers.override(first, rating=3, points=10, schedule=wrong),
        ):
            with pytest.raises(StoreError, match="another vocabgame on this data folder") as exc:
                action()
            assert one_sentence(str(exc.value))
            assert len(a.answers.all()) == 2 and a.answers.overridden_ids() == []
            assert a.schedules.card(KEY).to_dict() == card.to_dict()  # type: ignore[union-attr]


def test_the_learned_count_is_read_again_once_any_connection_writes(tmp_path: Path) -> None:
    """A deck's learned faces (`deck_summary`'s fourth count, kept per item by triggers) are
    kept while the store is unchanged (a second count runs no query), and counted afresh once
    this connection or another one wrote a row."""
    path = tmp_path / "v.db"
    store = Store.open(path)

    def card(n: int, stability: float) -> Card:
        return Card(
            card_id=n,
            state=State.Review,
            stability=stability,
            difficulty=5.0,
            due=NOW,
            last_review=NOW - timedelta(days=1),
        )

    live = '{"a": 2, "b": 1}'
    _put_cards(store, {FaceKey("deck", "a", "term"): card(1, 40.0)})
    queries: list[str] = []
    store.conn.set_trace_callback(queries.append)
    assert store.items.deck_summary("deck", live)[3] == 1
    assert store.items.deck_summary("deck", live)[3] == 1
    assert sum("FROM json_each" in q for q in queries) == 1  # the second count ran no query
    _put_cards(store, {FaceKey("deck", "a", "definition"): card(2, 30.0)})  # this connection
    assert store.items.deck_summary("deck", live)[3] == 2
    other = sqlite3.connect(path, isolation_level=None)
    other.execute("UPDATE cards SET stability = 1.0 WHERE item_id = 'a' AND face = 'term'")
    other.close()
    assert store.items.deck_summary("deck", live)[3] == 1  # another process's write
    assert store.items.deck_summary("deck", '{"a": 1}')[3] == 1  # at most the item's faces
    store.close()


def test_a_decks_summary_is_read_again_once_any_connection_writes(tmp_path: Path) -> None:
    """`deck_summary` (the home screen's started and seen counts) is kept while the store is
    unchanged, and read afresh after a write by this connection or another one."""
    path = tmp_path / "v.db"
    store = Store.open(path)
    live = '{"a": 2, "b": 1}'
    add = "INSERT INTO items (deck_id, item_id, first_at, reviews, faces) VALUES (?, ?, ?, 1, ?)"
    store.conn.execute(add, ("deck", "a", NOW.isoformat(), 1))
    queries: list[str] = []
    store.conn.set_trace_callback(queries.append)
    assert store.items.deck_summary("deck", live) == (1, 1, 2, 0)
    assert store.items.deck_summary("deck", live) == (1, 1, 2, 0)
    assert sum("FROM json_each" in q for q in queries) == 1  # the second read ran no query
    store.conn.execute(add, ("deck", "b", NOW.isoformat(), 1))  # this connection
    assert store.items.deck_summary("deck", live) == (2, 2, 3, 0)
    other = sqlite3.connect(path, isolation_level=None)
    other.execute("UPDATE items SET faces = 2 WHERE item_id = 'a'")
    other.close()
    assert store.items.deck_summary("deck", live) == (2, 3, 3, 0)  # another process's write
    store.close()


def test_a_kept_recall_sum_is_read_again_after_a_write_here_or_from_another_process(
    tmp_path: Path,
) -> None:
    """`recall_sum` is kept while the store is unchanged (as `started_in` and `deck_summary`
    are, through the same `Part._kept_read`); a card written on this connection, or a commit
    from another connection, makes it read again."""
    srs = Srs()
    cards = {
        FaceKey("deck", f"i{n}", "claim"): Card(
            card_id=n + 1,
            state=State.Review,
            stability=2.0 + n,
            difficulty=5.0,
            due=NOW + timedelta(days=n),
            last_review=NOW - timedelta(days=3),
        )
        for n in range(3)
    }
    curve = srs.forgetting_curve()
    with Store.open(tmp_path / "vocabgame.db") as store:
        _put_cards(store, dict(list(cards.items())[:2]))
        first = store.schedules.recall_sum("deck", NOW, curve, 0.9)
        assert store.schedules.recall_sum("deck", NOW, curve, 0.9) == first
        assert first[0] == 2
        _put_cards(store, dict(list(cards.items())[2:]))  # written here
        assert store.schedules.recall_sum("deck", NOW, curve, 0.9)[0] == 3
        other = sqlite3.connect(tmp_path / "vocabgame.db")
        other.execute("DELETE FROM cards WHERE item_id = 'i0'")  # another process
        other.commit()
        other.close()
        assert store.schedules.recall_sum("deck", NOW, curve, 0.9)[0] == 2


def test_fading_by_read_day_by_day_is_fading_by_over_every_card(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Read along cards_recall, a day of last review at a time (a deck of many cards), the
    faces fading by a day are exactly those the pass over every card finds, in its order,
    whatever the columns hold: ties, reviews after now and none, stabilities NULL, zero and
    negative, recall now at the target or not asked."""
    from vocabgame.store import recall

    curve = Srs().forgetting_curve()
    now = NOW.replace(microsecond=400_000)
    for seed in range(30):
        rng = random.Random(seed)
        with _odd_store(tmp_path / f"{seed}.db", rng, now, ["a"], [-1, 0, 1, 2, 3, 8, 20]) as store:
            found = []
            for bounded in (10**9, 1):
                monkeypatch.setattr(recall, "BOUNDED_FROM", bounded)
                for ahead in (2, 9):
                    for target in (0.8, 0.9):
                        for last_day in (False, True):
                            day = now + timedelta(days=ahead)
                            args = (day, now, curve, target, last_day)
                            found.append(store.schedules.fading_by("a", *args))
        whole, by_day = found[: len(found) // 2], found[len(found) // 2 :]
        assert by_day == whole, seed
        assert any(whole), seed
