-- A real store marked as written by vocabgame schema 999.
-- base: store
PRAGMA user_version = 999;
-- expect: schema version is 999, newer than
