"""Request dependencies: the gateway's services and the authenticated principal."""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any

from fastapi import Depends, Header
from starlette.requests import HTTPConnection

from memgw.common.domain import Principal
from memgw.gateway import audit
from memgw.gateway.directory_service import Directory
from memgw.gateway.errors import BadRequest, Unauthorized
from memgw.gateway.evermemos_service import EverMemOSFacade
from memgw.gateway.identity import KeyRing, api_key_from
from memgw.gateway.mem0_service import Mem0
from memgw.gateway.memory_service import Memories
from memgw.gateway.openhuman_rpc import OpenHumanRpc
from memgw.gateway.profile_service import Profiles
from memgw.gateway.review_service import Reviews
from memgw.gateway.server_timing import step
from memgw.gateway.services import Services
from memgw.gateway.session_service import Sessions
from memgw.gateway.sources_service import Sources


# Every dependency is ``async def``: FastAPI runs a plain ``def`` one in a worker thread, a hop there and
# back on every request (two of them on each route here, before this was so).
async def get_services(connection: HTTPConnection) -> Services:
    """What ``main.create_app`` built (HTTP requests and WebSockets alike)."""
    services: Services = connection.app.state.services
    return services


ServicesDep = Annotated[Services, Depends(get_services)]


def _part(name: str) -> Callable[[Services], Any]:
    """A dependency that hands a route one of the services by name."""

    async def part(services: ServicesDep) -> Any:
        return getattr(services, name)

    return part


MemoriesDep = Annotated[Memories, Depends(_part("memories"))]
SessionsDep = Annotated[Sessions, Depends(_part("sessions"))]
DirectoryDep = Annotated[Directory, Depends(_part("directory"))]
ReviewsDep = Annotated[Reviews, Depends(_part("reviews"))]
ProfilesDep = Annotated[Profiles, Depends(_part("profiles"))]
SourcesDep = Annotated[Sources, Depends(_part("sources"))]
Mem0Dep = Annotated[Mem0, Depends(_part("mem0"))]
EverMemOSDep = Annotated[EverMemOSFacade, Depends(_part("evermemos"))]
RpcDep = Annotated[OpenHumanRpc, Depends(_part("rpc"))]


async def get_principal(connection: HTTPConnection, services: ServicesDep) -> Principal:
    target = f"{connection.scope.get('method', 'WS')} {connection.url.path}"
    with step("auth"):
        return await authenticate(services.keys, api_key_from(connection.headers), target=target)


async def authenticate(keys: KeyRing, secret: str | None, *, target: str) -> Principal:
    """The principal of a key, or Unauthorized (audited, rate-limited) for none or a bad one."""
    if not secret:
        reason = "send an API key as 'Authorization: Bearer <key>' or 'X-API-Key: <key>'"
    else:
        principal = await keys.principal(secret)
        if principal is not None:
            return principal
        reason = "unknown or revoked API key"
    await audit.unauthenticated(keys.pool, reason, target=target[:200])
    raise Unauthorized(reason)


PrincipalDep = Annotated[Principal, Depends(get_principal)]


async def if_match_version(
    if_match: Annotated[
        str | None, Header(description='The version you read, e.g. `"3"`; a stale one gets 409.')
    ] = None,
) -> int | None:
    """The one reading of If-Match: a version number, quoted or not, weak or not; else 400."""
    if if_match is None:
        return None
    raw = if_match.strip().removeprefix("W/").strip('"')
    if not raw.isdigit():
        raise BadRequest('If-Match must be the version you read, e.g. If-Match: "3"')
    return int(raw)


IfMatchVersion = Annotated[int | None, Depends(if_match_version)]
