"""``GET /v1/stats``: counts for the console's overview, of exactly what the key may read."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query

from memgw.common import runs
from memgw.gateway.deps import MemoriesDep, PrincipalDep, ServicesDep, SourcesDep

router = APIRouter(prefix="/v1", tags=["governance"])


@router.get("/stats")
async def stats(
    memories: MemoriesDep,
    sources: SourcesDep,
    services: ServicesDep,
    principal: PrincipalDep,
    days: Annotated[int, Query(ge=1, le=365)] = 30,
) -> dict[str, Any]:
    """Memories per namespace and type, memories made and syncs run per day (last `days`)."""
    counts = await memories.stats(principal, days)
    readable = [s.id for s in await sources.list_sources(principal)]
    return {**counts, "syncs_per_day": await runs.per_day(services.pool, readable, days)}
