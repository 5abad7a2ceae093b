from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query, Response, status
from starlette.exceptions import HTTPException as StarletteHTTPException

from memgw.common.domain import MemoryRecord, MemoryStatus
from memgw.gateway.deps import IfMatchVersion, MemoriesDep, PrincipalDep
from memgw.gateway.pagination import Page
from memgw.gateway.schemas import (
    MAX_PAGE,
    FeedbackAccepted,
    FeedbackRequest,
    MemoryBatch,
    MemoryBatchResult,
    MemoryCreate,
    MemoryCreated,
    MemoryListQuery,
    MemoryPatch,
    MemoryRef,
    MemoryVersion,
    Moment,
    SearchRequest,
    SearchResponse,
)

router = APIRouter(prefix="/v1/memory", tags=["memory"])


@router.post("", status_code=status.HTTP_201_CREATED, response_model=MemoryCreated)
async def create_memory(body: MemoryCreate, memories: MemoriesDep, principal: PrincipalDep) -> MemoryCreated:
    """Store a memory; the namespace is derived from type and visibility when not given."""
    record = await memories.create(principal, body)
    return MemoryCreated(id=record.id, namespace=record.namespace, version=record.version, uri=record.uri)


@router.post("/batch", response_model=MemoryBatchResult)
async def create_memories(body: MemoryBatch, memories: MemoriesDep, principal: PrincipalDep) -> MemoryBatchResult:
    """Store up to 100 memories: each is checked as a single write would be, the accepted are embedded
    in one batch and written in one transaction; the answer has one result per record, in order."""
    results = await memories.create_many(principal, body.memories)
    created = sum(1 for r in results if r.status == 201)
    return MemoryBatchResult(created=created, failed=len(results) - created, results=results)


@router.get("", response_model=Page[MemoryRecord])
async def list_memories(
    memories: MemoriesDep,
    principal: PrincipalDep,
    namespace: str | None = None,
    memory_type: str | None = None,
    tags: Annotated[list[str] | None, Query(description="All of these tags.")] = None,
    status_: Annotated[list[MemoryStatus] | None, Query(alias="status")] = None,
    since: Moment | None = None,
    until: Moment | None = None,
    cursor: str | None = None,
    limit: Annotated[int, Query(ge=1, le=MAX_PAGE)] = 20,
) -> Page[MemoryRecord]:
    """Memories the key may read, newest first, a page at a time (pass `next_cursor` back)."""
    query = MemoryListQuery(
        namespace=namespace,
        memory_type=memory_type,
        tags=tags,
        status=status_,
        since=since,
        until=until,
        cursor=cursor,
        limit=limit,
    )
    return await memories.list_memories(principal, query)


@router.post("/search", response_model=SearchResponse)
async def search_memory(body: SearchRequest, memories: MemoriesDep, principal: PrincipalDep) -> SearchResponse:
    """Hybrid search over what the key's principal may read."""
    hits = await memories.search(principal, body)
    return SearchResponse(results=hits, total=len(hits))


# A memory is addressed by its id or by its viking:// URI, which holds slashes: the routes take a path,
# and those with a suffix come first so that "…/history" is not read as part of an id.
@router.api_route("/search", methods=["GET", "PATCH", "DELETE"], include_in_schema=False)
@router.api_route("/batch", methods=["GET", "PATCH", "DELETE"], include_in_schema=False)
async def post_only() -> None:
    """These are actions, not memory ids: without this, GET /v1/memory/search would look up a memory
    called "search" and answer 404 instead of 405."""
    raise StarletteHTTPException(status.HTTP_405_METHOD_NOT_ALLOWED, headers={"Allow": "POST"})


@router.get("/{memory_id:path}/history", response_model=list[MemoryVersion])
async def memory_history(memory_id: MemoryRef, memories: MemoriesDep, principal: PrincipalDep) -> list[MemoryVersion]:
    """Every version, newest first."""
    return await memories.history(principal, memory_id)


@router.post("/{memory_id:path}/feedback", response_model=FeedbackAccepted)
async def memory_feedback(
    memory_id: MemoryRef, body: FeedbackRequest, memories: MemoriesDep, principal: PrincipalDep
) -> FeedbackAccepted:
    """`incorrect` takes the memory out of default retrieval at once; every kind reaches the consolidator."""
    applies_to = await memories.feedback(principal, memory_id, body)
    return FeedbackAccepted(memory_id=memory_id, feedback=body.feedback, applies_to=applies_to)


@router.get("/{memory_id:path}", response_model=MemoryRecord)
async def get_memory(
    memory_id: MemoryRef, memories: MemoriesDep, principal: PrincipalDep, response: Response
) -> MemoryRecord:
    record = await memories.get(principal, memory_id)
    response.headers["ETag"] = f'"{record.version}"'
    return record


@router.patch("/{memory_id:path}", response_model=MemoryRecord)
async def update_memory(
    memory_id: MemoryRef,
    body: MemoryPatch,
    memories: MemoriesDep,
    principal: PrincipalDep,
    expected: IfMatchVersion = None,
) -> MemoryRecord:
    """Change fields as a new version; send `version` or `If-Match` to refuse a stale write (409)."""
    return await memories.update(principal, memory_id, body, expected)


@router.delete("/{memory_id:path}")
async def delete_memory(
    memory_id: MemoryRef, memories: MemoriesDep, principal: PrincipalDep, expected: IfMatchVersion = None
) -> dict[str, object]:
    await memories.delete(principal, memory_id, expected)
    return {"deleted": True, "id": memory_id}
