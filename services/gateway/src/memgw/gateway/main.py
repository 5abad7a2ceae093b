"""The gateway: REST /v1, the facades of other memory APIs (mem0, EverMemOS, OpenHuman RPC), MCP, the
event relay and the web console."""

from __future__ import annotations

from functools import partial

from fastapi import FastAPI
from fastapi_offline import FastAPIOffline
from starlette.exceptions import HTTPException as StarletteHTTPException

from memgw.common.runtime import Infra, ServiceParts
from memgw.common.settings import GatewaySettings
from memgw.gateway.api import (
    audit,
    directory,
    evermemos,
    health,
    mem0,
    memory,
    overview,
    rpc,
    sessions,
    skills,
    sources,
)
from memgw.gateway.body_limit import BodyLimit
from memgw.gateway.console import install_console
from memgw.gateway.correlation import Correlation
from memgw.gateway.errors import install_error_handlers, on_http_error
from memgw.gateway.events import relay_router
from memgw.gateway.fair_shares import FairShares, Limits
from memgw.gateway.mcp import mcp_app
from memgw.gateway.openapi_doc import document
from memgw.gateway.server_timing import ServerTiming
from memgw.gateway.services import Services, services_for

MAX_BODY_BYTES = 1_000_000


def create_app(services: Services, limits: Limits) -> FastAPI:
    mcp = mcp_app(services)
    app = FastAPIOffline(  # /docs and /redoc from the package's own assets: they work offline
        title="Memory Gateway",
        version="0.1.0",
        description="Shared, isolated long-term memory for AI agents. MCP (streamable HTTP): /mcp and /mcp/rpc.",
        lifespan=mcp.lifespan,
    )
    document(app)
    app.state.services = services
    app.state.end_sessions = mcp.state.end_sessions
    install_error_handlers(app)

    for module in (health, memory, sessions, directory, audit, overview, sources, mem0, evermemos, rpc, skills):
        app.include_router(module.router)
    install_console(app)
    mcp.add_exception_handler(StarletteHTTPException, partial(on_http_error, api=app))  # paths we do not take
    app.mount("/", mcp)  # last: FastAPI's own routes match first
    app.add_middleware(ServerTiming)
    app.add_middleware(Correlation)
    app.add_middleware(BodyLimit, max_bytes=MAX_BODY_BYTES)  # before anything reads a body
    app.add_middleware(FairShares, limits=limits)  # outermost: a key past its share costs nothing more
    return app


def limits_of(settings: GatewaySettings) -> Limits:
    return Limits(settings.key_rate_per_s, settings.key_burst, settings.key_max_in_flight, settings.key_max_queued)


def build(infra: Infra) -> ServiceParts:
    services = services_for(infra)
    app = create_app(services, limits_of(infra.settings.gateway))
    return ServiceParts(
        name="gateway",
        app=app,
        router=relay_router(infra.layout, services.stage_relay, services.keys),
        cleanup=[services.close],
        on_stop=[services.stage_relay.close, app.state.end_sessions],
    )
