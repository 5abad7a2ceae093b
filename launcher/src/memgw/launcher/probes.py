"""The probes of a process that serves no gateway (a worker's pod): ``/healthz`` (the process answers)
and ``/readyz`` (Postgres and the bus answer, ``memgw.common.readiness``) on ``MEMGW_HEALTH_PORT``."""

from __future__ import annotations

from fastapi import FastAPI
from fastapi.responses import JSONResponse

from memgw.common.readiness import readiness
from memgw.common.runtime import Infra


def probe_app(infra: Infra) -> FastAPI:
    app = FastAPI(title="memgw probes", docs_url=None, redoc_url=None, openapi_url=None)

    @app.get("/healthz")
    async def healthz() -> dict[str, str]:
        return {"status": "ok"}

    @app.get("/readyz")
    async def readyz() -> JSONResponse:
        found = await readiness(infra.pool, infra.broker.connection, infra.layout)
        return JSONResponse(found.as_body(), status_code=found.status_code)

    return app
