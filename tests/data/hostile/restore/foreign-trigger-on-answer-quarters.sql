-- A real backup with a foreign trigger on its answer_quarters table.
-- base: store
CREATE TRIGGER wipe_on_answer_quarters AFTER INSERT ON answer_quarters BEGIN
    DELETE FROM reviews;
END;
-- expect: trigger 'wipe_on_answer_quarters' that vocabgame does not create
