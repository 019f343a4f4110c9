-- A real store one schema version ahead of this vocabgame.
-- base: store
PRAGMA user_version = 11;
-- expect: schema version is 11, newer than
