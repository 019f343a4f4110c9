-- One of vocabgame's triggers replaced by one of the same name doing something else.
-- base: store
DROP TRIGGER items_review_added;
CREATE TRIGGER items_review_added AFTER INSERT ON reviews BEGIN
    DELETE FROM rounds;
END;
-- expect: trigger 'items_review_added' that differs
