-- The upstream's own id of where a memory came from ("slack:#eng" for a Slack channel read through
-- Composio), beside the registry id in source_id: an agent's memory_sources allowlist may name
-- either, as OpenHuman's source scoping does. The index holds it, so its trigger watches it.
ALTER TABLE memories ADD COLUMN source_scope text;

DROP TRIGGER memories_mark_updated ON memories;
CREATE TRIGGER memories_mark_updated
    AFTER UPDATE OF user_id, agent_id, workspace_id, session_id, source_id, source_scope, namespace, visibility,
        status, memory_type, tags, flags, importance, confidence, content, embedding, created_at, expires_at
    ON memories FOR EACH ROW EXECUTE FUNCTION index_pending_mark_row();
