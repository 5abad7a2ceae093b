"""Every event and command on the bus, as typed models.

Each model has a ``type`` literal and a ``schema_version``; a breaking change is a new type, never an
edit of an existing one. ``Subject`` is the one registry of subject names (relative to the install's
bus prefix, see ``memgw.common.bus``); ``SUBJECT_OF`` says where each type is published.
"""

from __future__ import annotations

import uuid
from datetime import UTC, datetime
from enum import StrEnum
from typing import Annotated, Any, Literal, get_args

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter


class Subject(StrEnum):
    SYNC_REQUESTED = "sync.requested"
    SYNC_STAGE = "sync.stage"
    SESSION_COMMITTED = "session.committed"
    MEMORY_CHANGED = "memory.changed"
    MEMORY_FEEDBACK = "memory.feedback"
    REVIEW_REQUESTED = "review.requested"
    REVIEW_DECIDED = "review.decided"
    REVIEW_SETTLED = "review.settled"
    DEAD_LETTER = "dead"
    # Request-reply on core NATS (no stream): the gateway asks a sync-worker to read a source.
    SOURCE_LIST_ITEMS = "source.items.list"
    SOURCE_READ_ITEM = "source.items.read"
    # Core NATS, no stream: a hint to every gateway that someone's rights changed (a key revoked,
    # a member gone); live streams check their principal again at once rather than at the next tick.
    ACCESS_CHANGED = "access.changed"
    # Request-reply on core NATS: a process without the embedded index asks the one that owns it.
    INDEX_CALL = "index.call"


def _now() -> datetime:
    return datetime.now(UTC)


def _event_id() -> str:
    return uuid.uuid4().hex


class Event(BaseModel):
    """Frozen base: identity, time and the correlation id that ties logs across services."""

    model_config = ConfigDict(frozen=True, extra="ignore")
    id: str = Field(default_factory=_event_id)
    occurred_at: datetime = Field(default_factory=_now)
    correlation_id: str | None = None
    schema_version: int = 1


class SyncStage(StrEnum):
    REQUESTED = "Requested"
    FETCHING = "Fetching"
    STORED = "Stored"
    INGESTING = "Ingesting"
    COMPLETED = "Completed"
    FAILED = "Failed"

    @property
    def is_final(self) -> bool:
        return self in (SyncStage.COMPLETED, SyncStage.FAILED)


class SyncCounts(BaseModel):
    model_config = ConfigDict(extra="ignore")
    items_seen: int = 0
    items_new: int = 0
    items_changed: int = 0
    items_unchanged: int = 0
    items_deleted: int = 0
    items_failed: int = 0
    chunks: int = 0
    chunks_refused: int = 0  # held a secret, and the install refuses such writes (MEMGW_SECRETS_ON_WRITE)
    tokens: int = 0
    cost_usd: float = 0.0


class SyncRequested(Event):
    """Run one sync of a memory source (a command; the run row exists already)."""

    type: Literal["SyncRequested"] = "SyncRequested"
    run_id: str
    source_id: str
    owner_user_id: str
    reason: Literal["manual", "auto"] = "manual"


class MemorySyncStageChanged(Event):
    """A sync run moved to a stage, with its counts so far."""

    type: Literal["MemorySyncStageChanged"] = "MemorySyncStageChanged"
    run_id: str
    connection_id: str = Field(description="The memory source id.")
    owner_user_id: str
    workspace_id: str | None = None
    stage: SyncStage
    counts: SyncCounts = Field(default_factory=SyncCounts)
    detail: str | None = None
    failed_items: list[str] = Field(default_factory=list)
    more_pending: bool = False


class SessionCommitted(Event):
    """A session was committed: consolidate its episodes into long-term memory."""

    type: Literal["SessionCommitted"] = "SessionCommitted"
    job_id: str
    session_id: str
    user_id: str
    agent_id: str | None = None
    workspace_id: str | None = None
    promote: bool = True
    min_importance: float | None = None
    target_namespace: str | None = None
    # The agent of the key that committed (the session's agent may be unset): the consolidator checks
    # the committer's rights again, as they are when it writes.
    actor_agent_id: str | None = None
    # A session committed before: only the episodes since that commit are consolidated now.
    episodes_since: datetime | None = None


ChangeKind = Literal["created", "updated", "deleted", "merged", "archived", "status"]
CHANGE_KINDS: frozenset[str] = frozenset(get_args(ChangeKind))


class MemoryChanged(Event):
    """A memory record was created, changed, merged, archived or deleted."""

    type: Literal["MemoryChanged"] = "MemoryChanged"
    memory_id: str
    user_id: str
    namespace: str
    change: ChangeKind
    version: int
    status: str | None = None


class MemoryFeedbackGiven(Event):
    """A person or agent judged a memory: incorrect, duplicate, outdated or useful."""

    type: Literal["MemoryFeedbackGiven"] = "MemoryFeedbackGiven"
    memory_id: str
    user_id: str
    feedback: Literal["incorrect", "duplicate", "outdated", "useful"]
    comment: str | None = None
    target_memory_id: str | None = None
    given_by: str | None = None  # the user who judged it
    given_by_agent: str | None = None  # through this agent's key (the consolidator decides as that principal)
    # From someone who may not write the memory: their own signal; incorrect/outdated open a review
    # for the memory's owner, and the shared record is never changed by it.
    personal: bool = False


class AccessChanged(Event):
    """Someone's rights changed; live streams of that user re-check their principal."""

    type: Literal["AccessChanged"] = "AccessChanged"
    user_id: str | None = None  # whose rights changed (None: anyone's, e.g. a workspace's members)
    workspace_id: str | None = None  # the workspace whose members or agents changed
    reason: str = ""


class ReviewRequested(Event):
    """The consolidator found something a person must decide (a contradiction ...)."""

    type: Literal["ReviewRequested"] = "ReviewRequested"
    review_id: str
    user_id: str
    memory_ids: list[str]
    reason: str
    kind: Literal["contradiction", "feedback"] = "contradiction"


class ReviewDecided(Event):
    """A person decided a review: accept the new, keep the old, keep both, or edit."""

    type: Literal["ReviewDecided"] = "ReviewDecided"
    review_id: str
    decision: Literal["accept_new", "keep_old", "keep_both", "edit"]
    edited_content: str | None = None
    decided_by: str


class ReviewSettled(Event):
    """What came of a decision: applied (the review is closed), or not, and why (the review stays open
    and can be decided again). A vault note says "decided" only after this says so."""

    type: Literal["ReviewSettled"] = "ReviewSettled"
    review_id: str
    user_id: str
    decision: Literal["accept_new", "keep_old", "keep_both", "edit"]
    applied: bool
    reason: str = ""


class SourceItemsRequested(BaseModel):
    """Ask a sync-worker to list a source's items (or read one, with ``item_id``) right now."""

    model_config = ConfigDict(frozen=True)
    source_id: str
    item_id: str | None = None
    correlation_id: str | None = None


class SourceItemsAnswer(BaseModel):
    ok: bool
    error: str | None = None
    items: list[dict[str, Any]] = Field(default_factory=list)
    content: dict[str, Any] | None = None


AnyEvent = Annotated[
    SyncRequested
    | MemorySyncStageChanged
    | SessionCommitted
    | MemoryChanged
    | MemoryFeedbackGiven
    | ReviewRequested
    | ReviewDecided
    | ReviewSettled,
    Field(discriminator="type"),
]
ANY_EVENT: TypeAdapter[AnyEvent] = TypeAdapter(AnyEvent)

SUBJECT_OF: dict[type[Event], Subject] = {
    SyncRequested: Subject.SYNC_REQUESTED,
    MemorySyncStageChanged: Subject.SYNC_STAGE,
    SessionCommitted: Subject.SESSION_COMMITTED,
    MemoryChanged: Subject.MEMORY_CHANGED,
    MemoryFeedbackGiven: Subject.MEMORY_FEEDBACK,
    ReviewRequested: Subject.REVIEW_REQUESTED,
    ReviewDecided: Subject.REVIEW_DECIDED,
    ReviewSettled: Subject.REVIEW_SETTLED,
}
