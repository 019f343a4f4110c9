-- A real store at schema 10 claiming to be at 5: it holds what 5 does not.
-- base: store
PRAGMA user_version = 5;
-- expect: that vocabgame does not create
