from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Query

from memgw.gateway import audit, memory_service
from memgw.gateway.deps import InfraDep, PrincipalDep
from memgw.gateway.pagination import Page
from memgw.gateway.schemas import MAX_PAGE, Moment

router = APIRouter(prefix="/v1", tags=["audit"])


@router.get("/audit", response_model=Page[audit.AuditEntry])
async def list_audit(
    infra: InfraDep,
    principal: PrincipalDep,
    actor: str | None = None,
    action: str | None = None,
    decision: Literal["allow", "deny"] | None = None,
    target: str | None = None,
    since: Moment | None = None,
    until: Moment | None = None,
    cursor: str | None = None,
    limit: Annotated[int, Query(ge=1, le=MAX_PAGE)] = 50,
) -> Page[audit.AuditEntry]:
    """An admin sees every row; a user the rows of their own actions."""
    query = audit.AuditQuery(
        actor=actor,
        action=action,
        decision=decision,
        target=target,
        since=since,
        until=until,
        cursor=cursor,
        limit=limit,
    )
    return await audit.entries(infra.pool, principal, query)


@router.get("/namespaces")
async def list_namespaces(infra: InfraDep, principal: PrincipalDep) -> list[dict[str, Any]]:
    """The namespaces this key may read, and which of them it may write."""
    return await memory_service.namespaces(infra, principal)
