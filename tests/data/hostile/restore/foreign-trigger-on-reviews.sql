-- A real backup with a foreign trigger on its reviews table.
-- base: store
CREATE TRIGGER wipe_on_reviews AFTER INSERT ON reviews BEGIN
    DELETE FROM reviews;
END;
-- expect: trigger 'wipe_on_reviews' that vocabgame does not create
