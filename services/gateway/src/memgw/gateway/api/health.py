"""Liveness and readiness, apart: a process that answers is alive (restarting it would not help
while a dependency is down); it is ready when Postgres answers and the bus answers a round trip
(a frozen server keeps its connection open: its state says nothing). ``/metrics`` carries what an
operator graphs, in Prometheus' text format."""

from __future__ import annotations

import asyncio

from fastapi import APIRouter
from fastapi.responses import JSONResponse, PlainTextResponse

from memgw.common.db.outbox import oldest_pending_age_s
from memgw.gateway.deps import ServicesDep
from memgw.gateway.errors import RETRY_AFTER_S
from memgw.gateway.services import Services

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
    try:
        await services.broker.connection.flush(timeout=int(CHECK_S))  # a PING answered by the server
        checks["bus"] = "ok"
    except Exception as exc:
        checks["bus"] = f"down ({type(exc).__name__})"
    ready = all(v == "ok" for v in checks.values())
    detail: dict[str, object] = {}
    if checks["database"] == "ok":
        detail["outbox_oldest_pending_s"] = round(await _pending_age(services), 1)
    status = 200 if ready else 503
    headers = None if ready else {"Retry-After": str(RETRY_AFTER_S)}
    body = {"status": "ready" if ready else "not ready", **checks, "detail": detail}
    return JSONResponse(body, status_code=status, headers=headers)


async def _pending_age(services: Services) -> float:
    return await asyncio.wait_for(oldest_pending_age_s(services.pool, services.memories.layout), CHECK_S)


@router.get("/metrics", response_class=PlainTextResponse)
async def metrics(services: ServicesDep) -> str:
    """Prometheus text: how long the oldest event not yet on the bus has waited (an outage shows here)."""
    age = await _pending_age(services)
    return (
        "# HELP memgw_outbox_oldest_pending_seconds Age of the oldest outbox row not yet published.\n"
        "# TYPE memgw_outbox_oldest_pending_seconds gauge\n"
        f"memgw_outbox_oldest_pending_seconds {age:.3f}\n"
    )
