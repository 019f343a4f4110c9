-- A real backup with a foreign trigger on its settings table.
-- base: store
CREATE TRIGGER wipe_on_settings AFTER INSERT ON settings BEGIN
    DELETE FROM reviews;
END;
-- expect: trigger 'wipe_on_settings' that vocabgame does not create
