"""Domain vocabulary shared by every service (DESIGN §3, seed 004 §B–C)."""

from __future__ import annotations

import hashlib
import re
import unicodedata
import uuid
from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum
from typing import Annotated, Any

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, computed_field

from memgw.common.text import estimate_tokens
from memgw.common.viking import memory_uri, note_uri

MAX_CONTENT_CHARS = 32_000
MAX_CONTENT_TOKENS = 8_192


def _within_tokens(text: str) -> str:
    tokens = estimate_tokens(text)
    if tokens > MAX_CONTENT_TOKENS:
        raise ValueError(
            f"about {tokens} tokens; a memory holds at most {MAX_CONTENT_TOKENS} (its vector reads the first 512)."
            " Longer documents belong in a memory source, which chunks them"
        )
    return text


# A memory's text, wherever it comes from (the API, a vault note): bounded in tokens (what embedding
# and ranking cost), not only in characters.
MemoryContent = Annotated[str, Field(min_length=1, max_length=MAX_CONTENT_CHARS), AfterValidator(_within_tokens)]

# Every resource id (user, agent, workspace, source, session, key, memory, ...): anything else is 422.
ID_PATTERN = r"^[A-Za-z0-9][A-Za-z0-9_.@-]{0,127}$"


class Visibility(StrEnum):
    PRIVATE = "private"
    AGENT_ONLY = "agent-only"
    WORKSPACE_SHARED = "workspace-shared"
    GLOBAL = "global"


class MemoryStatus(StrEnum):
    CANDIDATE = "candidate"
    ACTIVE = "active"
    NEEDS_REVIEW = "needs_review"
    ARCHIVED = "archived"


class MemoryType(StrEnum):
    PROFILE = "profile"
    PREFERENCE = "preference"
    FACT = "fact"
    DECISION = "decision"
    EXPERIENCE = "experience"
    FAILURE = "failure"
    NOTE = "note"
    RESOURCE = "resource"  # a chunk from a memory source


@dataclass(frozen=True)
class Principal:
    """Who is asking, resolved from the API key, never from a request body."""

    user_id: str
    agent_id: str | None = None
    is_admin: bool = False
    is_trusted: bool = False  # may write global/public
    key_id: str | None = None
    # Workspaces whose shared memory this principal may read (member, and the agent allowed).
    workspace_ids: frozenset[str] = field(default_factory=frozenset)
    # The agent profile's memory_sources allowlist: None = every source, () = none.
    memory_sources: tuple[str, ...] | None = None


class MemoryRecord(BaseModel):
    model_config = ConfigDict(from_attributes=True)

    id: str
    user_id: str
    agent_id: str | None = None
    workspace_id: str | None = None
    session_id: str | None = None
    namespace: str
    memory_type: str
    content: str
    summary: str = ""
    tags: list[str] = []
    flags: list[str] = []  # e.g. "incorrect": out of default retrieval
    importance: float = 0.5
    confidence: float = 0.8
    visibility: Visibility
    source: str = "manual"
    source_ref: str | None = None
    source_id: str | None = None
    source_scope: str | None = None  # the upstream's own id of where it came from ("slack:#eng")
    status: MemoryStatus = MemoryStatus.ACTIVE
    evidence_count: int = 1
    version: int = 1
    metadata: dict[str, Any] = {}
    created_at: datetime
    updated_at: datetime
    expires_at: datetime | None = None

    @computed_field  # type: ignore[prop-decorator]
    @property
    def uri(self) -> str:
        """Its OpenViking address (seed 004 §G), taken wherever its id is."""
        return memory_uri(self.namespace, self.id)

    @computed_field  # type: ignore[prop-decorator]
    @property
    def source_uri(self) -> str | None:
        """The vault note it was read from, as an OpenViking resource; None for other sources."""
        return note_uri(self.user_id, self.source_ref) if self.source == "obsidian" and self.source_ref else None


def new_id(prefix: str) -> str:
    return f"{prefix}_{uuid.uuid4().hex}"


_SPACE = re.compile(r"\s+")


def content_hash(text: str) -> str:
    """Hash of the normalised text (NFKC, case-folded, whitespace folded): the exact-duplicate key."""
    normal = _SPACE.sub(" ", unicodedata.normalize("NFKC", text).casefold()).strip()
    return hashlib.sha256(normal.encode("utf-8")).hexdigest()


def source_chunk_key(source_id: str, item_id: str) -> str:
    """The key every chunk of a memory-source item carries (seed 000: ``mem_src:{id}:{item}``)."""
    return f"mem_src:{source_id}:{item_id}"


def source_chunk_id(source_id: str, item_id: str, index: int) -> str:
    """Deterministic: re-ingesting the same item after a crash overwrites, never duplicates."""
    digest = hashlib.sha256(f"{source_chunk_key(source_id, item_id)}#{index}".encode()).hexdigest()[:32]
    return f"chk_{digest}"
