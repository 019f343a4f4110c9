-- A view with an INSTEAD OF trigger writing into the store.
-- base: store
CREATE VIEW v AS SELECT id FROM rounds;
CREATE TRIGGER v_insert INSTEAD OF INSERT ON v BEGIN
    DELETE FROM reviews;
END;
-- expect: vocabgame does not create
