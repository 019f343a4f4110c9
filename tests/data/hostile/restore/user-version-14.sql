-- A real store one schema version ahead of this vocabgame.
-- base: store
PRAGMA user_version = 14;
-- expect: schema version is 14, newer than
