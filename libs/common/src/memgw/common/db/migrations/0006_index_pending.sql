-- What the index may not know yet (issue "Reliability"): every change of a memory leaves a mark in
-- the same transaction, so a crash between the commit and the index write cannot lose it. The writer
-- clears its marks once the index holds the change; the reconciler mends whatever a crash left.
CREATE TABLE index_pending (
    seq       bigserial PRIMARY KEY,
    memory_id text NOT NULL,
    marked_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX index_pending_memory_idx ON index_pending (memory_id);
CREATE INDEX index_pending_marked_idx ON index_pending (marked_at);

-- Statement-level with transition tables: a bulk ingest of a thousand chunks is one INSERT here.
CREATE FUNCTION index_pending_mark_new() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO index_pending (memory_id) SELECT id FROM new_rows;
    RETURN NULL;
END $$;

CREATE FUNCTION index_pending_mark_old() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO index_pending (memory_id) SELECT id FROM old_rows;
    RETURN NULL;
END $$;

-- An update marks a row only when it sets a column the index holds (``memories.index_point``): search
-- sets last_retrieved_at on every hit, and that must cost nothing here. Row-level, since Postgres
-- allows no column list with transition tables; updates are one memory at a time but for re-synced
-- chunks.
CREATE FUNCTION index_pending_mark_row() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO index_pending (memory_id) VALUES (NEW.id);
    RETURN NULL;
END $$;

CREATE TRIGGER memories_mark_inserted AFTER INSERT ON memories
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION index_pending_mark_new();
CREATE TRIGGER memories_mark_deleted AFTER DELETE ON memories
    REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION index_pending_mark_old();
CREATE TRIGGER memories_mark_updated
    AFTER UPDATE OF user_id, agent_id, workspace_id, session_id, source_id, namespace, visibility, status,
        memory_type, tags, flags, importance, confidence, content, embedding, created_at, expires_at
    ON memories FOR EACH ROW EXECUTE FUNCTION index_pending_mark_row();
