-- A real store one schema version ahead of this vocabgame.
-- base: store
PRAGMA user_version = 13;
-- expect: schema version is 13, newer than
