"""Liveness and readiness, apart: a process that answers is alive (restarting it would not help
while a dependency is down); it is ready when Postgres answers and the bus answers a round trip
(``memgw.common.readiness``). ``/metrics`` carries what an operator graphs, in Prometheus' text format."""

from __future__ import annotations

from fastapi import APIRouter
from fastapi.responses import JSONResponse, PlainTextResponse

from memgw.common.readiness import pending_age_s, readiness
from memgw.gateway.deps import ServicesDep
from memgw.gateway.errors import RETRY_AFTER_S

router = APIRouter(tags=["health"])


@router.get("/healthz")
async def healthz() -> dict[str, str]:
    """Liveness: the process answers."""
    return {"status": "ok"}


@router.get("/readyz", response_model=None)
async def readyz(services: ServicesDep) -> JSONResponse:
    """Readiness: 200 when Postgres answers and the bus is connected, else 503 naming what is down."""
    found = await readiness(services.pool, services.broker.connection, services.memories.layout)
    headers = None if found.ready else {"Retry-After": str(RETRY_AFTER_S)}
    return JSONResponse(found.as_body(), status_code=found.status_code, headers=headers)


@router.get("/metrics", response_class=PlainTextResponse)
async def metrics(services: ServicesDep) -> str:
    """Prometheus text: how long the oldest event not yet on the bus has waited (an outage shows here)."""
    age = await pending_age_s(services.pool, services.memories.layout)
    return (
        "# HELP memgw_outbox_oldest_pending_seconds Age of the oldest outbox row not yet published.\n"
        "# TYPE memgw_outbox_oldest_pending_seconds gauge\n"
        f"memgw_outbox_oldest_pending_seconds {age:.3f}\n"
    )
