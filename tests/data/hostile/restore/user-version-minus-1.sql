-- A real store with a negative version.
-- base: store
PRAGMA user_version = -1;
-- expect: schema version is -1
