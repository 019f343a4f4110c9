-- A real backup with a foreign trigger on its renames table.
-- base: store
CREATE TRIGGER wipe_on_renames AFTER INSERT ON renames BEGIN
    DELETE FROM reviews;
END;
-- expect: trigger 'wipe_on_renames' that vocabgame does not create
