"""Asking the policy and acting on its answer. A refusal is audited with the policy's reason and
answered 404 when the caller may not even know the resource exists, 403 otherwise."""

from __future__ import annotations

import asyncpg

from memgw.common import policy
from memgw.common.domain import Principal
from memgw.common.principals import owner_of_agent
from memgw.gateway import audit
from memgw.gateway.errors import NotFound


async def require(
    pool: asyncpg.Pool,
    p: Principal,
    action: policy.Action,
    resource: policy.Resource,
    *,
    target_type: str,
    target_id: str | None,
    hidden: bool = False,
    operation: str | None = None,
) -> policy.Decision:
    """``operation``: what the audit row names when it is more precise than the policy's action
    (``memory_delete`` for a MEMORY_WRITE refusal)."""
    decision = policy.decide(p, action, resource)
    if not decision.allowed:
        answer = NotFound(f"no {target_type} {target_id!r}") if hidden else None
        raise await audit.refused(
            pool,
            p,
            operation or action.value,
            decision.reason,
            target_type=target_type,
            target_id=target_id,
            answer=answer,
        )
    return decision


def allowed(p: Principal, action: policy.Action, resource: policy.Resource) -> bool:
    """For filtering lists: what the caller may not see is left out, not refused."""
    return policy.decide(p, action, resource).allowed


async def require_acting(
    pool: asyncpg.Pool,
    p: Principal,
    operation: str,
    user_id: str | None,
    agent_id: str | None,
    workspace_id: str | None,
) -> None:
    """A body may name only the principal's own user and agent, and a workspace it may read."""
    owner = None
    if agent_id and agent_id != p.agent_id:
        owner = await owner_of_agent(pool, agent_id)
    ref = policy.ActingRef(user_id, agent_id, owner, workspace_id)
    await require(pool, p, policy.Action.ACT_FOR, ref, target_type="memory", target_id=None, operation=operation)
