-- Who owns an install's embedded index, fenced: the owner holds a lease with an epoch (a fencing
-- token) and trusts it only until a deadline earlier than expires_at; a new owner waits the old lease
-- out and takes the next epoch. Index calls and answers carry the epoch; a stale owner's are refused.
CREATE TABLE index_leases (
    prefix      text PRIMARY KEY,
    epoch       bigint NOT NULL,
    expires_at  timestamptz NOT NULL
);
