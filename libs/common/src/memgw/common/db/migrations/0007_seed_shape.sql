-- Every directory record says when it was made and last changed (issue "seed conformance").
-- A workspace changes when its members, invitations or admitted agents do: triggers keep it true
-- whoever writes those tables.
ALTER TABLE workspaces ADD COLUMN updated_at timestamptz NOT NULL DEFAULT now();
UPDATE workspaces SET updated_at = created_at;

CREATE FUNCTION workspace_touch() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE workspaces SET updated_at = now()
    WHERE id = CASE WHEN TG_OP = 'DELETE' THEN OLD.workspace_id ELSE NEW.workspace_id END;
    RETURN NULL;
END $$;

CREATE TRIGGER workspace_members_touch AFTER INSERT OR DELETE ON workspace_members
    FOR EACH ROW EXECUTE FUNCTION workspace_touch();
CREATE TRIGGER workspace_invites_touch AFTER INSERT OR DELETE ON workspace_invites
    FOR EACH ROW EXECUTE FUNCTION workspace_touch();
CREATE TRIGGER workspace_agents_touch AFTER INSERT OR DELETE ON workspace_agents
    FOR EACH ROW EXECUTE FUNCTION workspace_touch();

-- A profile keyed by attribute ("language", "output_style", …) says which memory states each one.
ALTER TABLE profiles ADD COLUMN preference_sources jsonb NOT NULL DEFAULT '{}'::jsonb;
