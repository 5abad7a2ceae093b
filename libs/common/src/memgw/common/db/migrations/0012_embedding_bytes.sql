-- An embedding is kept as its float32 values' bytes (network order, 4 per value), no longer as real[]:
-- Postgres writes a real[] out element by element, ~20 µs for 384 values, which was most of a search's
-- re-check of its ~100 candidates in Postgres; bytes it copies (~7x faster measured). Same size on disk.
-- memgw.common.memories.vector_bytes / vector_of are the one reading and writing of this format.
CREATE FUNCTION pg_temp.float4_bytes(v real[]) RETURNS bytea LANGUAGE sql IMMUTABLE AS $$
    SELECT coalesce(string_agg(float4send(x), ''::bytea ORDER BY i), ''::bytea)
    FROM unnest(v) WITH ORDINALITY AS u(x, i)
$$;

-- The index trigger watches the column, so it is set aside while the column changes type.
DROP TRIGGER memories_mark_updated ON memories;
ALTER TABLE memories ALTER COLUMN embedding TYPE bytea USING pg_temp.float4_bytes(embedding);
CREATE TRIGGER memories_mark_updated
    AFTER UPDATE OF user_id, agent_id, workspace_id, session_id, source_id, source_scope, namespace, visibility,
        status, memory_type, tags, flags, importance, confidence, content, embedding, created_at, expires_at
    ON memories FOR EACH ROW EXECUTE FUNCTION index_pending_mark_row();
