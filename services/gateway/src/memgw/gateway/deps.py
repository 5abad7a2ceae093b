"""Request dependencies: the process infrastructure and the authenticated principal."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Request

from memgw.common.domain import Principal
from memgw.common.runtime import Infra
from memgw.gateway.errors import Unauthorized
from memgw.gateway.identity import principal_for_key


def get_infra(request: Request) -> Infra:
    infra: Infra = request.app.state.infra
    return infra


InfraDep = Annotated[Infra, Depends(get_infra)]


def _key_from(request: Request) -> str | None:
    auth = request.headers.get("authorization", "")
    if auth.lower().startswith("bearer "):
        return auth[7:].strip() or None
    return request.headers.get("x-api-key") or None


async def get_principal(request: Request, infra: InfraDep) -> Principal:
    secret = _key_from(request)
    if not secret:
        raise Unauthorized("send an API key as 'Authorization: Bearer <key>' or 'X-API-Key: <key>'")
    principal = await principal_for_key(infra.pool, secret)
    if principal is None:
        raise Unauthorized("unknown or revoked API key")
    return principal


PrincipalDep = Annotated[Principal, Depends(get_principal)]
