-- A trigger that fires only now and then.
-- base: store
CREATE TRIGGER sometimes AFTER UPDATE ON cards WHEN NEW.card_id % 7 = 0 BEGIN
    UPDATE cards SET due = '2999-01-01T00:00:00+00:00' WHERE card_id = NEW.card_id;
END;
-- expect: trigger 'sometimes'
