from __future__ import annotations

from fastapi import APIRouter

from memgw.gateway.deps import InfraDep

router = APIRouter(tags=["health"])


@router.get("/healthz")
async def healthz(infra: InfraDep) -> dict[str, str]:
    """Liveness and readiness: Postgres answers and the bus is connected."""
    await infra.pool.fetchval("SELECT 1")
    return {"status": "ok", "bus": "connected" if infra.broker.connection.is_connected else "disconnected"}
