-- The domain of DESIGN §3. Postgres is the source of truth; the vector index is derived from it.

CREATE TABLE users (
    id            text PRIMARY KEY,
    display_name  text NOT NULL DEFAULT '',
    status        text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'disabled')),
    preferences   jsonb NOT NULL DEFAULT '{}'::jsonb,
    is_trusted    boolean NOT NULL DEFAULT false,  -- may write global/public
    created_at    timestamptz NOT NULL DEFAULT now(),
    updated_at    timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE agents (
    id              text PRIMARY KEY,
    name            text NOT NULL DEFAULT '',
    framework       text NOT NULL DEFAULT '',
    owner_user_id   text NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    memory_sources  text[],  -- NULL = every source, {} = none, list = only those
    created_at      timestamptz NOT NULL DEFAULT now(),
    updated_at      timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE workspaces (
    id             text PRIMARY KEY,
    name           text NOT NULL DEFAULT '',
    owner_user_id  text NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    created_at     timestamptz NOT NULL DEFAULT now()
);
CREATE TABLE workspace_members (
    workspace_id text NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
    user_id      text NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    PRIMARY KEY (workspace_id, user_id)
);
CREATE TABLE workspace_agents (
    workspace_id text NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
    agent_id     text NOT NULL REFERENCES agents(id) ON DELETE CASCADE,
    PRIMARY KEY (workspace_id, agent_id)
);

CREATE TABLE api_keys (
    id           text PRIMARY KEY,
    key_hash     text NOT NULL UNIQUE,          -- sha256 of the secret; the secret is shown once
    user_id      text NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    agent_id     text REFERENCES agents(id) ON DELETE CASCADE,
    is_admin     boolean NOT NULL DEFAULT false,
    label        text NOT NULL DEFAULT '',
    created_at   timestamptz NOT NULL DEFAULT now(),
    revoked_at   timestamptz,
    last_used_at timestamptz
);

CREATE TABLE sessions (
    id            text PRIMARY KEY,
    user_id       text NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    agent_id      text,
    workspace_id  text,
    status        text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'committed', 'expired')),
    created_at    timestamptz NOT NULL DEFAULT now(),
    expires_at    timestamptz NOT NULL
);

CREATE TABLE memories (
    id              text PRIMARY KEY,
    user_id         text NOT NULL,
    agent_id        text,
    workspace_id    text,
    session_id      text,
    namespace       text NOT NULL,
    memory_type     text NOT NULL,
    content         text NOT NULL,
    summary         text NOT NULL DEFAULT '',
    tags            text[] NOT NULL DEFAULT '{}',
    flags           text[] NOT NULL DEFAULT '{}',   -- e.g. 'incorrect' from feedback: out of default retrieval
    importance      double precision NOT NULL DEFAULT 0.5 CHECK (importance BETWEEN 0 AND 1),
    confidence      double precision NOT NULL DEFAULT 0.8 CHECK (confidence BETWEEN 0 AND 1),
    visibility      text NOT NULL CHECK (visibility IN ('private', 'agent-only', 'workspace-shared', 'global')),
    source          text NOT NULL DEFAULT 'manual',
    source_ref      text,
    source_id       text,                       -- memory source that produced it (chunks only)
    status          text NOT NULL DEFAULT 'active'
                    CHECK (status IN ('candidate', 'active', 'needs_review', 'archived')),
    evidence_count  integer NOT NULL DEFAULT 1,
    version         integer NOT NULL DEFAULT 1,
    content_hash    text NOT NULL,
    metadata        jsonb NOT NULL DEFAULT '{}'::jsonb,
    embedding       real[] NOT NULL,            -- kept so the index can be rebuilt without re-embedding
    embedding_model text NOT NULL,
    created_at      timestamptz NOT NULL DEFAULT now(),
    updated_at      timestamptz NOT NULL DEFAULT now(),
    expires_at      timestamptz,
    last_retrieved_at timestamptz
);
CREATE INDEX memories_user_idx ON memories (user_id, status, created_at DESC);
CREATE INDEX memories_namespace_idx ON memories (namespace, created_at DESC);
CREATE INDEX memories_workspace_idx ON memories (workspace_id) WHERE workspace_id IS NOT NULL;
CREATE INDEX memories_source_ref_idx ON memories (source_id, source_ref) WHERE source_id IS NOT NULL;
CREATE INDEX memories_hash_idx ON memories (namespace, content_hash);

CREATE TABLE memory_versions (
    memory_id   text NOT NULL,
    version     integer NOT NULL,
    snapshot    jsonb NOT NULL,
    changed_by  text,
    change      text NOT NULL,
    created_at  timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (memory_id, version)
);

CREATE TABLE episodes (
    id            text PRIMARY KEY,
    user_id       text NOT NULL,
    agent_id      text,
    workspace_id  text,
    session_id    text NOT NULL,
    namespace     text NOT NULL,
    content       text NOT NULL,
    summary       text NOT NULL DEFAULT '',
    events        jsonb NOT NULL DEFAULT '[]'::jsonb,
    tags          text[] NOT NULL DEFAULT '{}',
    created_at    timestamptz NOT NULL DEFAULT now(),
    expires_at    timestamptz NOT NULL
);
CREATE INDEX episodes_session_idx ON episodes (session_id, created_at);

CREATE TABLE audit_log (
    id              bigserial PRIMARY KEY,
    actor_user_id   text,
    actor_agent_id  text,
    action          text NOT NULL,
    target_type     text NOT NULL DEFAULT '',
    target_id       text,
    namespace       text,
    decision        text NOT NULL CHECK (decision IN ('allow', 'deny')),
    reason          text NOT NULL DEFAULT '',
    correlation_id  text,
    created_at      timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX audit_actor_idx ON audit_log (actor_user_id, created_at DESC);

CREATE TABLE memory_sources (
    id                     text PRIMARY KEY,
    kind                   text NOT NULL,
    label                  text NOT NULL DEFAULT '',
    enabled                boolean NOT NULL DEFAULT true,
    owner_user_id          text NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    workspace_id           text REFERENCES workspaces(id) ON DELETE CASCADE,
    fields                 jsonb NOT NULL DEFAULT '{}'::jsonb,
    max_tokens_per_sync    integer,
    max_cost_per_sync_usd  double precision,
    sync_depth_days        integer,
    version                integer NOT NULL DEFAULT 1,
    created_at             timestamptz NOT NULL DEFAULT now(),
    updated_at             timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE source_items (
    source_id     text NOT NULL REFERENCES memory_sources(id) ON DELETE CASCADE,
    item_id       text NOT NULL,
    content_hash  text NOT NULL,
    chunk_count   integer NOT NULL,
    synced_at     timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (source_id, item_id)
);

CREATE TABLE sync_runs (
    id            text PRIMARY KEY,
    source_id     text NOT NULL REFERENCES memory_sources(id) ON DELETE CASCADE,
    reason        text NOT NULL DEFAULT 'manual',
    stage         text NOT NULL,
    counts        jsonb NOT NULL DEFAULT '{}'::jsonb,
    detail        text,
    more_pending  boolean NOT NULL DEFAULT false,
    created_at    timestamptz NOT NULL DEFAULT now(),
    updated_at    timestamptz NOT NULL DEFAULT now(),
    finished_at   timestamptz
);
-- At most one run in flight per source.
CREATE UNIQUE INDEX sync_runs_active_idx ON sync_runs (source_id) WHERE finished_at IS NULL;

CREATE TABLE outbox (
    id            bigserial PRIMARY KEY,
    subject       text NOT NULL,
    stream        text NOT NULL,
    msg_id        text NOT NULL,
    payload       jsonb NOT NULL,
    headers       jsonb NOT NULL DEFAULT '{}'::jsonb,
    created_at    timestamptz NOT NULL DEFAULT now(),
    attempts      integer NOT NULL DEFAULT 0,
    last_error    text,
    published_at  timestamptz
);
CREATE INDEX outbox_pending_idx ON outbox (id) WHERE published_at IS NULL;

CREATE TABLE kv (
    key    text PRIMARY KEY,
    value  text NOT NULL
);
