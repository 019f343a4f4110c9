-- A database claiming the current version and holding nothing.
PRAGMA user_version = 10;
-- expect: holds no table
