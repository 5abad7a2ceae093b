"""Request dependencies: the process infrastructure and the authenticated principal."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Header, Request

from memgw.common.domain import Principal
from memgw.common.runtime import Infra
from memgw.gateway import audit
from memgw.gateway.errors import BadRequest, Unauthorized
from memgw.gateway.identity import api_key_from, principal_for_key


def get_infra(request: Request) -> Infra:
    infra: Infra = request.app.state.infra
    return infra


InfraDep = Annotated[Infra, Depends(get_infra)]


async def get_principal(request: Request, infra: InfraDep) -> Principal:
    return await authenticate(infra, api_key_from(request.headers), target=f"{request.method} {request.url.path}")


async def authenticate(infra: Infra, secret: str | None, *, target: str) -> Principal:
    """The principal of a key, or Unauthorized (audited, rate-limited) for none or a bad one."""
    if not secret:
        reason = "send an API key as 'Authorization: Bearer <key>' or 'X-API-Key: <key>'"
    else:
        principal = await principal_for_key(infra.pool, secret)
        if principal is not None:
            return principal
        reason = "unknown or revoked API key"
    await audit.unauthenticated(infra.pool, reason, target=target[:200])
    raise Unauthorized(reason)


PrincipalDep = Annotated[Principal, Depends(get_principal)]


def if_match_version(
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
