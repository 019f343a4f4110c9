-- A real backup with a foreign trigger on its cards table.
-- base: store
CREATE TRIGGER wipe_on_cards AFTER INSERT ON cards BEGIN
    DELETE FROM reviews;
END;
-- expect: trigger 'wipe_on_cards' that vocabgame does not create
