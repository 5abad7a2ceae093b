from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Response, status
from pydantic import BaseModel, Field

from memgw.common.sources import MemorySourceEntry, SourceKind
from memgw.gateway import sources_service
from memgw.gateway.deps import InfraDep, PrincipalDep

router = APIRouter(prefix="/v1/sources", tags=["sources"])


class SourceCreate(BaseModel):
    model_config = {
        "extra": "forbid",
        "json_schema_extra": {"examples": [{"id": "notes", "kind": "Folder", "fields": {"path": "/home/me/notes"}}]},
    }
    id: str = Field(max_length=128)
    kind: SourceKind
    label: str = ""
    enabled: bool = True
    owner_user_id: str | None = None
    workspace_id: str | None = None
    fields: dict[str, Any] = Field(default_factory=dict)
    max_tokens_per_sync: int | None = None
    max_cost_per_sync_usd: float | None = None
    sync_depth_days: int | None = None


@router.post("", status_code=status.HTTP_201_CREATED, response_model=MemorySourceEntry)
async def add_source(body: SourceCreate, infra: InfraDep, principal: PrincipalDep) -> MemorySourceEntry:
    entry = MemorySourceEntry.model_validate(
        {**body.model_dump(), "owner_user_id": body.owner_user_id or principal.user_id}
    )
    return await sources_service.add(infra, principal, entry)


@router.get("/{source_id}", response_model=MemorySourceEntry)
async def get_source(source_id: str, infra: InfraDep, principal: PrincipalDep) -> MemorySourceEntry:
    return await sources_service.get(infra, principal, source_id)


@router.post("/{source_id}/sync", status_code=status.HTTP_202_ACCEPTED)
async def sync_source(source_id: str, infra: InfraDep, principal: PrincipalDep, response: Response) -> dict[str, Any]:
    """Queue a sync and answer at once with its run; a run already in flight is returned instead."""
    run, created = await sources_service.request_sync(infra, principal, source_id)
    response.headers["Location"] = f"/v1/sources/{source_id}/runs/{run['id']}"
    return {"run": run, "created": created}


@router.get("/{source_id}/runs/{run_id}")
async def get_run(source_id: str, run_id: str, infra: InfraDep, principal: PrincipalDep) -> dict[str, Any]:
    return await sources_service.get_run(infra, principal, source_id, run_id)
