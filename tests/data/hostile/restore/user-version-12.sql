-- A real store one schema version ahead of this vocabgame.
-- base: store
PRAGMA user_version = 12;
-- expect: schema version is 12, newer than
