-- A real backup with a foreign trigger on its item_order table.
-- base: store
CREATE TRIGGER wipe_on_item_order AFTER INSERT ON item_order BEGIN
    DELETE FROM reviews;
END;
-- expect: trigger 'wipe_on_item_order' that vocabgame does not create
