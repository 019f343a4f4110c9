-- A real backup with a foreign trigger on its rounds table.
-- base: store
CREATE TRIGGER wipe_on_rounds AFTER INSERT ON rounds BEGIN
    DELETE FROM reviews;
END;
-- expect: trigger 'wipe_on_rounds' that vocabgame does not create
