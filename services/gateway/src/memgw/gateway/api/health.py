from __future__ import annotations

from fastapi import APIRouter

from memgw.gateway.deps import ServicesDep

router = APIRouter(tags=["health"])


@router.get("/healthz")
async def healthz(services: ServicesDep) -> dict[str, str]:
    """Liveness and readiness: Postgres answers and the bus is connected."""
    await services.pool.fetchval("SELECT 1")
    return {"status": "ok", "bus": "connected" if services.broker.connection.is_connected else "disconnected"}
