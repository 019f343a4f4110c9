-- A real backup with a foreign trigger on its flags table.
-- base: store
CREATE TRIGGER wipe_on_flags AFTER INSERT ON flags BEGIN
    DELETE FROM reviews;
END;
-- expect: trigger 'wipe_on_flags' that vocabgame does not create
