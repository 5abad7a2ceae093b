"""Request and response bodies of /v1 (seed 004 §D), with the limits every request is held to."""

from __future__ import annotations

import math
from datetime import UTC, datetime
from typing import Annotated, Any, Literal, Self

from fastapi import Path as PathParam
from pydantic import AfterValidator, BaseModel, ConfigDict, Field, field_validator, model_validator

from memgw.common.domain import ID_PATTERN, MemoryContent, MemoryRecord, MemoryStatus, MemoryType, Visibility
from memgw.common.viking import memory_id_of

MAX_TAGS = 32
MAX_TAG_CHARS = 64
MAX_QUERY_CHARS = 2_000
MAX_PAGE = 100

Tags = list[str]
MAX_NESTING = 8
SAFE_INTEGER = 2**53  # what every JSON reader holds exactly
EARLIEST, LATEST = datetime(1900, 1, 1, tzinfo=UTC), datetime(9000, 1, 1, tzinfo=UTC)


def _moment(value: datetime) -> datetime:
    """Aware (a naive time is UTC) and between 1900 and 9000: what every store and clock holds."""
    if value.tzinfo is None:
        value = value.replace(tzinfo=UTC)
    try:
        in_range = EARLIEST <= value < LATEST
    except OverflowError:
        in_range = False
    if not in_range:
        raise ValueError("must lie between 1900-01-01 and 9000-01-01")
    return value


Moment = Annotated[datetime, AfterValidator(_moment)]


Content = MemoryContent  # one rule for a memory's text, in memgw.common.domain


def check_value(value: Any, where: str, depth: int = 0) -> None:
    """What a request may carry anywhere: text without NUL, finite numbers, integers JSON readers
    hold exactly, nesting at most MAX_NESTING deep. Raises ValueError naming the place."""
    if isinstance(value, str):
        if "\x00" in value:
            raise ValueError(f"{where}: NUL characters are not allowed")
    elif isinstance(value, bool) or value is None:
        return
    elif isinstance(value, float):
        if not math.isfinite(value):
            raise ValueError(f"{where}: numbers must be finite")
    elif isinstance(value, int):
        if abs(value) > SAFE_INTEGER:
            raise ValueError(f"{where}: integers must lie within ±2**53")
    elif isinstance(value, dict | list | tuple | set | frozenset):
        if depth >= MAX_NESTING:
            raise ValueError(f"{where}: nested more than {MAX_NESTING} levels")
        items = value.items() if isinstance(value, dict) else enumerate(value)
        for key, item in items:
            check_value(key, f"{where} key", depth + 1)
            check_value(item, f"{where}.{key}", depth + 1)


class RequestBody(BaseModel):
    """Every request model: on top of its fields' own rules, nothing anywhere in it that a store
    refuses or a reader misreads (see ``check_value``)."""

    @model_validator(mode="after")
    def _storable(self) -> Self:
        for name, value in self.__dict__.items():
            check_value(value, name)
        return self


# A resource id in a URL path: one pattern for every resource, so `../x` or a NUL is 422 at the door.
ResourceId = Annotated[str, PathParam(pattern=ID_PATTERN, description="An id: " + ID_PATTERN)]
MemoryRef = Annotated[
    str,
    PathParam(description="A memory id, or the memory's viking:// URI (viking://memory/<namespace>/<id>)."),
    AfterValidator(memory_id_of),
]


def _check_tags(tags: list[str]) -> list[str]:
    for tag in tags:
        if not tag.strip() or len(tag) > MAX_TAG_CHARS:
            raise ValueError(f"each tag must be 1 to {MAX_TAG_CHARS} characters")
    return tags


class MemoryCreate(RequestBody):
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
    agent_id: str | None = Field(default=None, description="Defaults to the key's agent.")
    workspace_id: str | None = None
    session_id: str | None = None
    namespace: str | None = Field(default=None, description="Derived from type and visibility when absent.")
    memory_type: MemoryType | None = Field(default=None, description="Classified from the content when absent.")
    content: Content
    summary: str = Field(default="", max_length=2_000)
    tags: list[str] = Field(default_factory=list, max_length=MAX_TAGS)
    importance: float = Field(default=0.5, ge=0, le=1)
    confidence: float = Field(default=0.8, ge=0, le=1)
    visibility: Visibility | None = Field(
        default=None,
        description="Classified when absent: workspace-shared when a workspace is named, agent-only for an agent's"
        " own experience and lessons, else private.",
    )
    source: str = Field(default="manual", max_length=64)
    source_ref: str | None = Field(default=None, max_length=500)
    metadata: dict[str, Any] = Field(default_factory=dict)
    expires_at: Moment | None = None

    _tags = field_validator("tags")(_check_tags)


class MemoryCreated(BaseModel):
    id: str
    namespace: str
    version: int
    uri: str = Field(description="Its viking:// URI, taken wherever its id is.")


MAX_BATCH = 100


class MemoryBatch(RequestBody):
    """Up to 100 memories in one request: one embedding batch, one transaction, an answer per record."""

    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={
            "examples": [
                {
                    "memories": [
                        {"content": "用户偏好中文输出。"},
                        {"content": "We decided to use Postgres.", "tags": ["db"]},
                    ]
                }
            ]
        },
    )
    memories: list[MemoryCreate] = Field(min_length=1, max_length=MAX_BATCH)


class BatchItemResult(BaseModel):
    index: int = Field(description="The record's place in the request.")
    status: int = Field(description="201 when stored, else the status a single write would have answered.")
    id: str | None = None
    namespace: str | None = None
    version: int | None = None
    uri: str | None = None
    error: str | None = None


class MemoryBatchResult(BaseModel):
    created: int
    failed: int
    results: list[BatchItemResult]


class MemoryPatch(RequestBody):
    """Fields to change; an absent field stays. ``version`` (or an If-Match header) makes the write
    conditional: a stale one gets 409."""

    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={
            "examples": [{"summary": "用户偏好中文、结构化、少废话。", "importance": 0.9, "version": 1}]
        },
    )
    content: Content | None = None
    summary: str | None = Field(default=None, max_length=2_000)
    tags: list[str] | None = Field(default=None, max_length=MAX_TAGS)
    importance: float | None = Field(default=None, ge=0, le=1)
    confidence: float | None = Field(default=None, ge=0, le=1)
    memory_type: MemoryType | None = None
    status: MemoryStatus | None = None
    metadata: dict[str, Any] | None = None
    expires_at: Moment | None = None
    flags: list[Literal["incorrect", "outdated", "useful"]] | None = Field(
        default=None, description="Set or clear feedback flags, e.g. [] to restore a memory marked incorrect."
    )
    version: int | None = Field(default=None, ge=1)

    @field_validator("tags")
    @classmethod
    def _tags(cls, tags: list[str] | None) -> list[str] | None:
        return _check_tags(tags) if tags is not None else None

    @field_validator("content", "summary", "importance", "confidence", "memory_type", "status", "metadata", "flags")
    @classmethod
    def _not_null(cls, value: Any) -> Any:
        if value is None:
            raise ValueError("may be left out, not null")
        return value


class MemoryListQuery(RequestBody):
    namespace: str | None = None
    memory_type: str | None = None
    tags: list[str] | None = None
    status: list[MemoryStatus] | None = None
    since: Moment | None = None
    until: Moment | None = None
    cursor: str | None = None
    limit: int = Field(default=20, ge=1, le=MAX_PAGE)


class MemoryVersion(BaseModel):
    version: int
    change: str
    changed_by: str | None
    created_at: datetime
    snapshot: dict[str, Any]


class SearchRequest(RequestBody):
    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={"examples": [{"query": "中文输出偏好", "limit": 5}, {"query": "project decisions"}]},
    )
    query: str = Field(min_length=1, max_length=MAX_QUERY_CHARS)
    user_id: str | None = None
    agent_id: str | None = None
    workspace_id: str | None = None
    namespaces: list[str] | None = Field(default=None, max_length=20)
    limit: int = Field(default=10, ge=1, le=MAX_PAGE)
    mode: Literal["hybrid", "dense", "sparse"] = "hybrid"
    explain: bool = Field(default=False, description="Return each hit's component scores.")
    statuses: list[MemoryStatus] = Field(
        default_factory=lambda: [MemoryStatus.ACTIVE],
        description="Candidates, needs_review and archived are returned only from the caller's own memories.",
    )


class SearchHit(BaseModel):
    memory: MemoryRecord
    score: float
    duplicates: list[str] = Field(default_factory=list, description="Near-duplicates folded into this hit.")
    explain: dict[str, Any] | None = None


class SearchResponse(BaseModel):
    results: list[SearchHit]
    total: int


class FeedbackRequest(RequestBody):
    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={"examples": [{"feedback": "incorrect", "comment": "这是一次临时偏好，不应长期保留。"}]},
    )
    user_id: str | None = None
    feedback: Literal["incorrect", "duplicate", "outdated", "useful"]
    comment: str | None = Field(default=None, max_length=2_000)
    target_memory_id: str | None = Field(default=None, description="The memory this one duplicates or is outdated by.")


class FeedbackAccepted(BaseModel):
    status: Literal["ok"] = "ok"
    memory_id: str
    feedback: str
    applies_to: Literal["record", "personal"] = Field(
        default="record",
        description="record: the memory itself (you may write it); personal: your own ranking, and for incorrect or"
        " outdated a review for the memory's owner.",
    )
