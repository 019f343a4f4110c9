-- A view vocabgame does not make.
-- base: store
CREATE VIEW everything AS SELECT * FROM reviews;
-- expect: view 'everything'
