-- The schema text edited in place: cards.card loses its NOT NULL.
-- base: store
PRAGMA writable_schema = ON;
UPDATE sqlite_schema SET sql = replace(sql, 'card TEXT NOT NULL', 'card TEXT') WHERE name = 'cards';
PRAGMA writable_schema = OFF;
-- expect: table 'cards' that differs
