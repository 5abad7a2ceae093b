-- The memories of one session in the order they were written: the session context of a new memory
-- and the neighbours of a search hit are read through it.
CREATE INDEX memories_session_order_idx ON memories (user_id, session_id, namespace, created_at)
    WHERE session_id IS NOT NULL;
