-- A real store whose version says no migration ever ran.
-- base: store
PRAGMA user_version = 0;
-- expect: schema version is 0
