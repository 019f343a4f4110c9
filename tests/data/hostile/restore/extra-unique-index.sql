-- A unique index that makes the next answer with an already given text fail.
-- base: store
CREATE UNIQUE INDEX one_answer_each ON wrong_answers (answer, deck_id, item_id, face, times);
-- expect: index 'one_answer_each'
