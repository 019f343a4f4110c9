-- One of vocabgame's indexes is gone.
-- base: store
DROP INDEX reviews_item;
-- expect: no index 'reviews_item'
