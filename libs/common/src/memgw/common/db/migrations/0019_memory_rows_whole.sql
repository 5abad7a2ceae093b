-- Every search re-reads its hits' rows from here, each with its embedding (ranking folds near-duplicates by
-- it). At the default target of 2 kB a row with a 384-value embedding (1.5 kB) went over it, and Postgres
-- moved the embedding out to the TOAST table: each hit re-checked cost one more index lookup and read there.
-- A row now stays whole up to a page; a content or metadata too long for one still goes out of line. Rows
-- written before keep their embedding where it is until it is written again.
ALTER TABLE memories SET (toast_tuple_target = 8160);
