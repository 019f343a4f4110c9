-- A database with nothing in it, not even a version.
PRAGMA page_size = 4096;
VACUUM;
-- expect: it is
