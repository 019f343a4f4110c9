-- One of vocabgame's indexes under its own name, on other columns.
-- base: store
DROP INDEX cards_due;
CREATE INDEX cards_due ON cards (due);
-- expect: index 'cards_due' that differs
