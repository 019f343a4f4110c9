-- A copy of one of vocabgame's own triggers under another name: it counts every answer twice.
-- base: store
CREATE TRIGGER items_review_added_again AFTER INSERT ON reviews BEGIN
    UPDATE items SET reviews = reviews + 1 WHERE deck_id = NEW.deck_id AND item_id = NEW.item_id;
END;
-- expect: trigger 'items_review_added_again'
