-- A real backup with a foreign trigger on its face_stats table.
-- base: store
CREATE TRIGGER wipe_on_face_stats AFTER INSERT ON face_stats BEGIN
    DELETE FROM reviews;
END;
-- expect: trigger 'wipe_on_face_stats' that vocabgame does not create
