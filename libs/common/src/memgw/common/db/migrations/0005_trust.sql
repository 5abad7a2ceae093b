-- One authorization model for every resource (issue "Trust A").

-- Source credentials (tokens, Composio connections) are write-only: encrypted here, never in `fields`.
ALTER TABLE memory_sources ADD COLUMN secrets bytea;

-- Adding someone to a workspace is an invitation until they accept it.
CREATE TABLE workspace_invites (
    workspace_id text NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
    user_id      text NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    invited_by   text NOT NULL,
    created_at   timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (workspace_id, user_id)
);

-- Feedback from someone who may not write the memory is their own signal, not a change to it.
ALTER TABLE memory_feedback ADD COLUMN personal boolean NOT NULL DEFAULT false;
CREATE INDEX memory_feedback_personal_idx ON memory_feedback (user_id, memory_id) WHERE personal;

-- A review is either a contradiction the consolidator found or a reader's feedback for the owner.
ALTER TABLE reviews ADD COLUMN kind text NOT NULL DEFAULT 'contradiction'
    CHECK (kind IN ('contradiction', 'feedback'));
ALTER TABLE reviews ADD COLUMN requested_by text;
ALTER TABLE reviews ADD COLUMN feedback text CHECK (feedback IN ('incorrect', 'outdated'));

-- A memory's namespace and its ACL columns can never disagree.
ALTER TABLE memories ADD CONSTRAINT memories_namespace_matches_acl CHECK (
    CASE visibility
        WHEN 'global' THEN namespace = 'global/public'
        WHEN 'workspace-shared' THEN workspace_id IS NOT NULL AND namespace = 'workspace/' || workspace_id || '/shared'
        WHEN 'agent-only' THEN agent_id IS NOT NULL AND namespace = 'agent/' || agent_id || '/memory'
        ELSE namespace IN ('user/' || user_id || '/profile', 'user/' || user_id || '/preferences',
                           'user/' || user_id || '/long_term')
    END
) NOT VALID;
-- Rows written before the rule existed are checked too when they all hold; otherwise they stay as
-- they are (every new or changed row is held to it either way) and an operator can look.
DO $$
BEGIN
    ALTER TABLE memories VALIDATE CONSTRAINT memories_namespace_matches_acl;
EXCEPTION WHEN check_violation THEN
    RAISE WARNING 'some memories disagree with their namespace; see memories_namespace_matches_acl';
END $$;
