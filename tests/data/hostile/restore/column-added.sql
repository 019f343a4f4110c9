-- A real store whose rounds table gained a column.
-- base: store
ALTER TABLE rounds ADD COLUMN extra TEXT;
-- expect: table 'rounds' that differs
