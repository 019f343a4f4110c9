-- A real store one schema version ahead of this vocabgame.
-- base: store
PRAGMA user_version = 15;
-- expect: schema version is 15, newer than
