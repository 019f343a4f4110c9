-- A real backup with a foreign trigger on its wrong_answers table.
-- base: store
CREATE TRIGGER wipe_on_wrong_answers AFTER INSERT ON wrong_answers BEGIN
    DELETE FROM reviews;
END;
-- expect: trigger 'wipe_on_wrong_answers' that vocabgame does not create
