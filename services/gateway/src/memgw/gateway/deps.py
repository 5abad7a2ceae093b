"""Request dependencies: the process infrastructure and the authenticated principal."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Request

from memgw.common.domain import Principal
from memgw.common.runtime import Infra
from memgw.gateway.errors import Unauthorized
from memgw.gateway.identity import api_key_from, principal_for_key


def get_infra(request: Request) -> Infra:
    infra: Infra = request.app.state.infra
    return infra


InfraDep = Annotated[Infra, Depends(get_infra)]


async def get_principal(request: Request, infra: InfraDep) -> Principal:
    secret = api_key_from(request.headers)
    if not secret:
        raise Unauthorized("send an API key as 'Authorization: Bearer <key>' or 'X-API-Key: <key>'")
    principal = await principal_for_key(infra.pool, secret)
    if principal is None:
        raise Unauthorized("unknown or revoked API key")
    return principal


PrincipalDep = Annotated[Principal, Depends(get_principal)]
