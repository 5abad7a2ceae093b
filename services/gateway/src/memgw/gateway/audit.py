"""Every read, write and refusal leaves a row; a refusal also carries its reason."""

from __future__ import annotations

from memgw.common.db.pool import Executor
from memgw.common.domain import Principal
from memgw.common.logging import current_correlation_id, get_logger

log = get_logger("memgw.gateway.audit")


async def record(
    db: Executor,
    principal: Principal | None,
    action: str,
    *,
    decision: str = "allow",
    reason: str = "",
    target_type: str = "",
    target_id: str | None = None,
    namespace: str | None = None,
) -> None:
    await db.execute(
        "INSERT INTO audit_log (actor_user_id, actor_agent_id, action, target_type, target_id, namespace,"
        " decision, reason, correlation_id) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
        principal.user_id if principal else None,
        principal.agent_id if principal else None,
        action,
        target_type,
        target_id,
        namespace,
        decision,
        reason,
        current_correlation_id(),
    )
    if decision == "deny":
        log.warning("access.denied", action=action, target=target_id, reason=reason)
