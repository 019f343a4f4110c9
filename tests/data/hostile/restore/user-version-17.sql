-- A real store one schema version ahead of this vocabgame.
-- base: store
PRAGMA user_version = 17;
-- expect: schema version is 17, newer than
