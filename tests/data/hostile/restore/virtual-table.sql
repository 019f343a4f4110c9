-- A full-text table and the shadow tables it brings.
-- base: store
CREATE VIRTUAL TABLE search USING fts5(text);
-- expect: vocabgame does not create
