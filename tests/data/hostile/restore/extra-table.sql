-- A table vocabgame does not make, beside a real store.
-- base: store
CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT);
INSERT INTO notes (text) VALUES ('hello');
-- expect: table 'notes'
