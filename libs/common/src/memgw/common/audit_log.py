"""The audit log (table ``audit_log``): every read, write and refusal of every service leaves a row
here, written the same way (with the correlation id that ties it to the logs). Its SQL is here."""

from __future__ import annotations

from typing import Literal

from memgw.common.db.pool import Executor
from memgw.common.logging import current_correlation_id


async def write(
    db: Executor,
    *,
    actor_user_id: str | None,
    actor_agent_id: str | None,
    action: str,
    decision: Literal["allow", "deny"] = "allow",
    reason: str = "",
    target_type: str = "",
    target_id: str | None = None,
    namespace: str | None = None,
) -> None:
    await db.execute(
        "INSERT INTO audit_log (actor_user_id, actor_agent_id, action, target_type, target_id, namespace,"
        " decision, reason, correlation_id) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
        actor_user_id,
        actor_agent_id,
        action,
        target_type,
        target_id,
        namespace,
        decision,
        reason,
        current_correlation_id(),
    )
