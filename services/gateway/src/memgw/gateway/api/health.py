"""Liveness and readiness, apart: a process that answers is alive (restarting it would not help
while a dependency is down); it is ready when Postgres answers and the bus is connected."""

from __future__ import annotations

import asyncio

from fastapi import APIRouter
from fastapi.responses import JSONResponse

from memgw.gateway.deps import ServicesDep
from memgw.gateway.errors import RETRY_AFTER_S

router = APIRouter(tags=["health"])
CHECK_S = 2.0


@router.get("/healthz")
async def healthz() -> dict[str, str]:
    """Liveness: the process answers."""
    return {"status": "ok"}


@router.get("/readyz", response_model=None)
async def readyz(services: ServicesDep) -> JSONResponse:
    """Readiness: 200 when Postgres answers and the bus is connected, else 503 naming what is down."""
    checks: dict[str, str] = {}
    try:
        await asyncio.wait_for(services.pool.fetchval("SELECT 1"), CHECK_S)
        checks["database"] = "ok"
    except Exception as exc:  # any failure means not ready; its name says which
        checks["database"] = f"down ({type(exc).__name__})"
    checks["bus"] = "ok" if services.broker.connection.is_connected else "down (disconnected)"
    ready = all(v == "ok" for v in checks.values())
    status = 200 if ready else 503
    headers = None if ready else {"Retry-After": str(RETRY_AFTER_S)}
    return JSONResponse({"status": "ready" if ready else "not ready", **checks}, status_code=status, headers=headers)
