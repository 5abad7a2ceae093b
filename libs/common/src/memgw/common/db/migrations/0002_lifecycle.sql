-- Sessions, jobs, feedback and profiles for the gateway's memory lifecycle.

ALTER TABLE sessions ADD COLUMN committed_at timestamptz;
CREATE INDEX sessions_expiry_idx ON sessions (expires_at) WHERE status <> 'expired';
CREATE INDEX episodes_expiry_idx ON episodes (expires_at);

CREATE TABLE jobs (
    id          text PRIMARY KEY,
    kind        text NOT NULL,
    user_id     text NOT NULL,
    subject_id  text,                 -- e.g. the session a consolidation job is about
    state       text NOT NULL DEFAULT 'queued' CHECK (state IN ('queued', 'running', 'done', 'failed')),
    detail      text,
    result      jsonb NOT NULL DEFAULT '{}'::jsonb,
    created_at  timestamptz NOT NULL DEFAULT now(),
    updated_at  timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE memory_feedback (
    id               bigserial PRIMARY KEY,
    memory_id        text NOT NULL,
    user_id          text NOT NULL,
    agent_id         text,
    feedback         text NOT NULL CHECK (feedback IN ('incorrect', 'duplicate', 'outdated', 'useful')),
    comment          text,
    target_memory_id text,
    created_at       timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX memory_feedback_memory_idx ON memory_feedback (memory_id);

CREATE TABLE profiles (
    user_id                 text PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
    display_name            text NOT NULL DEFAULT '',
    stable_facts            jsonb NOT NULL DEFAULT '[]'::jsonb,
    preferences             jsonb NOT NULL DEFAULT '{}'::jsonb,
    working_style           jsonb NOT NULL DEFAULT '[]'::jsonb,
    updated_from_memory_ids text[] NOT NULL DEFAULT '{}',
    version                 integer NOT NULL DEFAULT 1,
    updated_at              timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE profile_versions (
    user_id     text NOT NULL,
    version     integer NOT NULL,
    snapshot    jsonb NOT NULL,
    created_at  timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (user_id, version)
);

CREATE INDEX audit_created_idx ON audit_log (created_at DESC, id DESC);
CREATE INDEX memories_list_idx ON memories (created_at DESC, id DESC);
