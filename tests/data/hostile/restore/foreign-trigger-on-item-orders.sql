-- A real backup with a foreign trigger on its item_orders table.
-- base: store
CREATE TRIGGER wipe_on_item_orders AFTER INSERT ON item_orders BEGIN
    DELETE FROM reviews;
END;
-- expect: trigger 'wipe_on_item_orders' that vocabgame does not create
