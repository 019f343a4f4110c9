"""The store's schema: `MIGRATIONS[n]` takes a database from version n to n + 1 (the version
lives in `PRAGMA user_version`), and `SUMMARIES`, the tables the triggers keep from the
reviews and cards, each with the query that checks it and the statements that rebuild it.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from dataclasses import dataclass

# The quarter hour (UTC) of an answer's time, "2026-11-30T12:15" ('' for a time SQLite cannot
# read): the heatmap's days, in any time zone, are made of these.
QUARTER = (
    "COALESCE(strftime('%Y-%m-%dT%H:', {0})"
    " || printf('%02d', CAST(strftime('%M', {0}) AS INTEGER) / 15 * 15), '')"
)
# An answer to a learned face (FSRS's Review state when it was asked), as the retention figure
# counts them; {0} is the row (NEW., OLD. or nothing).
LEARNED = "{0}scheduled = 1 AND json_extract({0}card_before, '$.state') = 2"
# A schedule learned: stable for 21 days or more, `srs.LEARNED_DAYS` as migration 14 wrote it
# into its triggers (a test holds the two equal) ({0}: the table's alias and a dot).
_IS_LEARNED = "IFNULL({0}stability, 0) >= 21"
# Microseconds since 1970 (UTC) of an ISO time ({0}) as `datetime.isoformat` writes it
# (seconds from SQLite, the six digits of a fraction from the text); NULL for NULL.
# (The fraction is cut out before SQLite reads the seconds: it would round .9995 up.)
MICROSECONDS = (
    "(CASE WHEN substr({0}, 20, 1) = '.'"
    " THEN CAST(strftime('%s', substr({0}, 1, 19) || substr({0}, 27)) AS INTEGER) * 1000000"
    " + CAST(substr({0}, 21, 6) AS INTEGER)"
    " ELSE CAST(strftime('%s', {0}) AS INTEGER) * 1000000 END)"
)
# A card's stability and last review (as MICROSECONDS) from its JSON ({0}): the columns
# migration 12 keeps, in one row value so that one UPDATE sets both.
_KEPT = (
    "(SELECT json_extract({0}, '$.stability'), " + MICROSECONDS.format("last") + " FROM"
    " (SELECT json_extract({0}, '$.last_review') AS last))"
)

MIGRATIONS: list[str] = [
    # 0 -> 1
    """
    CREATE TABLE cards (
        deck_id TEXT NOT NULL,
        item_id TEXT NOT NULL,
        face TEXT NOT NULL,
        card_id INTEGER NOT NULL UNIQUE,
        card TEXT NOT NULL,
        due TEXT NOT NULL,
        PRIMARY KEY (deck_id, item_id, face)
    );
    CREATE INDEX cards_due ON cards (deck_id, due);
    CREATE TABLE rounds (
        id INTEGER PRIMARY KEY,
        deck_id TEXT,
        mode TEXT NOT NULL,
        started_at TEXT NOT NULL,
        ended_at TEXT,
        questions INTEGER NOT NULL DEFAULT 0,
        correct INTEGER NOT NULL DEFAULT 0,
        score INTEGER NOT NULL DEFAULT 0,
        best_streak INTEGER NOT NULL DEFAULT 0,
        finished INTEGER NOT NULL DEFAULT 0
    );
    CREATE TABLE reviews (
        id INTEGER PRIMARY KEY,
        round_id INTEGER REFERENCES rounds (id),
        deck_id TEXT NOT NULL,
        item_id TEXT NOT NULL,
        face TEXT NOT NULL,
        reviewed_at TEXT NOT NULL,
        rating INTEGER NOT NULL,
        correct INTEGER NOT NULL,
        response_ms INTEGER,
        mode TEXT NOT NULL,
        answer TEXT NOT NULL,
        points INTEGER NOT NULL DEFAULT 0,
        card_before TEXT
    );
    CREATE INDEX reviews_item ON reviews (deck_id, item_id, face);
    CREATE TABLE flags (
        id INTEGER PRIMARY KEY,
        deck_id TEXT NOT NULL,
        item_id TEXT NOT NULL,
        face TEXT NOT NULL,
        flagged_at TEXT NOT NULL,
        note TEXT NOT NULL DEFAULT ''
    );
    CREATE TABLE settings (
        key TEXT PRIMARY KEY,
        value TEXT NOT NULL
    );
    """,
    # 1 -> 2: answers in a mode that leaves the schedule alone (cram) are kept, unscheduled
    """
    ALTER TABLE reviews ADD COLUMN scheduled INTEGER NOT NULL DEFAULT 1;
    """,
    # 2 -> 3: renames (`formerly` in a deck) already carried, so each is carried once
    """
    CREATE TABLE renames (
        deck_id TEXT NOT NULL,
        old_deck TEXT NOT NULL,
        old_item TEXT NOT NULL,
        new_item TEXT NOT NULL,
        carried_at TEXT NOT NULL,
        moved INTEGER NOT NULL,
        PRIMARY KEY (deck_id, old_deck, old_item)
    );
    """,
    # 3 -> 4: one flag per face (f toggles it), keeping the first flag's time and the latest
    # note written for it
    """
    UPDATE flags SET note = COALESCE(
        (SELECT f.note FROM flags AS f
         WHERE f.deck_id = flags.deck_id AND f.item_id = flags.item_id AND f.face = flags.face
           AND f.note != '' ORDER BY f.id DESC LIMIT 1),
        '');
    DELETE FROM flags WHERE id NOT IN (SELECT MIN(id) FROM flags GROUP BY deck_id, item_id, face);
    CREATE UNIQUE INDEX flags_face ON flags (deck_id, item_id, face);
    """,
    # 4 -> 5: an answer marked wrong that the player overrode as right ("I was right")
    """
    ALTER TABLE reviews ADD COLUMN overridden INTEGER NOT NULL DEFAULT 0;
    """,
    # 5 -> 6: per item, when it was first answered, its answers and its scheduled faces, kept
    # by triggers on every write to reviews and cards, so the home screen and round planning
    # read one small row per item instead of a year of reviews
    """
    CREATE TABLE items (
        deck_id TEXT NOT NULL,
        item_id TEXT NOT NULL,
        first_at TEXT,
        reviews INTEGER NOT NULL DEFAULT 0,
        faces INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (deck_id, item_id)
    ) WITHOUT ROWID;
    INSERT INTO items (deck_id, item_id, first_at, reviews)
        SELECT deck_id, item_id, MIN(reviewed_at), COUNT(*) FROM reviews GROUP BY deck_id, item_id;
    INSERT INTO items (deck_id, item_id, faces)
        SELECT deck_id, item_id, COUNT(*) FROM cards WHERE true GROUP BY deck_id, item_id
        ON CONFLICT (deck_id, item_id) DO UPDATE SET faces = excluded.faces;
    CREATE TRIGGER items_review_added AFTER INSERT ON reviews BEGIN
        INSERT INTO items (deck_id, item_id, first_at, reviews)
            VALUES (NEW.deck_id, NEW.item_id, NEW.reviewed_at, 1)
            ON CONFLICT (deck_id, item_id) DO UPDATE SET reviews = reviews + 1,
                first_at = CASE WHEN first_at IS NULL
                    OR julianday(excluded.first_at) < julianday(first_at)
                    THEN excluded.first_at ELSE first_at END;
    END;
    CREATE TRIGGER items_review_removed AFTER DELETE ON reviews BEGIN
        UPDATE items SET reviews = reviews - 1,
            first_at = (SELECT reviewed_at FROM reviews AS r
                        WHERE r.deck_id = OLD.deck_id AND r.item_id = OLD.item_id
                        ORDER BY julianday(r.reviewed_at) LIMIT 1)
            WHERE deck_id = OLD.deck_id AND item_id = OLD.item_id;
        DELETE FROM items WHERE deck_id = OLD.deck_id AND item_id = OLD.item_id
            AND reviews <= 0 AND faces <= 0;
    END;
    CREATE TRIGGER items_review_moved AFTER UPDATE OF deck_id, item_id ON reviews
        WHEN OLD.deck_id IS NOT NEW.deck_id OR OLD.item_id IS NOT NEW.item_id BEGIN
        UPDATE items SET reviews = reviews - 1,
            first_at = (SELECT reviewed_at FROM reviews AS r
                        WHERE r.deck_id = OLD.deck_id AND r.item_id = OLD.item_id
                        ORDER BY julianday(r.reviewed_at) LIMIT 1)
            WHERE deck_id = OLD.deck_id AND item_id = OLD.item_id;
        DELETE FROM items WHERE deck_id = OLD.deck_id AND item_id = OLD.item_id
            AND reviews <= 0 AND faces <= 0;
        INSERT INTO items (deck_id, item_id, first_at, reviews)
            VALUES (NEW.deck_id, NEW.item_id, NEW.reviewed_at, 1)
            ON CONFLICT (deck_id, item_id) DO UPDATE SET reviews = reviews + 1,
                first_at = CASE WHEN first_at IS NULL
                    OR julianday(excluded.first_at) < julianday(first_at)
                    THEN excluded.first_at ELSE first_at END;
    END;
    CREATE TRIGGER items_card_added AFTER INSERT ON cards BEGIN
        INSERT INTO items (deck_id, item_id, faces) VALUES (NEW.deck_id, NEW.item_id, 1)
            ON CONFLICT (deck_id, item_id) DO UPDATE SET faces = faces + 1;
    END;
    CREATE TRIGGER items_card_removed AFTER DELETE ON cards BEGIN
        UPDATE items SET faces = faces - 1
            WHERE deck_id = OLD.deck_id AND item_id = OLD.item_id;
        DELETE FROM items WHERE deck_id = OLD.deck_id AND item_id = OLD.item_id
            AND reviews <= 0 AND faces <= 0;
    END;
    CREATE TRIGGER items_card_moved AFTER UPDATE OF deck_id, item_id ON cards
        WHEN OLD.deck_id IS NOT NEW.deck_id OR OLD.item_id IS NOT NEW.item_id BEGIN
        UPDATE items SET faces = faces - 1
            WHERE deck_id = OLD.deck_id AND item_id = OLD.item_id;
        DELETE FROM items WHERE deck_id = OLD.deck_id AND item_id = OLD.item_id
            AND reviews <= 0 AND faces <= 0;
        INSERT INTO items (deck_id, item_id, faces) VALUES (NEW.deck_id, NEW.item_id, 1)
            ON CONFLICT (deck_id, item_id) DO UPDATE SET faces = faces + 1;
    END;
    """,
    # 6 -> 7: a mode's saved reports (the interview's), and each wrong pick of one term for
    # another (answer X, picked Y), kept beside its review: an undone answer's confusion
    # goes with it (reads join the reviews)
    """
    CREATE TABLE reports (
        id INTEGER PRIMARY KEY,
        mode TEXT NOT NULL,
        made_at TEXT NOT NULL,
        decks TEXT NOT NULL,
        questions INTEGER NOT NULL,
        correct INTEGER NOT NULL,
        seconds REAL NOT NULL,
        body TEXT NOT NULL
    );
    CREATE TABLE confusions (
        review_id INTEGER PRIMARY KEY,
        deck_id TEXT NOT NULL,
        answer_term TEXT NOT NULL,
        picked_term TEXT NOT NULL
    );
    CREATE INDEX confusions_pair ON confusions (deck_id, answer_term, picked_term);
    CREATE TABLE drill_answers (
        review_id INTEGER PRIMARY KEY,
        deck_id TEXT NOT NULL,
        term_a TEXT NOT NULL,
        term_b TEXT NOT NULL
    );
    """,
    # 7 -> 8: for the stats over a long history: per face, its answers, right answers and
    # lapses (wrong after it was learned), and its wrong answers by text, kept by triggers
    # like the items table; indexes on answers by time and on the few overridden as right
    """
    CREATE INDEX IF NOT EXISTS reviews_time ON reviews (reviewed_at);
    CREATE INDEX IF NOT EXISTS reviews_overridden ON reviews (overridden) WHERE overridden = 1;
    CREATE TABLE face_stats (
        deck_id TEXT NOT NULL,
        item_id TEXT NOT NULL,
        face TEXT NOT NULL,
        reviews INTEGER NOT NULL DEFAULT 0,
        right INTEGER NOT NULL DEFAULT 0,
        lapses INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (deck_id, item_id, face)
    ) WITHOUT ROWID;
    INSERT INTO face_stats
        SELECT deck_id, item_id, face, COUNT(*), SUM(correct),
            IFNULL(SUM(correct = 0 AND json_extract(card_before, '$.state') = 2), 0)
        FROM reviews GROUP BY deck_id, item_id, face;
    CREATE TABLE wrong_answers (
        deck_id TEXT NOT NULL,
        item_id TEXT NOT NULL,
        face TEXT NOT NULL,
        answer TEXT NOT NULL,
        times INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (deck_id, item_id, face, answer)
    ) WITHOUT ROWID;
    INSERT INTO wrong_answers
        SELECT deck_id, item_id, face, answer, COUNT(*) FROM reviews WHERE correct = 0
        GROUP BY deck_id, item_id, face, answer;
    CREATE TRIGGER face_stats_added AFTER INSERT ON reviews BEGIN
        INSERT INTO face_stats VALUES (NEW.deck_id, NEW.item_id, NEW.face, 1, NEW.correct,
            IFNULL(NEW.correct = 0 AND json_extract(NEW.card_before, '$.state') = 2, 0))
            ON CONFLICT (deck_id, item_id, face) DO UPDATE SET reviews = reviews + 1,
                right = right + excluded.right, lapses = lapses + excluded.lapses;
        INSERT INTO wrong_answers
            SELECT NEW.deck_id, NEW.item_id, NEW.face, NEW.answer, 1 WHERE NEW.correct = 0
            ON CONFLICT (deck_id, item_id, face, answer) DO UPDATE SET times = times + 1;
    END;
    CREATE TRIGGER face_stats_removed AFTER DELETE ON reviews BEGIN
        UPDATE face_stats SET reviews = reviews - 1, right = right - OLD.correct,
            lapses = lapses - IFNULL(OLD.correct = 0 AND json_extract(OLD.card_before, '$.state') = 2, 0)
            WHERE deck_id = OLD.deck_id AND item_id = OLD.item_id AND face = OLD.face;
        DELETE FROM face_stats WHERE deck_id = OLD.deck_id AND item_id = OLD.item_id
            AND face = OLD.face AND reviews <= 0;
        UPDATE wrong_answers SET times = times - 1 WHERE OLD.correct = 0
            AND deck_id = OLD.deck_id AND item_id = OLD.item_id AND face = OLD.face
            AND answer = OLD.answer;
        DELETE FROM wrong_answers WHERE times <= 0 AND deck_id = OLD.deck_id
            AND item_id = OLD.item_id AND face = OLD.face AND answer = OLD.answer;
    END;
    CREATE TRIGGER face_stats_changed AFTER UPDATE OF deck_id, item_id, face, correct,
        card_before, answer ON reviews BEGIN
        UPDATE face_stats SET reviews = reviews - 1, right = right - OLD.correct,
            lapses = lapses - IFNULL(OLD.correct = 0 AND json_extract(OLD.card_before, '$.state') = 2, 0)
            WHERE deck_id = OLD.deck_id AND item_id = OLD.item_id AND face = OLD.face;
        DELETE FROM face_stats WHERE deck_id = OLD.deck_id AND item_id = OLD.item_id
            AND face = OLD.face AND reviews <= 0;
        INSERT INTO face_stats VALUES (NEW.deck_id, NEW.item_id, NEW.face, 1, NEW.correct,
            IFNULL(NEW.correct = 0 AND json_extract(NEW.card_before, '$.state') = 2, 0))
            ON CONFLICT (deck_id, item_id, face) DO UPDATE SET reviews = reviews + 1,
                right = right + excluded.right, lapses = lapses + excluded.lapses;
        UPDATE wrong_answers SET times = times - 1 WHERE OLD.correct = 0
            AND deck_id = OLD.deck_id AND item_id = OLD.item_id AND face = OLD.face
            AND answer = OLD.answer;
        DELETE FROM wrong_answers WHERE times <= 0 AND deck_id = OLD.deck_id
            AND item_id = OLD.item_id AND face = OLD.face AND answer = OLD.answer;
        INSERT INTO wrong_answers
            SELECT NEW.deck_id, NEW.item_id, NEW.face, NEW.answer, 1 WHERE NEW.correct = 0
            ON CONFLICT (deck_id, item_id, face, answer) DO UPDATE SET times = times + 1;
    END;
    """,
    # 8 -> 9: for the stats screen over a long history, two summaries kept by triggers like
    # face_stats: the answers per quarter hour (UTC) and deck, so the heatmap reads a few
    # thousand rows instead of twelve weeks of answers; and per day (as written: the first ten
    # characters of the time) and face, the answers to learned faces and the right ones, for
    # the retention figure. And an index on mode for the answers kept in one mode (cram's).
    f"""
    CREATE TABLE answer_quarters (
        quarter TEXT NOT NULL,
        deck_id TEXT NOT NULL,
        answers INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (quarter, deck_id)
    ) WITHOUT ROWID;
    INSERT INTO answer_quarters
        SELECT {QUARTER.format("reviewed_at")}, deck_id, COUNT(*) FROM reviews GROUP BY 1, 2;
    CREATE TRIGGER answer_quarters_added AFTER INSERT ON reviews BEGIN
        INSERT INTO answer_quarters VALUES ({QUARTER.format("NEW.reviewed_at")}, NEW.deck_id, 1)
            ON CONFLICT (quarter, deck_id) DO UPDATE SET answers = answers + 1;
    END;
    CREATE TRIGGER answer_quarters_removed AFTER DELETE ON reviews BEGIN
        UPDATE answer_quarters SET answers = answers - 1
            WHERE quarter = {QUARTER.format("OLD.reviewed_at")} AND deck_id = OLD.deck_id;
        DELETE FROM answer_quarters WHERE answers <= 0
            AND quarter = {QUARTER.format("OLD.reviewed_at")} AND deck_id = OLD.deck_id;
    END;
    CREATE TRIGGER answer_quarters_moved AFTER UPDATE OF reviewed_at, deck_id ON reviews
        WHEN OLD.reviewed_at IS NOT NEW.reviewed_at OR OLD.deck_id IS NOT NEW.deck_id BEGIN
        UPDATE answer_quarters SET answers = answers - 1
            WHERE quarter = {QUARTER.format("OLD.reviewed_at")} AND deck_id = OLD.deck_id;
        DELETE FROM answer_quarters WHERE answers <= 0
            AND quarter = {QUARTER.format("OLD.reviewed_at")} AND deck_id = OLD.deck_id;
        INSERT INTO answer_quarters VALUES ({QUARTER.format("NEW.reviewed_at")}, NEW.deck_id, 1)
            ON CONFLICT (quarter, deck_id) DO UPDATE SET answers = answers + 1;
    END;
    CREATE TABLE learned_days (
        day TEXT NOT NULL,
        deck_id TEXT NOT NULL,
        item_id TEXT NOT NULL,
        face TEXT NOT NULL,
        answers INTEGER NOT NULL DEFAULT 0,
        right INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (day, deck_id, item_id, face)
    ) WITHOUT ROWID;
    INSERT INTO learned_days
        SELECT substr(reviewed_at, 1, 10), deck_id, item_id, face, COUNT(*), SUM(correct)
        FROM reviews WHERE {LEARNED.format("")} GROUP BY 1, 2, 3, 4;
    CREATE TRIGGER learned_days_added AFTER INSERT ON reviews
        WHEN {LEARNED.format("NEW.")} BEGIN
        INSERT INTO learned_days VALUES (substr(NEW.reviewed_at, 1, 10), NEW.deck_id,
            NEW.item_id, NEW.face, 1, NEW.correct)
            ON CONFLICT (day, deck_id, item_id, face) DO UPDATE SET answers = answers + 1,
                right = right + excluded.right;
    END;
    CREATE TRIGGER learned_days_removed AFTER DELETE ON reviews
        WHEN {LEARNED.format("OLD.")} BEGIN
        UPDATE learned_days SET answers = answers - 1, right = right - OLD.correct
            WHERE day = substr(OLD.reviewed_at, 1, 10) AND deck_id = OLD.deck_id
            AND item_id = OLD.item_id AND face = OLD.face;
        DELETE FROM learned_days WHERE answers <= 0 AND day = substr(OLD.reviewed_at, 1, 10)
            AND deck_id = OLD.deck_id AND item_id = OLD.item_id AND face = OLD.face;
    END;
    CREATE TRIGGER learned_days_changed AFTER UPDATE OF reviewed_at, deck_id, item_id, face,
        correct, scheduled, card_before ON reviews BEGIN
        UPDATE learned_days SET answers = answers - 1, right = right - OLD.correct
            WHERE {LEARNED.format("OLD.")} AND day = substr(OLD.reviewed_at, 1, 10)
            AND deck_id = OLD.deck_id AND item_id = OLD.item_id AND face = OLD.face;
        DELETE FROM learned_days WHERE answers <= 0 AND day = substr(OLD.reviewed_at, 1, 10)
            AND deck_id = OLD.deck_id AND item_id = OLD.item_id AND face = OLD.face;
        INSERT INTO learned_days SELECT substr(NEW.reviewed_at, 1, 10), NEW.deck_id,
            NEW.item_id, NEW.face, 1, NEW.correct WHERE {LEARNED.format("NEW.")}
            ON CONFLICT (day, deck_id, item_id, face) DO UPDATE SET answers = answers + 1,
                right = right + excluded.right;
    END;
    CREATE INDEX IF NOT EXISTS reviews_mode ON reviews (mode);
    """,
    # 9 -> 10: each deck's items in the order new ones start, as the game last loaded it
    # (`digest` names that order), with whether each has been answered, kept by triggers on
    # items: a round's first new items are then a few rows of an index, however many items
    # were started before. The items first answered since a moment, through an index.
    """
    CREATE TABLE item_orders (
        deck_id TEXT PRIMARY KEY,
        digest TEXT NOT NULL
    ) WITHOUT ROWID;
    CREATE TABLE item_order (
        deck_id TEXT NOT NULL,
        item_id TEXT NOT NULL,
        position INTEGER NOT NULL,
        started INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (deck_id, item_id)
    ) WITHOUT ROWID;
    CREATE INDEX item_order_new ON item_order (deck_id, position) WHERE started = 0;
    CREATE TRIGGER item_order_added AFTER INSERT ON items WHEN NEW.reviews > 0 BEGIN
        UPDATE item_order SET started = 1
            WHERE deck_id = NEW.deck_id AND item_id = NEW.item_id;
    END;
    CREATE TRIGGER item_order_changed AFTER UPDATE OF reviews ON items
        WHEN (OLD.reviews > 0) IS NOT (NEW.reviews > 0) BEGIN
        UPDATE item_order SET started = NEW.reviews > 0
            WHERE deck_id = NEW.deck_id AND item_id = NEW.item_id;
    END;
    CREATE TRIGGER item_order_removed AFTER DELETE ON items WHEN OLD.reviews > 0 BEGIN
        UPDATE item_order SET started = 0
            WHERE deck_id = OLD.deck_id AND item_id = OLD.item_id;
    END;
    CREATE INDEX items_first ON items (julianday(first_at)) WHERE reviews > 0;
    """,
    # 10 -> 11: each schedule's stability as a column of its own, kept by triggers from the
    # card, and an index on it, so "learned" (stable for weeks) is counted from the index
    # without decoding every card. (A plain column: an index on json_extract() would not open
    # where the schema is not trusted, as restore checks a backup.)
    """
    ALTER TABLE cards ADD COLUMN stability REAL;
    UPDATE cards SET stability = json_extract(card, '$.stability');
    CREATE TRIGGER cards_stability_added AFTER INSERT ON cards BEGIN
        UPDATE cards SET stability = json_extract(NEW.card, '$.stability')
            WHERE rowid = NEW.rowid;
    END;
    CREATE TRIGGER cards_stability_changed AFTER UPDATE OF card ON cards BEGIN
        UPDATE cards SET stability = json_extract(NEW.card, '$.stability')
            WHERE rowid = NEW.rowid;
    END;
    CREATE INDEX cards_stability ON cards (deck_id, item_id, stability);
    """,
    # 11 -> 12: each schedule's last review too (microseconds since 1970, UTC), kept with the
    # stability by one UPDATE per card written (11's two triggers replaced), and the index
    # on stability widened to hold what the orders by retrievability read: cram, the
    # interview and the stats screen read the index, not the cards' JSON.
    f"""
    ALTER TABLE cards ADD COLUMN last_review INTEGER;
    UPDATE cards SET (stability, last_review) = {_KEPT.format("card")};
    DROP TRIGGER cards_stability_added;
    DROP TRIGGER cards_stability_changed;
    CREATE TRIGGER cards_kept_added AFTER INSERT ON cards BEGIN
        UPDATE cards SET (stability, last_review) = {_KEPT.format("NEW.card")}
            WHERE rowid = NEW.rowid;
    END;
    CREATE TRIGGER cards_kept_changed AFTER UPDATE OF card ON cards BEGIN
        UPDATE cards SET (stability, last_review) = {_KEPT.format("NEW.card")}
            WHERE rowid = NEW.rowid;
    END;
    DROP INDEX cards_stability;
    CREATE INDEX cards_schedule ON cards (deck_id, item_id, stability, face, due, last_review);
    """,
    # 12 -> 13: how sure the player said they were of an answer (a mock interview's), as the
    # probability of being right they gave (NULL: not said), and an index on the few answers
    # that have one, so the calibration figures read those and not the whole history
    """
    ALTER TABLE reviews ADD COLUMN confidence REAL;
    CREATE INDEX reviews_confidence ON reviews (reviewed_at) WHERE confidence IS NOT NULL;
    """,
    # 13 -> 14: per item, its faces learned (a schedule stable for LEARNED_DAYS or more),
    # kept by triggers on the cards' stability, so home counts a deck's learned faces in the
    # join over its items it already makes, not in a pass over every card of the deck. Each
    # trigger writes by upsert: whether the item's row is there yet depends on the order
    # SQLite fires the cards' other triggers in.
    f"""
    ALTER TABLE items ADD COLUMN learned INTEGER NOT NULL DEFAULT 0;
    UPDATE items SET learned = (SELECT COUNT(*) FROM cards AS c
        WHERE c.deck_id = items.deck_id AND c.item_id = items.item_id
        AND {_IS_LEARNED.format("c.")});
    CREATE TRIGGER items_card_learned AFTER UPDATE OF stability ON cards
        WHEN ({_IS_LEARNED.format("OLD.")}) IS NOT ({_IS_LEARNED.format("NEW.")}) BEGIN
        INSERT INTO items (deck_id, item_id, learned)
            VALUES (NEW.deck_id, NEW.item_id, IIF({_IS_LEARNED.format("NEW.")}, 1, -1))
            ON CONFLICT (deck_id, item_id) DO UPDATE SET learned = learned + excluded.learned;
    END;
    CREATE TRIGGER items_card_learned_removed AFTER DELETE ON cards
        WHEN {_IS_LEARNED.format("OLD.")} BEGIN
        UPDATE items SET learned = learned - 1
            WHERE deck_id = OLD.deck_id AND item_id = OLD.item_id;
    END;
    CREATE TRIGGER items_card_learned_moved AFTER UPDATE OF deck_id, item_id ON cards
        WHEN (OLD.deck_id IS NOT NEW.deck_id OR OLD.item_id IS NOT NEW.item_id)
        AND {_IS_LEARNED.format("NEW.")} BEGIN
        UPDATE items SET learned = learned - 1
            WHERE deck_id = OLD.deck_id AND item_id = OLD.item_id;
        INSERT INTO items (deck_id, item_id, learned) VALUES (NEW.deck_id, NEW.item_id, 1)
            ON CONFLICT (deck_id, item_id) DO UPDATE SET learned = learned + 1;
    END;
    """,
    # 14 -> 15: indexes the stats screen reads a deck's figures along, so that each figure
    # stops at what it shows instead of joining every face in view: the weakest faces in
    # order of stability (and the few ever forgotten after they were learned), the due
    # times with the faces they belong to (the scope is looked up from the index alone, not
    # from each card's row), and each deck's distinct wrong texts.
    """
    CREATE INDEX cards_weak ON cards (deck_id, stability, item_id, face);
    CREATE INDEX face_stats_lapsed ON face_stats (lapses) WHERE lapses > 0;
    DROP INDEX cards_due;
    CREATE INDEX cards_due ON cards (deck_id, due, item_id, face);
    CREATE INDEX wrong_answers_text ON wrong_answers (deck_id, answer);
    """,
    # 15 -> 16: each deck's cards by the day (UTC) of their last review, then by stability,
    # holding what the order by recall reads: the least remembered (days since the last
    # review over stability, largest first) are found day by day, each day's least stable
    # first, without a pass over every card (`Schedules._bounded_first_page`).
    """
    CREATE INDEX cards_recall ON cards
        (deck_id, last_review / 86400000000, stability, item_id, face, last_review, due);
    """,
]
SCHEMA_VERSION = len(MIGRATIONS)


@dataclass(frozen=True, slots=True)
class Summary:
    """A table the triggers keep from the reviews (and cards): `kept` reads it, `truth` reads
    the same rows from what it summarises, `rebuild` makes it anew from that."""

    table: str
    kept: str
    truth: str
    rebuild: tuple[str, ...]


# Whether an item of a kept order (`Store.next_new_items`) was answered, as the answers say.
_STARTED = (
    "EXISTS (SELECT 1 FROM reviews AS r"
    " WHERE r.deck_id = item_order.deck_id AND r.item_id = item_order.item_id)"
)
SUMMARIES = (
    Summary(
        "items",
        "SELECT deck_id, item_id, julianday(first_at), reviews, faces, learned FROM items",
        "SELECT deck_id, item_id, MIN(first), SUM(n), SUM(f), SUM(l) FROM ("
        " SELECT deck_id, item_id, MIN(julianday(reviewed_at)) AS first, COUNT(*) AS n,"
        " 0 AS f, 0 AS l FROM reviews GROUP BY deck_id, item_id UNION ALL"
        f" SELECT deck_id, item_id, NULL, 0, COUNT(*), TOTAL({_IS_LEARNED.format('')})"
        " FROM cards GROUP BY deck_id, item_id) GROUP BY deck_id, item_id",
        (
            "DELETE FROM items",
            "INSERT INTO items (deck_id, item_id, first_at, reviews)"
            " SELECT deck_id, item_id, MIN(reviewed_at), COUNT(*) FROM reviews"
            " GROUP BY deck_id, item_id",
            # first_at: the time of the earliest answer as it was written
            "UPDATE items SET first_at = (SELECT reviewed_at FROM reviews AS r"
            " WHERE r.deck_id = items.deck_id AND r.item_id = items.item_id"
            " ORDER BY julianday(r.reviewed_at) LIMIT 1)",
            "INSERT INTO items (deck_id, item_id, faces, learned)"
            f" SELECT deck_id, item_id, COUNT(*), TOTAL({_IS_LEARNED.format('')}) FROM cards"
            " WHERE true GROUP BY deck_id, item_id ON CONFLICT (deck_id, item_id)"
            " DO UPDATE SET faces = excluded.faces, learned = excluded.learned",
        ),
    ),
    Summary(
        "face_stats",
        "SELECT deck_id, item_id, face, reviews, right, lapses FROM face_stats",
        "SELECT deck_id, item_id, face, COUNT(*), SUM(correct),"
        " IFNULL(SUM(correct = 0 AND json_extract(card_before, '$.state') = 2), 0)"
        " FROM reviews GROUP BY deck_id, item_id, face",
        (
            "DELETE FROM face_stats",
            "INSERT INTO face_stats SELECT deck_id, item_id, face, COUNT(*), SUM(correct),"
            " IFNULL(SUM(correct = 0 AND json_extract(card_before, '$.state') = 2), 0)"
            " FROM reviews GROUP BY deck_id, item_id, face",
        ),
    ),
    Summary(
        "wrong_answers",
        "SELECT deck_id, item_id, face, answer, times FROM wrong_answers",
        "SELECT deck_id, item_id, face, answer, COUNT(*) FROM reviews WHERE correct = 0"
        " GROUP BY deck_id, item_id, face, answer",
        (
            "DELETE FROM wrong_answers",
            "INSERT INTO wrong_answers SELECT deck_id, item_id, face, answer, COUNT(*)"
            " FROM reviews WHERE correct = 0 GROUP BY deck_id, item_id, face, answer",
        ),
    ),
    Summary(
        "learned_days",
        "SELECT day, deck_id, item_id, face, answers, right FROM learned_days",
        "SELECT substr(reviewed_at, 1, 10), deck_id, item_id, face, COUNT(*), SUM(correct)"
        f" FROM reviews WHERE {LEARNED.format('')} GROUP BY 1, 2, 3, 4",
        (
            "DELETE FROM learned_days",
            "INSERT INTO learned_days SELECT substr(reviewed_at, 1, 10), deck_id, item_id, face,"
            f" COUNT(*), SUM(correct) FROM reviews WHERE {LEARNED.format('')} GROUP BY 1, 2, 3, 4",
        ),
    ),
    Summary(
        "answer_quarters",
        "SELECT quarter, deck_id, answers FROM answer_quarters",
        f"SELECT {QUARTER.format('reviewed_at')}, deck_id, COUNT(*) FROM reviews GROUP BY 1, 2",
        (
            "DELETE FROM answer_quarters",
            "INSERT INTO answer_quarters"
            f" SELECT {QUARTER.format('reviewed_at')}, deck_id, COUNT(*) FROM reviews"
            " GROUP BY 1, 2",
        ),
    ),
    Summary(
        "item_order",
        "SELECT deck_id, item_id, position, started FROM item_order",
        f"SELECT deck_id, item_id, position, {_STARTED} FROM item_order",
        (f"UPDATE item_order SET started = {_STARTED}",),
    ),
)


def statements(script: str) -> Iterator[str]:
    """The SQL statements of a migration, one at a time (a trigger's body holds semicolons,
    so the split asks SQLite where each statement is complete)."""
    pending = ""
    for piece in script.split(";"):
        pending += piece + ";"
        if sqlite3.complete_statement(pending):
            if pending.strip(" \n;"):
                yield pending.strip()
            pending = ""
