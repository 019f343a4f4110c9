-- A BEFORE trigger that silently drops every new answer.
-- base: store
CREATE TRIGGER drop_answers BEFORE INSERT ON reviews BEGIN
    SELECT RAISE(IGNORE);
END;
-- expect: trigger 'drop_answers'
