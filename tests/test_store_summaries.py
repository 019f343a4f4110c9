"""The summaries the stats read instead of the whole history (migration 9): the answers per
quarter hour and the learned answers per day and face, kept by triggers, must give the
figures the answers themselves give, after every kind of write and after migrating an old store."""

from __future__ import annotations

import json
import random
import sqlite3
from collections import Counter
from datetime import UTC, date, datetime, timedelta, timezone
from pathlib import Path

from vocabgame import check, insights, stats
from vocabgame import store as store_module
from vocabgame.deck import Catalog
from vocabgame.kinds import item_faces
from vocabgame.play import Session
from vocabgame.progress import export_progress, import_progress
from vocabgame.srs import Srs
from vocabgame.store import Store

from .faults import items_problems
from .test_session import MIXED, START, Now, answer, claims_deck, parse, terms_deck

ZONES = (UTC, timezone(timedelta(hours=5, minutes=45)), timezone(timedelta(hours=-9)))


def raw_figures(
    conn: sqlite3.Connection, now: datetime, day_of: insights.DayOf, deck_id: str | None = None
) -> tuple[dict[tuple[str, str, str], tuple[int, int]], dict[date, int]]:
    """The retention answers per face and the answers per day of the heatmap, worked out from
    every answer as the stats did before the summaries."""
    since = (now - timedelta(days=insights.RETENTION_DAYS)).isoformat()
    window = (now - timedelta(days=insights.HEATMAP_DAYS + 1)).isoformat()
    first_day = day_of(now) - timedelta(days=insights.HEATMAP_DAYS - 1)
    learned: dict[tuple[str, str, str], tuple[int, int]] = {}
    daily: Counter[date] = Counter()
    rows = conn.execute(
        "SELECT deck_id, item_id, face, reviewed_at, correct, scheduled, card_before FROM reviews"
    )
    for d, i, f, at, correct, scheduled, before in rows:
        state = json.loads(before)["state"] if before is not None else None
        if at >= since and scheduled == 1 and state == insights.LEARNED:
            n, right = learned.get((d, i, f), (0, 0))
            learned[(d, i, f)] = (n + 1, right + correct)
        if at >= window and deck_id in (None, d):
            day = day_of(datetime.fromisoformat(at))
            if day >= first_day:
                daily[day] += 1
    return learned, dict(daily)


def assert_figures_agree(session: Session, deck_id: str | None = None) -> int:
    """The stats' retention and heatmap equal the raw figures in several time zones; returns
    how many answers the retention counted."""
    now = session.clock()
    decks = session.decks_for(deck_id)
    keys = {(k.deck_id, k.item_id, k.face) for k in insights.scope_keys(decks, deck_id)}
    counted = 0
    for zone in ZONES:

        def day_of(moment: datetime, zone: timezone = zone) -> date:
            return moment.astimezone(zone).date()

        figures = insights.collect(session.store, decks, now, day_of, deck_id)
        learned, daily = raw_figures(session.store.conn, now, day_of, deck_id)
        in_scope = [v for face, v in learned.items() if face in keys]
        assert figures.retention == insights.Tally(
            sum(r for _, r in in_scope), sum(n for n, _ in in_scope)
        )
        assert {d: n for d, n in figures.daily if n} == daily
        counted = figures.retention.total
    return counted


def assert_home_agrees(session: Session, left: int) -> None:
    """The home screen's figures per deck (read from the per-item summary) equal the same
    figures counted from every answer and card."""
    conn = session.store.conn
    now = session.clock()
    answered = set(conn.execute("SELECT DISTINCT deck_id, item_id FROM reviews"))
    cards = Counter((d, i) for d, i in conn.execute("SELECT deck_id, item_id FROM cards"))
    due = set(
        conn.execute("SELECT deck_id, item_id, face FROM cards WHERE due <= ?", (now.isoformat(),))
    )
    decks = session.catalog.decks
    figures = stats.deck_progress(session.store, decks, now, {d.id: left for d in decks})
    for deck, got in zip(decks, figures, strict=True):
        faces = {item.id: item_faces(item) for item in deck.items()}
        order = stats.new_item_order(deck)
        started = [i for i in order if (deck.id, i) in answered]
        unstarted = [i for i in order if (deck.id, i) not in answered]
        seen = sum(min(cards[(deck.id, i)], len(faces[i])) for i in started)
        opening = unstarted[: min(left, len(unstarted))]
        assert (got.seen, got.total, got.unstarted, got.new_items_left) == (
            seen,
            sum(len(f) for f in faces.values()),
            len(unstarted),
            len(opening),
        )
        assert got.due == sum((deck.id, i, f) in due for i in faces for f in faces[i])
        assert got.new == sum(len(faces[i]) for i in started) - seen + sum(
            len(faces[i]) for i in opening
        )


def test_the_summaries_follow_answers_undo_overrides_and_imports(tmp_path: Path) -> None:
    now: Now = [START]
    decks = (claims_deck(8), terms_deck(6), parse(MIXED))
    store = Store.open(tmp_path / "a" / "vocabgame.db")
    store.preferences.set("new_per_day", 4)
    session = Session(store, Catalog(decks, ()), clock=lambda: now[0], tz=UTC)
    rng = random.Random(7)
    learned = chances = 0
    for day in range(40):
        now[0] = START + timedelta(days=day, hours=rng.randrange(24), minutes=rng.randrange(60))
        round_ = session.start_round(rng.choice([None, "facts", "words", "mixed"]), size=6)
        if round_ is None:
            continue
        while round_.question() is not None:
            now[0] += timedelta(minutes=rng.randrange(1, 20))
            answer(round_, rng.random() < 0.75)
            if rng.random() < 0.1 and round_.can_undo():
                round_.undo()
                continue
            if round_.can_override():  # every other typed answer marked wrong: "I was right"
                chances += 1
                if chances % 2:
                    round_.override()
            round_.advance()
        round_.finish()
        if day % 5 == 4:
            learned += assert_figures_agree(session)
            assert_figures_agree(session, "words")
            assert items_problems(tmp_path / "a" / "vocabgame.db") == []
            for left in (0, 1, 3):
                assert_home_agrees(session, left)
    assert learned > 0  # the retention figure was not empty
    assert session.store.answers.overridden_ids()  # overrides happened

    # An import merges the history into another store: its summaries follow too.
    exported = export_progress(session.store, now[0])
    other = Session(
        Store.open(tmp_path / "b" / "vocabgame.db"),
        Catalog(decks, ()),
        clock=lambda: now[0],
        tz=UTC,
    )
    import_progress(other.store, exported, Srs())
    assert assert_figures_agree(other) > 0
    assert items_problems(tmp_path / "b" / "vocabgame.db") == []
    session.close()
    other.close()


def test_migration_9_fills_the_summaries_from_an_older_store(tmp_path: Path) -> None:
    """A store as schema 8 left it, with answers in it: opening it migrates, and the
    summaries equal what the answers give."""
    path = tmp_path / "vocabgame.db"
    conn = sqlite3.connect(path)
    for migration in store_module.MIGRATIONS[:8]:
        conn.executescript(migration)
    conn.execute("PRAGMA user_version = 8")
    srs = Srs(fuzz=False)
    card = srs.review(srs.new_card(1, START), 4, START)  # Easy: learned at once
    rows = []
    for n in range(300):
        at = START + timedelta(hours=7 * n, minutes=n % 60)
        before = card.to_json() if n % 3 else None
        rows.append(("words", f"t{n % 6:02d}", "term", at.isoformat(), n % 4 != 0, before))
    conn.executemany(
        "INSERT INTO reviews (deck_id, item_id, face, reviewed_at, rating, correct, mode,"
        " answer, card_before) VALUES (?, ?, ?, ?, 3, ?, 'review', 'x', ?)",
        rows,
    )
    conn.commit()
    conn.close()
    now = START + timedelta(hours=7 * 300)
    with Store.open(path) as store:
        assert store.schema_version() == store_module.SCHEMA_VERSION
        session = Session(store, Catalog((terms_deck(6),), ()), clock=lambda: now)
        assert assert_figures_agree(session) > 0
    assert items_problems(path) == []


def test_check_reports_and_rebuilds_a_summary_that_disagrees(tmp_path: Path) -> None:
    now: Now = [START]
    store = Store.open(tmp_path / "vocabgame.db")
    session = Session(store, Catalog((claims_deck(6),), ()), clock=lambda: now[0], fuzz=False)
    round_ = session.start_round(size=6, seed=1)
    assert round_ is not None
    while round_.question() is not None:
        now[0] += timedelta(minutes=20)
        answer(round_, True)
        round_.advance()
    session.close()
    conn = sqlite3.connect(tmp_path / "vocabgame.db", isolation_level=None)
    assert check.check(conn).clean
    conn.execute("UPDATE answer_quarters SET answers = answers + 2")
    conn.execute(
        "DELETE FROM face_stats WHERE (deck_id, item_id, face) IN"
        " (SELECT deck_id, item_id, face FROM face_stats LIMIT 1)"
    )
    report = check.check(conn)
    assert sorted(f.message.split()[3] for f in report.findings if f.kind == check.SUMMARY) == [
        "answer_quarters",
        "face_stats",
    ]
    assert all(f.fixable for f in report.findings)
    fixed = check.check(conn, fix=True)
    assert fixed.fixed == 2
    assert check.check(conn).clean
    conn.close()
    assert items_problems(tmp_path / "vocabgame.db") == []


def test_the_learned_threshold_the_triggers_were_written_with_is_the_schedulers() -> None:
    from vocabgame.srs import LEARNED_DAYS
    from vocabgame.store.schema import MIGRATIONS

    assert f">= {LEARNED_DAYS}" in MIGRATIONS[13]  # 13 -> 14 keeps each item's learned faces
