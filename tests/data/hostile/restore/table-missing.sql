-- A real store without its flags table.
-- base: store
DROP TABLE flags;
-- expect: no table 'flags'
