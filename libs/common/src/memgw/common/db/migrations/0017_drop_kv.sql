-- kv was made by the first migration for settings that never came to live in the database; nothing
-- reads or writes it.
DROP TABLE IF EXISTS kv;
