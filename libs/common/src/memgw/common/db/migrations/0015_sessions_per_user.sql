-- A session id belongs to its user: two users may each have a session "chat-1", and no one can take an
-- id another user will need (or compute one, as an EverMemOS group's). Every read names the user.
ALTER TABLE sessions DROP CONSTRAINT sessions_pkey;
ALTER TABLE sessions ADD PRIMARY KEY (user_id, id);
DROP INDEX episodes_session_idx;
CREATE INDEX episodes_session_idx ON episodes (user_id, session_id, created_at);
