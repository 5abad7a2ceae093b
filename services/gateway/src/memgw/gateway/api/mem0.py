"""mem0's two APIs under ``/mem0``: the platform API that mem0ai's ``MemoryClient(host=…)`` calls
(``Authorization: Token <key>``) and the self-hosted server's REST that Hermes' mem0 provider and
other mem0 clients call (``X-API-Key``). Both answer with our API keys; the shapes are mem0's."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query, status

from memgw.gateway.deps import Mem0Dep, PrincipalDep
from memgw.gateway.mem0_service import Mem0Add, Mem0Listing, Mem0Search, Mem0Update, scope_of
from memgw.gateway.schemas import MAX_PAGE, ResourceId

router = APIRouter(prefix="/mem0", tags=["mem0"])
Page = Annotated[int, Query(ge=1, le=10_000)]
PageSize = Annotated[int, Query(ge=1, le=MAX_PAGE)]
Entity = Annotated[str | None, Query(max_length=200)]

# -- the platform API (mem0ai MemoryClient) ---------------------------------------------------------------


@router.get("/v1/ping/")
async def ping(principal: PrincipalDep) -> dict[str, Any]:
    """What MemoryClient asks when it starts: the key works. One install is one organisation and one
    project to mem0's client (its project calls are not served; memories are the key's, not a project's)."""
    return {"status": "ok", "message": "Memory Gateway", "org_id": "memgw", "project_id": "default", "user_email": None}


@router.post("/v3/memories/add/")
async def platform_add(body: Mem0Add, mem0: Mem0Dep, principal: PrincipalDep) -> dict[str, Any]:
    return {"results": await mem0.add(principal, body)}


@router.post("/v3/memories/search/")
async def platform_search(body: Mem0Search, mem0: Mem0Dep, principal: PrincipalDep) -> dict[str, Any]:
    return {"results": await mem0.search(principal, body)}


@router.post("/v3/memories/")
async def platform_list(
    body: Mem0Listing, mem0: Mem0Dep, principal: PrincipalDep, page: Page = 1, page_size: PageSize = MAX_PAGE
) -> dict[str, Any]:
    return await mem0.listing(principal, scope_of(body.filters), page, page_size)


@router.get("/v1/memories/{memory_id}/")
async def platform_get(memory_id: ResourceId, mem0: Mem0Dep, principal: PrincipalDep) -> dict[str, Any]:
    return await mem0.get(principal, memory_id)


@router.put("/v1/memories/{memory_id}/")
async def platform_update(
    memory_id: ResourceId, body: Mem0Update, mem0: Mem0Dep, principal: PrincipalDep
) -> dict[str, Any]:
    return await mem0.update(principal, memory_id, body)


@router.delete("/v1/memories/{memory_id}/")
async def platform_delete(memory_id: ResourceId, mem0: Mem0Dep, principal: PrincipalDep) -> dict[str, Any]:
    await mem0.delete(principal, memory_id)
    return {"message": "Memory deleted successfully!"}


@router.delete("/v1/memories/")
async def platform_delete_all(
    mem0: Mem0Dep, principal: PrincipalDep, user_id: Entity = None, agent_id: Entity = None, run_id: Entity = None
) -> dict[str, Any]:
    deleted = await mem0.delete_all(principal, scope_of(None, user_id=user_id, agent_id=agent_id, run_id=run_id))
    return {"message": "Memories deleted successfully!", "deleted": deleted}


@router.get("/v1/memories/{memory_id}/history/")
async def platform_history(memory_id: ResourceId, mem0: Mem0Dep, principal: PrincipalDep) -> list[dict[str, Any]]:
    return await mem0.history(principal, memory_id)


# -- the self-hosted server's REST (Hermes' mem0 provider, mem0's own server clients) -----------------------


@router.post("/memories", status_code=status.HTTP_200_OK)
async def add(body: Mem0Add, mem0: Mem0Dep, principal: PrincipalDep) -> dict[str, Any]:
    return {"results": await mem0.add(principal, body)}


@router.get("/memories")
async def get_all(
    mem0: Mem0Dep, principal: PrincipalDep, user_id: Entity = None, agent_id: Entity = None, run_id: Entity = None
) -> dict[str, Any]:
    scope = scope_of(None, user_id=user_id, agent_id=agent_id, run_id=run_id)
    return {"results": (await mem0.listing(principal, scope, 1, MAX_PAGE))["results"]}


@router.post("/search")
async def search(body: Mem0Search, mem0: Mem0Dep, principal: PrincipalDep) -> dict[str, Any]:
    return {"results": await mem0.search(principal, body)}


@router.get("/memories/{memory_id}")
async def get(memory_id: ResourceId, mem0: Mem0Dep, principal: PrincipalDep) -> dict[str, Any]:
    return await mem0.get(principal, memory_id)


@router.put("/memories/{memory_id}")
async def update(memory_id: ResourceId, body: Mem0Update, mem0: Mem0Dep, principal: PrincipalDep) -> dict[str, Any]:
    await mem0.update(principal, memory_id, body)
    return {"message": "Memory updated successfully!"}


@router.delete("/memories/{memory_id}")
async def delete(memory_id: ResourceId, mem0: Mem0Dep, principal: PrincipalDep) -> dict[str, Any]:
    await mem0.delete(principal, memory_id)
    return {"message": "Memory deleted successfully"}


@router.delete("/memories")
async def delete_all(
    mem0: Mem0Dep, principal: PrincipalDep, user_id: Entity = None, agent_id: Entity = None, run_id: Entity = None
) -> dict[str, Any]:
    deleted = await mem0.delete_all(principal, scope_of(None, user_id=user_id, agent_id=agent_id, run_id=run_id))
    return {"message": "All relevant memories deleted", "deleted": deleted}


@router.get("/memories/{memory_id}/history")
async def history(memory_id: ResourceId, mem0: Mem0Dep, principal: PrincipalDep) -> list[dict[str, Any]]:
    return await mem0.history(principal, memory_id)
