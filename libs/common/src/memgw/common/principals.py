"""A principal read from the database: who a user (through an agent) is and which workspaces it may
read *now*. The gateway resolves it from an API key; a consumer acting later on someone's behalf
(the consolidator writing a commit) reads it again, so rights lost meanwhile are lost there too."""

from __future__ import annotations

from memgw.common.db.pool import Executor
from memgw.common.domain import Principal


def readable_workspaces_sql(user: str, agent: str) -> str:
    """Workspaces ``user`` is a member of, where ``agent`` (NULL = no agent) is allowed: SQL over
    the two given expressions."""
    return (
        f"ARRAY(SELECT m.workspace_id FROM workspace_members m WHERE m.user_id = {user} AND ({agent} IS NULL"
        f" OR EXISTS (SELECT 1 FROM workspace_agents w WHERE w.workspace_id = m.workspace_id"
        f" AND w.agent_id = {agent})) ORDER BY m.workspace_id)"
    )


async def principal_of(db: Executor, user_id: str, agent_id: str | None) -> Principal | None:
    """``user_id`` acting through ``agent_id`` as it stands now; None when the user is gone or disabled."""
    row = await db.fetchrow(
        "SELECT u.is_trusted, (SELECT a.memory_sources FROM agents a WHERE a.id = $2) AS memory_sources,"
        f" {readable_workspaces_sql('u.id', '$2::text')} AS workspace_ids"
        " FROM users u WHERE u.id = $1 AND u.status = 'active'",
        user_id,
        agent_id,
    )
    if row is None:
        return None
    sources = row["memory_sources"]
    return Principal(
        user_id=user_id,
        agent_id=agent_id,
        is_trusted=row["is_trusted"],
        workspace_ids=frozenset(row["workspace_ids"]),
        memory_sources=tuple(sources) if sources is not None else None,
    )
