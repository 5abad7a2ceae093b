-- Memories written in one transaction (a batch) get their own moments, in the order they were
-- written: "the memory before this one in its session" and newest-first listings are then exact.
-- now() is the transaction's start, the same for every row of it; clock_timestamp() is not.
ALTER TABLE memories ALTER COLUMN created_at SET DEFAULT clock_timestamp();
ALTER TABLE memories ALTER COLUMN updated_at SET DEFAULT clock_timestamp();
