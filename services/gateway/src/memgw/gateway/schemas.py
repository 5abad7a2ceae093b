"""Request and response bodies of /v1 (seed 004 §D)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from memgw.common.domain import MemoryRecord, MemoryStatus, Visibility

MAX_CONTENT_CHARS = 32_000
MAX_TAGS = 32
MAX_QUERY_CHARS = 2_000
MAX_PAGE = 100


class MemoryCreate(BaseModel):
    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={
            "examples": [
                {
                    "memory_type": "preference",
                    "content": "用户偏好中文输出。",
                    "summary": "中文输出偏好",
                    "tags": ["preference"],
                    "importance": 0.8,
                    "confidence": 0.9,
                    "visibility": "private",
                    "source": "manual",
                }
            ]
        },
    )
    user_id: str | None = Field(default=None, description="Defaults to the key's user; another user is refused.")
    agent_id: str | None = None
    workspace_id: str | None = None
    session_id: str | None = None
    namespace: str | None = Field(default=None, description="Derived from type and visibility when absent.")
    memory_type: str = Field(default="fact", min_length=1, max_length=64)
    content: str = Field(min_length=1, max_length=MAX_CONTENT_CHARS)
    summary: str = Field(default="", max_length=2_000)
    tags: list[str] = Field(default_factory=list, max_length=MAX_TAGS)
    importance: float = Field(default=0.5, ge=0, le=1)
    confidence: float = Field(default=0.8, ge=0, le=1)
    visibility: Visibility = Visibility.PRIVATE
    source: str = Field(default="manual", max_length=64)
    source_ref: str | None = Field(default=None, max_length=500)
    metadata: dict[str, Any] = Field(default_factory=dict)


class MemoryCreated(BaseModel):
    id: str
    namespace: str
    version: int


class SearchRequest(BaseModel):
    model_config = ConfigDict(extra="forbid", json_schema_extra={"examples": [{"query": "中文输出偏好", "limit": 5}]})
    query: str = Field(min_length=1, max_length=MAX_QUERY_CHARS)
    user_id: str | None = None
    agent_id: str | None = None
    workspace_id: str | None = None
    namespaces: list[str] | None = Field(default=None, max_length=20)
    limit: int = Field(default=10, ge=1, le=MAX_PAGE)
    mode: Literal["hybrid", "dense", "sparse"] = "hybrid"
    statuses: list[MemoryStatus] = Field(default_factory=lambda: [MemoryStatus.ACTIVE])


class SearchHit(BaseModel):
    memory: MemoryRecord
    score: float


class SearchResponse(BaseModel):
    results: list[SearchHit]
    total: int
