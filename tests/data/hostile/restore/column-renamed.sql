-- A real store whose reviews' answer column has another name (its triggers follow).
-- base: store
ALTER TABLE reviews RENAME COLUMN answer TO reply;
-- expect: that differs from the one vocabgame creates
