-- A real backup with a foreign trigger on its confusions table.
-- base: store
CREATE TRIGGER wipe_on_confusions AFTER INSERT ON confusions BEGIN
    DELETE FROM reviews;
END;
-- expect: trigger 'wipe_on_confusions' that vocabgame does not create
