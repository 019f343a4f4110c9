-- A database holding only a table of its own.
CREATE TABLE t(x);
INSERT INTO t VALUES (1);
-- expect: schema version is 0
