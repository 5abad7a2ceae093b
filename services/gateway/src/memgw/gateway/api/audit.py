from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Query

from memgw.gateway import audit
from memgw.gateway.deps import MemoriesDep, PrincipalDep, ServicesDep
from memgw.gateway.pagination import Page
from memgw.gateway.schemas import MAX_PAGE, Moment

router = APIRouter(prefix="/v1", tags=["audit"])


@router.get("/audit", response_model=Page[audit.AuditEntry])
async def list_audit(
    services: ServicesDep,
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
    return await audit.entries(services.pool, principal, query)


@router.get("/namespaces")
async def list_namespaces(memories: MemoriesDep, principal: PrincipalDep) -> list[dict[str, Any]]:
    """The namespaces this key may read, and which of them it may write."""
    return await memories.namespaces(principal)
