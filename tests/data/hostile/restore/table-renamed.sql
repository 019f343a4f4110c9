-- A real store whose settings table has another name.
-- base: store
ALTER TABLE settings RENAME TO preferences;
-- expect: vocabgame
