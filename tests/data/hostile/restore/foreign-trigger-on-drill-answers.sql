-- A real backup with a foreign trigger on its drill_answers table.
-- base: store
CREATE TRIGGER wipe_on_drill_answers AFTER INSERT ON drill_answers BEGIN
    DELETE FROM reviews;
END;
-- expect: trigger 'wipe_on_drill_answers' that vocabgame does not create
