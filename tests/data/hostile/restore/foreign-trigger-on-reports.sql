-- A real backup with a foreign trigger on its reports table.
-- base: store
CREATE TRIGGER wipe_on_reports AFTER INSERT ON reports BEGIN
    DELETE FROM reviews;
END;
-- expect: trigger 'wipe_on_reports' that vocabgame does not create
