-- A real backup with a foreign trigger on its learned_days table.
-- base: store
CREATE TRIGGER wipe_on_learned_days AFTER INSERT ON learned_days BEGIN
    DELETE FROM reviews;
END;
-- expect: trigger 'wipe_on_learned_days' that vocabgame does not create
