from __future__ import annotations

from fastapi import APIRouter, status

from memgw.gateway import memory_service
from memgw.gateway.deps import InfraDep, PrincipalDep
from memgw.gateway.schemas import MemoryCreate, MemoryCreated, SearchRequest, SearchResponse

router = APIRouter(prefix="/v1/memory", tags=["memory"])


@router.post("", status_code=status.HTTP_201_CREATED, response_model=MemoryCreated)
async def create_memory(body: MemoryCreate, infra: InfraDep, principal: PrincipalDep) -> MemoryCreated:
    """Store a memory; the namespace is derived from type and visibility when not given."""
    record = await memory_service.create(infra, principal, body)
    return MemoryCreated(id=record.id, namespace=record.namespace, version=record.version)


@router.post("/search", response_model=SearchResponse)
async def search_memory(body: SearchRequest, infra: InfraDep, principal: PrincipalDep) -> SearchResponse:
    """Hybrid search over what the key's principal may read."""
    hits = await memory_service.search(infra, principal, body)
    return SearchResponse(results=hits, total=len(hits))
