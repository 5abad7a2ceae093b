"""Users, agents, workspaces and API keys.

An admin key provisions anything. A user key manages its own user: its agents (and their
``memory_sources`` allowlists), its workspaces, and keys for itself or its agents. An agent-bound key
manages nothing: an agent never mints keys or changes its own scope.
"""

from __future__ import annotations

from typing import Any

import asyncpg
from pydantic import BaseModel, ConfigDict, Field

from memgw.common.domain import Principal
from memgw.common.runtime import Infra
from memgw.gateway import audit
from memgw.gateway.errors import ApiError, Conflict, NotFound
from memgw.gateway.identity import create_key
from memgw.gateway.pagination import Page, decode_cursor, encode_cursor
from memgw.gateway.schemas import ID_PATTERN, MAX_PAGE


class UserCreate(BaseModel):
    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={
            "examples": [{"user_id": "user_tom", "display_name": "Tom", "preferences": {"language": "zh-CN"}}]
        },
    )
    user_id: str = Field(pattern=ID_PATTERN)
    display_name: str = Field(default="", max_length=200)
    preferences: dict[str, Any] = Field(default_factory=dict)
    is_trusted: bool = Field(default=False, description="May write global/public memory.")


class User(BaseModel):
    id: str
    display_name: str
    status: str
    preferences: dict[str, Any]
    is_trusted: bool
    profile_namespace: str


class AgentCreate(BaseModel):
    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={
            "examples": [{"agent_id": "agent_hermes_default", "name": "Hermes Default Agent", "framework": "hermes"}]
        },
    )
    agent_id: str = Field(pattern=ID_PATTERN)
    name: str = Field(default="", max_length=200)
    framework: str = Field(default="", max_length=64)
    owner_user_id: str | None = None
    memory_sources: list[str] | None = Field(
        default=None, description="Sources this agent recalls from: absent = all, [] = none, list = only those."
    )


class AgentPatch(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str | None = Field(default=None, max_length=200)
    framework: str | None = Field(default=None, max_length=64)
    memory_sources: list[str] | None = Field(default=None, description="null = all sources again.")


class Agent(BaseModel):
    id: str
    name: str
    framework: str
    owner_user_id: str
    memory_sources: list[str] | None


class WorkspaceCreate(BaseModel):
    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={
            "examples": [
                {
                    "workspace_id": "ws_memory_gateway",
                    "name": "Memory Gateway POC",
                    "member_user_ids": ["user_tom"],
                    "allowed_agent_ids": ["agent_hermes_default"],
                }
            ]
        },
    )
    workspace_id: str = Field(pattern=ID_PATTERN)
    name: str = Field(default="", max_length=200)
    member_user_ids: list[str] = Field(default_factory=list, max_length=1000)
    allowed_agent_ids: list[str] = Field(default_factory=list, max_length=1000)


class Workspace(BaseModel):
    id: str
    name: str
    owner_user_id: str
    member_user_ids: list[str]
    allowed_agent_ids: list[str]


class KeyCreate(BaseModel):
    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={
            "examples": [{"user_id": "user_tom", "agent_id": "agent_hermes_default", "label": "hermes"}]
        },
    )
    user_id: str | None = Field(default=None, description="Defaults to the caller's user.")
    agent_id: str | None = Field(default=None, description="Bind the key to one agent of the user.")
    label: str = Field(default="", max_length=200)


class KeyInfo(BaseModel):
    id: str
    user_id: str
    agent_id: str | None
    is_admin: bool
    label: str
    created_at: Any
    revoked_at: Any = None
    last_used_at: Any = None


class KeyCreated(KeyInfo):
    api_key: str = Field(description="The secret; shown only now.")


async def _refuse(infra: Infra, p: Principal, action: str, reason: str, target: str | None = None) -> ApiError:
    return await audit.refused(infra.pool, p, action, reason, target_type="directory", target_id=target)


async def _require_manager(infra: Infra, p: Principal, action: str, user_id: str) -> None:
    """Only an admin, or the user itself through a key not bound to an agent."""
    if p.is_admin:
        return
    if p.user_id != user_id:
        raise await _refuse(infra, p, action, f"key of user {p.user_id} may not manage user {user_id}", user_id)
    if p.agent_id:
        raise await _refuse(infra, p, action, "an agent-bound key may not manage users, agents, workspaces or keys")


# -- users ---------------------------------------------------------------------------------------------------


def _user(row: asyncpg.Record) -> User:
    return User(
        **{k: row[k] for k in ("id", "display_name", "status", "preferences", "is_trusted")},
        profile_namespace=f"user/{row['id']}/profile",
    )


async def create_user(infra: Infra, p: Principal, body: UserCreate) -> User:
    if not p.is_admin:
        raise await _refuse(infra, p, "user_create", "only an admin key may create users", body.user_id)
    try:
        row = await infra.pool.fetchrow(
            "INSERT INTO users (id, display_name, preferences, is_trusted) VALUES ($1, $2, $3, $4) RETURNING *",
            body.user_id,
            body.display_name,
            body.preferences,
            body.is_trusted,
        )
    except asyncpg.UniqueViolationError as exc:
        raise Conflict(f"user {body.user_id!r} exists already") from exc
    await audit.record(infra.pool, p, "user_create", target_type="user", target_id=body.user_id)
    assert row is not None
    return _user(row)


async def get_user(infra: Infra, p: Principal, user_id: str) -> User:
    if not p.is_admin and user_id != p.user_id:
        raise await _refuse(infra, p, "user_get", f"key of user {p.user_id} may not read user {user_id}", user_id)
    row = await infra.pool.fetchrow("SELECT * FROM users WHERE id = $1", user_id)
    if row is None:
        raise NotFound(f"no user {user_id!r}")
    return _user(row)


async def list_users(infra: Infra, p: Principal, cursor: str | None, limit: int) -> Page[User]:
    if not p.is_admin:
        return Page(items=[await get_user(infra, p, p.user_id)])
    after = decode_cursor(cursor)[1] if cursor else ""
    rows = await infra.pool.fetch("SELECT * FROM users WHERE id > $1 ORDER BY id LIMIT $2", after, limit + 1)
    users = [_user(r) for r in rows[:limit]]
    more = len(rows) > limit
    last = rows[limit - 1] if more else None
    return Page(items=users, next_cursor=encode_cursor(last["created_at"], last["id"]) if last else None)


# -- agents --------------------------------------------------------------------------------------------------


def _agent(row: asyncpg.Record) -> Agent:
    return Agent(**{k: row[k] for k in ("id", "name", "framework", "owner_user_id", "memory_sources")})


async def create_agent(infra: Infra, p: Principal, body: AgentCreate) -> Agent:
    owner = body.owner_user_id or p.user_id
    await _require_manager(infra, p, "agent_create", owner)
    try:
        row = await infra.pool.fetchrow(
            "INSERT INTO agents (id, name, framework, owner_user_id, memory_sources) VALUES ($1, $2, $3, $4, $5)"
            " RETURNING *",
            body.agent_id,
            body.name,
            body.framework,
            owner,
            body.memory_sources,
        )
    except asyncpg.UniqueViolationError as exc:
        raise Conflict(f"agent {body.agent_id!r} exists already") from exc
    except asyncpg.ForeignKeyViolationError as exc:
        raise NotFound(f"no user {owner!r}") from exc
    await audit.record(infra.pool, p, "agent_create", target_type="agent", target_id=body.agent_id)
    assert row is not None
    return _agent(row)


async def _owned_agent(infra: Infra, p: Principal, agent_id: str, action: str) -> asyncpg.Record:
    row = await infra.pool.fetchrow("SELECT * FROM agents WHERE id = $1", agent_id)
    if row is None or not (p.is_admin or row["owner_user_id"] == p.user_id):
        if row is not None:
            await _refuse(infra, p, action, "agent of another user", agent_id)
        raise NotFound(f"no agent {agent_id!r}")
    return row


async def get_agent(infra: Infra, p: Principal, agent_id: str) -> Agent:
    return _agent(await _owned_agent(infra, p, agent_id, "agent_get"))


async def update_agent(infra: Infra, p: Principal, agent_id: str, patch: AgentPatch) -> Agent:
    row = await _owned_agent(infra, p, agent_id, "agent_update")
    await _require_manager(infra, p, "agent_update", row["owner_user_id"])
    changes = patch.model_dump(exclude_unset=True)
    if changes:
        sets = ", ".join(f"{k} = ${i}" for i, k in enumerate(changes, start=2))
        updated = await infra.pool.fetchrow(
            f"UPDATE agents SET {sets}, updated_at = now() WHERE id = $1 RETURNING *", agent_id, *changes.values()
        )
        assert updated is not None
        row = updated
        await audit.record(
            infra.pool, p, "agent_update", target_type="agent", target_id=agent_id, reason=",".join(changes)
        )
    assert row is not None
    return _agent(row)


async def list_agents(infra: Infra, p: Principal) -> list[Agent]:
    rows = await infra.pool.fetch(
        "SELECT * FROM agents WHERE $1 OR owner_user_id = $2 ORDER BY id LIMIT 1000", p.is_admin, p.user_id
    )
    return [_agent(r) for r in rows]


# -- workspaces ----------------------------------------------------------------------------------------------


async def _workspace(infra: Infra, workspace_id: str) -> Workspace | None:
    row = await infra.pool.fetchrow(
        "SELECT w.id, w.name, w.owner_user_id,"
        " COALESCE((SELECT array_agg(user_id ORDER BY user_id) FROM workspace_members WHERE workspace_id = w.id),"
        "  '{}') AS member_user_ids,"
        " COALESCE((SELECT array_agg(agent_id ORDER BY agent_id) FROM workspace_agents WHERE workspace_id = w.id),"
        "  '{}') AS allowed_agent_ids"
        " FROM workspaces w WHERE w.id = $1",
        workspace_id,
    )
    return Workspace(**dict(row)) if row else None


async def create_workspace(infra: Infra, p: Principal, body: WorkspaceCreate) -> Workspace:
    await _require_manager(infra, p, "workspace_create", p.user_id)
    members = sorted({p.user_id, *body.member_user_ids})
    try:
        async with infra.pool.acquire() as conn, conn.transaction():
            await conn.execute(
                "INSERT INTO workspaces (id, name, owner_user_id) VALUES ($1, $2, $3)",
                body.workspace_id,
                body.name,
                p.user_id,
            )
            await conn.executemany(
                "INSERT INTO workspace_members (workspace_id, user_id) VALUES ($1, $2)",
                [(body.workspace_id, u) for u in members],
            )
            await conn.executemany(
                "INSERT INTO workspace_agents (workspace_id, agent_id) VALUES ($1, $2)",
                [(body.workspace_id, a) for a in sorted(set(body.allowed_agent_ids))],
            )
            await audit.record(conn, p, "workspace_create", target_type="workspace", target_id=body.workspace_id)
    except asyncpg.UniqueViolationError as exc:
        raise Conflict(f"workspace {body.workspace_id!r} exists already") from exc
    except asyncpg.ForeignKeyViolationError as exc:
        raise NotFound(f"unknown member or agent: {exc.detail}") from exc
    workspace = await _workspace(infra, body.workspace_id)
    assert workspace is not None
    return workspace


async def get_workspace(infra: Infra, p: Principal, workspace_id: str) -> Workspace:
    workspace = await _workspace(infra, workspace_id)
    if workspace is None or not (p.is_admin or p.user_id in workspace.member_user_ids):
        if workspace is not None:
            await _refuse(infra, p, "workspace_get", "not a member", workspace_id)
        raise NotFound(f"no workspace {workspace_id!r}")
    return workspace


async def change_workspace(
    infra: Infra, p: Principal, workspace_id: str, *, kind: str, member: str, add: bool
) -> Workspace:
    """Add or remove a member (kind 'members') or an allowed agent (kind 'agents'): owner or admin."""
    workspace = await get_workspace(infra, p, workspace_id)
    if not (p.is_admin or (workspace.owner_user_id == p.user_id and not p.agent_id)):
        raise await _refuse(infra, p, "workspace_update", "only the workspace owner may change it", workspace_id)
    table, column = ("workspace_members", "user_id") if kind == "members" else ("workspace_agents", "agent_id")
    try:
        if add:
            await infra.pool.execute(
                f"INSERT INTO {table} (workspace_id, {column}) VALUES ($1, $2) ON CONFLICT DO NOTHING",
                workspace_id,
                member,
            )
        else:
            await infra.pool.execute(
                f"DELETE FROM {table} WHERE workspace_id = $1 AND {column} = $2", workspace_id, member
            )
    except asyncpg.ForeignKeyViolationError as exc:
        raise NotFound(f"no {'user' if kind == 'members' else 'agent'} {member!r}") from exc
    await audit.record(
        infra.pool,
        p,
        "workspace_update",
        target_type="workspace",
        target_id=workspace_id,
        reason=f"{'add' if add else 'remove'} {kind[:-1]} {member}",
    )
    updated = await _workspace(infra, workspace_id)
    assert updated is not None
    return updated


# -- keys ----------------------------------------------------------------------------------------------------

_KEY_COLUMNS = "id, user_id, agent_id, is_admin, label, created_at, revoked_at, last_used_at"


async def issue_key(infra: Infra, p: Principal, body: KeyCreate) -> KeyCreated:
    user_id = body.user_id or p.user_id
    await _require_manager(infra, p, "key_create", user_id)
    async with infra.pool.acquire() as conn, conn.transaction():
        if not await conn.fetchval("SELECT 1 FROM users WHERE id = $1", user_id):
            raise NotFound(f"no user {user_id!r}")
        if body.agent_id:
            owner = await conn.fetchval("SELECT owner_user_id FROM agents WHERE id = $1", body.agent_id)
            if owner != user_id:
                raise NotFound(f"no agent {body.agent_id!r} of user {user_id!r}")
        key_id, secret = await create_key(conn, user_id=user_id, agent_id=body.agent_id, label=body.label)
        row = await conn.fetchrow(f"SELECT {_KEY_COLUMNS} FROM api_keys WHERE id = $1", key_id)
        await audit.record(conn, p, "key_create", target_type="key", target_id=key_id)
    assert row is not None
    return KeyCreated(**dict(row), api_key=secret)


async def list_keys(infra: Infra, p: Principal) -> list[KeyInfo]:
    if p.agent_id and not p.is_admin:
        raise await _refuse(infra, p, "key_list", "an agent-bound key may not list keys")
    rows = await infra.pool.fetch(
        f"SELECT {_KEY_COLUMNS} FROM api_keys WHERE $1 OR user_id = $2 ORDER BY created_at DESC LIMIT {MAX_PAGE * 10}",
        p.is_admin,
        p.user_id,
    )
    return [KeyInfo(**dict(r)) for r in rows]


async def revoke_key(infra: Infra, p: Principal, key_id: str) -> None:
    owner = await infra.pool.fetchval("SELECT user_id FROM api_keys WHERE id = $1", key_id)
    if owner is None:
        raise NotFound(f"no key {key_id!r}")
    await _require_manager(infra, p, "key_revoke", owner)
    await infra.pool.execute("UPDATE api_keys SET revoked_at = now() WHERE id = $1 AND revoked_at IS NULL", key_id)
    await audit.record(infra.pool, p, "key_revoke", target_type="key", target_id=key_id)
