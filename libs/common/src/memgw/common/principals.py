"""The directory (users, agents, workspaces and their members) as every module reads it but the
gateway's directory and identity, which write it: who a user (through an agent) is and which
workspaces it may read *now*. The gateway resolves a principal from an API key; a consumer acting
later on someone's behalf (the consolidator writing a commit) reads it again, so rights lost
meanwhile are lost there too."""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

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


async def members_of(db: Executor, workspace_id: str) -> set[str]:
    """The users who are members of ``workspace_id`` now."""
    rows = await db.fetch("SELECT user_id FROM workspace_members WHERE workspace_id = $1", workspace_id)
    return {r["user_id"] for r in rows}


async def user_ids(db: Executor, *, active_only: bool = True) -> list[str]:
    """Every user's id (only those not disabled, by default), in order."""
    rows = await db.fetch("SELECT id FROM users WHERE NOT $1::bool OR status = 'active' ORDER BY id", active_only)
    return [r["id"] for r in rows]


async def user_card(db: Executor, user_id: str) -> dict[str, Any] | None:
    """What a user told at sign-up: their display name and preferences."""
    row = await db.fetchrow("SELECT display_name, preferences FROM users WHERE id = $1", user_id)
    return dict(row) if row is not None else None


async def owner_of_agent(db: Executor, agent_id: str) -> str | None:
    owner = await db.fetchval("SELECT owner_user_id FROM agents WHERE id = $1", agent_id)
    return str(owner) if owner is not None else None


async def is_member(db: Executor, workspace_id: str, user_id: str) -> bool:
    return bool(
        await db.fetchval(
            "SELECT 1 FROM workspace_members WHERE workspace_id = $1 AND user_id = $2", workspace_id, user_id
        )
    )


async def workspace_owners(db: Executor, workspace_ids: Collection[str]) -> dict[str, str]:
    """Who owns each of these workspaces (a workspace that is gone is left out)."""
    if not workspace_ids:
        return {}
    rows = await db.fetch("SELECT id, owner_user_id FROM workspaces WHERE id = ANY($1::text[])", list(workspace_ids))
    return {r["id"]: r["owner_user_id"] for r in rows}
