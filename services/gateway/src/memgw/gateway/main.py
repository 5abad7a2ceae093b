"""The gateway: REST /v1 (and, as later issues add them, MCP and the event relay)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from fastapi import FastAPI, Request, Response
from fastapi.responses import JSONResponse

from memgw.common.logging import CORRELATION_HEADER, correlation_scope
from memgw.common.runtime import Infra, ServiceParts
from memgw.gateway.api import health, memory, sources
from memgw.gateway.errors import error_body, install_error_handlers

MAX_BODY_BYTES = 1_000_000


def create_app(infra: Infra) -> FastAPI:
    app = FastAPI(
        title="Memory Gateway",
        version="0.1.0",
        description="Shared, isolated long-term memory for AI agents.",
    )
    app.state.infra = infra
    install_error_handlers(app)

    @app.middleware("http")
    async def correlate_and_limit(request: Request, call_next: Callable[[Request], Awaitable[Response]]) -> Response:
        length = request.headers.get("content-length")
        if length and length.isdigit() and int(length) > MAX_BODY_BYTES:
            return JSONResponse(error_body("payload_too_large", f"body over {MAX_BODY_BYTES} bytes"), status_code=413)
        with correlation_scope(request.headers.get(CORRELATION_HEADER)) as cid:
            response = await call_next(request)
            response.headers[CORRELATION_HEADER] = cid
            return response

    for module in (health, memory, sources):
        app.include_router(module.router)
    return app


def build(infra: Infra) -> ServiceParts:
    return ServiceParts(name="gateway", app=create_app(infra))
