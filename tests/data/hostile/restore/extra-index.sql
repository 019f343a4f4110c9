-- An index vocabgame does not make.
-- base: store
CREATE INDEX reviews_answer ON reviews (answer);
-- expect: index 'reviews_answer'
