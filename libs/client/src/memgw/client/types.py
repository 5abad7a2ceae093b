"""What the gateway answers, as typed dictionaries (the REST API's JSON, unchanged)."""

from __future__ import annotations

from typing import Any, Literal, TypedDict

MemoryType = Literal["profile", "preference", "fact", "decision", "experience", "failure", "note"]
Visibility = Literal["private", "agent-only", "workspace-shared", "global"]
Feedback = Literal["incorrect", "duplicate", "outdated", "useful"]
SearchMode = Literal["hybrid", "dense", "sparse"]


class Created(TypedDict):
    id: str
    namespace: str
    version: int


class Memory(TypedDict, total=False):
    id: str
    user_id: str
    agent_id: str | None
    workspace_id: str | None
    namespace: str
    memory_type: str
    content: str
    summary: str
    tags: list[str]
    importance: float
    confidence: float
    visibility: str
    source: str
    status: str
    version: int
    metadata: dict[str, Any]
    created_at: str
    updated_at: str


class Hit(TypedDict):
    memory: Memory
    score: float
    duplicates: list[str]


class Episode(TypedDict):
    id: str
    session_id: str
    namespace: str
    content: str


class Namespace(TypedDict):
    namespace: str
    visibility: str
    read: bool
    write: bool


class SourceStatus(TypedDict, total=False):
    source_id: str
    kind: str
    label: str
    enabled: bool
    synced_chunks: int
    pending_items: int
    freshness: str
    sync_stage: str | None
    error: str | None
