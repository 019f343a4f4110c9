-- One of the triggers that keep the summaries is gone.
-- base: store
DROP TRIGGER face_stats_added;
-- expect: no trigger 'face_stats_added'
