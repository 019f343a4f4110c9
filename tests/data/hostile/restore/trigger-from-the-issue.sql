-- A real backup with a trigger that deletes the whole history at the next answer.
-- base: store
CREATE TRIGGER keep_one AFTER INSERT ON reviews BEGIN
    DELETE FROM reviews WHERE id != NEW.id;
END;
-- expect: trigger 'keep_one' that vocabgame does not create
