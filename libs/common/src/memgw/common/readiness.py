"""Whether a process can do its work: Postgres answers and the bus answers a round trip (a frozen
server keeps its connection open: its state says nothing); and how long the oldest event not yet on
the bus has waited. The gateway's ``/readyz`` and a worker's probe (``MEMGW_HEALTH_PORT``) ask this."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Any

import asyncpg
from nats.aio.client import Client as NatsClient

from memgw.common.bus import BusLayout
from memgw.common.db.outbox import oldest_pending_age_s

CHECK_S = 2.0  # a dependency slower than this to answer is down, for a probe


@dataclass(frozen=True)
class Readiness:
    checks: dict[str, str]
    detail: dict[str, object] = field(default_factory=dict)

    @property
    def ready(self) -> bool:
        return all(v == "ok" for v in self.checks.values())

    @property
    def status_code(self) -> int:
        return 200 if self.ready else 503

    def as_body(self) -> dict[str, Any]:
        return {"status": "ready" if self.ready else "not ready", **self.checks, "detail": self.detail}


async def readiness(pool: asyncpg.Pool, bus: NatsClient, layout: BusLayout) -> Readiness:
    checks: dict[str, str] = {}
    try:
        await asyncio.wait_for(pool.fetchval("SELECT 1"), CHECK_S)
        checks["database"] = "ok"
    except Exception as exc:  # any failure means not ready; its name says which
        checks["database"] = f"down ({type(exc).__name__})"
    try:
        await bus.flush(timeout=int(CHECK_S))  # a PING answered by the server
        checks["bus"] = "ok"
    except Exception as exc:
        checks["bus"] = f"down ({type(exc).__name__})"
    detail: dict[str, object] = {}
    if checks["database"] == "ok":
        detail["outbox_oldest_pending_s"] = round(await pending_age_s(pool, layout), 1)
    return Readiness(checks, detail)


async def pending_age_s(pool: asyncpg.Pool, layout: BusLayout) -> float:
    return await asyncio.wait_for(oldest_pending_age_s(pool, layout), CHECK_S)
