-- User ids that differ only in case would share a vault folder on a case-insensitive filesystem (and
-- read alike to a person): one id per spelling, whatever its case.
CREATE UNIQUE INDEX users_id_folded ON users (lower(id));
