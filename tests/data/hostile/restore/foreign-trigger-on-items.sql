-- A real backup with a foreign trigger on its items table.
-- base: store
CREATE TRIGGER wipe_on_items AFTER INSERT ON items BEGIN
    DELETE FROM reviews;
END;
-- expect: trigger 'wipe_on_items' that vocabgame does not create
