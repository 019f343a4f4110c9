-- A real store one schema version ahead of this vocabgame.
-- base: store
PRAGMA user_version = 16;
-- expect: schema version is 16, newer than
