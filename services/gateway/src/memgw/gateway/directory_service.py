"""Users, agents, workspaces and API keys.

An admin key provisions anything. A user key manages its own user: its agents (and their
``memory_sources`` allowlists), its workspaces, and keys for itself or its agents. An agent-bound key
manages nothing: an agent never mints keys or changes its own scope.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

import asyncpg
from faststream.nats import NatsBroker
from pydantic import AliasChoices, BaseModel, ConfigDict, Field

from memgw.common import policy
from memgw.common.bus import BusLayout
from memgw.common.domain import ID_PATTERN, Principal
from memgw.common.events import AccessChanged, Subject
from memgw.common.logging import get_logger
from memgw.common.namespaces import user_namespace
from memgw.common.principals import owner_of_agent
from memgw.gateway import access, audit
from memgw.gateway.errors import Conflict, NotFound
from memgw.gateway.identity import KeyRing, create_key
from memgw.gateway.pagination import Page, decode_cursor, encode_cursor
from memgw.gateway.schemas import MAX_PAGE, RequestBody

log = get_logger("memgw.gateway.directory")


class UserCreate(RequestBody):
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
    created_at: datetime
    updated_at: datetime


class AgentCreate(RequestBody):
    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={
            "examples": [{"agent_id": "agent_hermes_default", "name": "Hermes Default Agent", "framework": "hermes"}]
        },
    )
    agent_id: str = Field(
        pattern=ID_PATTERN,
        validation_alias=AliasChoices("agent_id", "id"),
        description="Also accepted as `id`, as seed 004 §B writes it.",
    )
    name: str = Field(default="", max_length=200)
    framework: str = Field(default="", max_length=64)
    owner_user_id: str | None = None
    memory_sources: list[str] | None = Field(
        default=None, description="Sources this agent recalls from: absent = all, [] = none, list = only those."
    )


class AgentPatch(RequestBody):
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
    created_at: datetime
    updated_at: datetime


class WorkspaceCreate(RequestBody):
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
    workspace_id: str = Field(
        pattern=ID_PATTERN,
        validation_alias=AliasChoices("workspace_id", "id"),
        description="Also accepted as `id`, as seed 004 §B writes it.",
    )
    name: str = Field(default="", max_length=200)
    owner_user_id: str | None = Field(
        default=None, description="Defaults to the caller; only the admin key creates one for someone else."
    )
    member_user_ids: list[str] = Field(default_factory=list, max_length=1000)
    allowed_agent_ids: list[str] = Field(default_factory=list, max_length=1000)


class Workspace(BaseModel):
    id: str
    name: str
    owner_user_id: str
    member_user_ids: list[str]
    invited_user_ids: list[str] = Field(default_factory=list, description="Invited; members once they join.")
    allowed_agent_ids: list[str]
    created_at: datetime
    updated_at: datetime


class KeyCreate(RequestBody):
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


# -- users ---------------------------------------------------------------------------------------------------


def _user(row: asyncpg.Record) -> User:
    return User(
        **{k: row[k] for k in User.model_fields if k != "profile_namespace"},
        profile_namespace=user_namespace(row["id"], "profile"),
    )


# -- agents --------------------------------------------------------------------------------------------------


def _agent(row: asyncpg.Record) -> Agent:
    return Agent(**{k: row[k] for k in Agent.model_fields})


# -- workspaces ----------------------------------------------------------------------------------------------


_WORKSPACE_SELECT = (
    "SELECT w.id, w.name, w.owner_user_id, w.created_at, w.updated_at,"
    " COALESCE((SELECT array_agg(user_id ORDER BY user_id) FROM workspace_members WHERE workspace_id = w.id),"
    "  '{}') AS member_user_ids,"
    " COALESCE((SELECT array_agg(user_id ORDER BY user_id) FROM workspace_invites WHERE workspace_id = w.id),"
    "  '{}') AS invited_user_ids,"
    " COALESCE((SELECT array_agg(agent_id ORDER BY agent_id) FROM workspace_agents WHERE workspace_id = w.id),"
    "  '{}') AS allowed_agent_ids"
    " FROM workspaces w"
)


def _ref(w: Workspace) -> policy.WorkspaceRef:
    return policy.WorkspaceRef(w.id, w.owner_user_id, frozenset(w.member_user_ids), frozenset(w.invited_user_ids))


# -- keys ----------------------------------------------------------------------------------------------------

_KEY_COLUMNS = "id, user_id, agent_id, is_admin, label, created_at, revoked_at, last_used_at"


class Directory:
    """Users, agents, workspaces and keys."""

    def __init__(self, *, pool: asyncpg.Pool, broker: NatsBroker, layout: BusLayout, keys: KeyRing) -> None:
        self.pool, self.broker, self.layout, self.keys = pool, broker, layout, keys

    async def _require(
        self,
        p: Principal,
        action: policy.Action,
        resource: policy.Resource,
        target: str | None,
        *,
        hidden: bool = False,
    ) -> None:
        await access.require(self.pool, p, action, resource, target_type="directory", target_id=target, hidden=hidden)

    async def create_user(self, p: Principal, body: UserCreate) -> User:
        ref = policy.OwnedRef("user", body.user_id, body.user_id)
        await self._require(p, policy.Action.USER_CREATE, ref, body.user_id)
        try:
            row = await self.pool.fetchrow(
                "INSERT INTO users (id, display_name, preferences, is_trusted) VALUES ($1, $2, $3, $4) RETURNING *",
                body.user_id,
                body.display_name,
                body.preferences,
                body.is_trusted,
            )
        except asyncpg.UniqueViolationError as exc:
            raise Conflict(f"user {body.user_id!r} exists already (user ids are unique whatever their case)") from exc
        await audit.record(self.pool, p, "user_create", target_type="user", target_id=body.user_id)
        assert row is not None
        return _user(row)

    async def get_user(self, p: Principal, user_id: str) -> User:
        await self._require(p, policy.Action.USER_READ, policy.OwnedRef("user", user_id, user_id), user_id)
        row = await self.pool.fetchrow("SELECT * FROM users WHERE id = $1", user_id)
        if row is None:
            raise NotFound(f"no user {user_id!r}")
        return _user(row)

    async def list_users(self, p: Principal, cursor: str | None, limit: int) -> Page[User]:
        if not p.is_admin:
            return Page(items=[await self.get_user(p, p.user_id)])
        after = decode_cursor(cursor)[1] if cursor else ""
        rows = await self.pool.fetch("SELECT * FROM users WHERE id > $1 ORDER BY id LIMIT $2", after, limit + 1)
        users = [_user(r) for r in rows[:limit]]
        more = len(rows) > limit
        last = rows[limit - 1] if more else None
        return Page(items=users, next_cursor=encode_cursor(last["created_at"], last["id"]) if last else None)

    async def create_agent(self, p: Principal, body: AgentCreate) -> Agent:
        owner = body.owner_user_id or p.user_id
        await self._require(p, policy.Action.AGENT_CREATE, policy.AgentRef(body.agent_id, owner), body.agent_id)
        try:
            row = await self.pool.fetchrow(
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
        await audit.record(self.pool, p, "agent_create", target_type="agent", target_id=body.agent_id)
        assert row is not None
        return _agent(row)

    async def _owned_agent(self, p: Principal, agent_id: str, action: policy.Action) -> asyncpg.Record:
        row = await self.pool.fetchrow("SELECT * FROM agents WHERE id = $1", agent_id)
        if row is None:
            raise NotFound(f"no agent {agent_id!r}")
        ref = policy.AgentRef(agent_id, row["owner_user_id"])
        hidden = not access.allowed(p, policy.Action.AGENT_READ, ref)
        await self._require(p, action, ref, agent_id, hidden=hidden)
        return row

    async def get_agent(self, p: Principal, agent_id: str) -> Agent:
        return _agent(await self._owned_agent(p, agent_id, policy.Action.AGENT_READ))

    async def update_agent(self, p: Principal, agent_id: str, patch: AgentPatch) -> Agent:
        row = await self._owned_agent(p, agent_id, policy.Action.AGENT_UPDATE)
        changes = patch.model_dump(exclude_unset=True)
        if changes:
            sets = ", ".join(f"{k} = ${i}" for i, k in enumerate(changes, start=2))
            updated = await self.pool.fetchrow(
                f"UPDATE agents SET {sets}, updated_at = now() WHERE id = $1 RETURNING *", agent_id, *changes.values()
            )
            assert updated is not None
            row = updated
            await audit.record(
                self.pool, p, "agent_update", target_type="agent", target_id=agent_id, reason=",".join(changes)
            )
            await self.announce_access_changed(row["owner_user_id"], f"agent {agent_id} changed")
        assert row is not None
        return _agent(row)

    async def list_agents(self, p: Principal) -> list[Agent]:
        rows = await self.pool.fetch(
            "SELECT * FROM agents WHERE $1 OR owner_user_id = $2 ORDER BY id LIMIT 1000", p.is_admin, p.user_id
        )
        return [_agent(r) for r in rows]

    async def _workspace(self, workspace_id: str) -> Workspace | None:
        row = await self.pool.fetchrow(f"{_WORKSPACE_SELECT} WHERE w.id = $1", workspace_id)
        return Workspace(**dict(row)) if row else None

    async def create_workspace(self, p: Principal, body: WorkspaceCreate) -> Workspace:
        """The caller owns it. Other users named as members are invited (they join by accepting); agents
        are admitted only by their owners. The admin key provisions memberships and agents directly."""
        owner = body.owner_user_id or p.user_id
        ref = policy.WorkspaceRef(body.workspace_id, owner, frozenset({owner}))
        await self._require(p, policy.Action.WORKSPACE_CREATE, ref, body.workspace_id)
        others = sorted(set(body.member_user_ids) - {owner})
        members, invited = ([owner, *others], []) if p.is_admin else ([owner], others)
        for agent_id in sorted(set(body.allowed_agent_ids)):
            grant = policy.AgentGrantRef(ref, agent_id, await owner_of_agent(self.pool, agent_id))
            await self._require(p, policy.Action.WORKSPACE_ALLOW_AGENT, grant, body.workspace_id)
        try:
            async with self.pool.acquire() as conn, conn.transaction():
                await conn.execute(
                    "INSERT INTO workspaces (id, name, owner_user_id) VALUES ($1, $2, $3)",
                    body.workspace_id,
                    body.name,
                    owner,
                )
                await conn.executemany(
                    "INSERT INTO workspace_members (workspace_id, user_id) VALUES ($1, $2)",
                    [(body.workspace_id, u) for u in members],
                )
                await conn.executemany(
                    "INSERT INTO workspace_invites (workspace_id, user_id, invited_by) VALUES ($1, $2, $3)",
                    [(body.workspace_id, u, owner) for u in invited],
                )
                await conn.executemany(
                    "INSERT INTO workspace_agents (workspace_id, agent_id) VALUES ($1, $2)",
                    [(body.workspace_id, a) for a in sorted(set(body.allowed_agent_ids))],
                )
                await audit.record(
                    conn,
                    p,
                    "workspace_create",
                    target_type="workspace",
                    target_id=body.workspace_id,
                    reason=f"invited: {', '.join(invited)}" if invited else "",
                )
        except asyncpg.UniqueViolationError as exc:
            raise Conflict(f"workspace {body.workspace_id!r} exists already") from exc
        except asyncpg.ForeignKeyViolationError as exc:
            raise NotFound(f"unknown member or agent: {exc.detail}") from exc
        await self.announce_access_changed(None, f"workspace {body.workspace_id} created", body.workspace_id)
        workspace = await self._workspace(body.workspace_id)
        assert workspace is not None
        return workspace

    async def get_workspace(self, p: Principal, workspace_id: str) -> Workspace:
        """Members and invited users see a workspace; to anyone else it does not exist."""
        workspace = await self._workspace(workspace_id)
        if workspace is None:
            raise NotFound(f"no workspace {workspace_id!r}")
        await self._require(p, policy.Action.WORKSPACE_READ, _ref(workspace), workspace_id, hidden=True)
        return workspace

    async def list_workspaces(self, p: Principal) -> list[Workspace]:
        """The workspaces the caller belongs to or is invited to (an admin: all)."""
        rows = await self.pool.fetch(
            f"{_WORKSPACE_SELECT} WHERE $1 OR EXISTS (SELECT 1 FROM workspace_members m WHERE m.workspace_id = w.id"
            " AND m.user_id = $2) OR EXISTS (SELECT 1 FROM workspace_invites i WHERE i.workspace_id = w.id"
            " AND i.user_id = $2) ORDER BY w.id LIMIT 1000",
            p.is_admin,
            p.user_id,
        )
        found = [Workspace(**dict(r)) for r in rows]
        return [w for w in found if access.allowed(p, policy.Action.WORKSPACE_READ, _ref(w))]

    async def invite_member(self, p: Principal, workspace_id: str, user_id: str) -> Workspace:
        """The owner invites (the user joins by accepting); the admin key adds the member directly."""
        workspace = await self.get_workspace(p, workspace_id)
        ref = policy.MembershipRef(_ref(workspace), user_id)
        await self._require(p, policy.Action.WORKSPACE_INVITE, ref, workspace_id)
        if user_id not in workspace.member_user_ids:
            try:
                if p.is_admin:
                    await self.pool.execute(
                        "INSERT INTO workspace_members (workspace_id, user_id) VALUES ($1, $2) ON CONFLICT DO NOTHING",
                        workspace_id,
                        user_id,
                    )
                else:
                    await self.pool.execute(
                        "INSERT INTO workspace_invites (workspace_id, user_id, invited_by) VALUES ($1, $2, $3)"
                        " ON CONFLICT DO NOTHING",
                        workspace_id,
                        user_id,
                        p.user_id,
                    )
            except asyncpg.ForeignKeyViolationError as exc:
                raise NotFound(f"no user {user_id!r}") from exc
        verb = "add" if p.is_admin else "invite"
        return await self._changed(p, workspace_id, f"{verb} member {user_id}")

    async def join(self, p: Principal, workspace_id: str) -> Workspace:
        """Accept an invitation: the caller becomes a member."""
        workspace = await self.get_workspace(p, workspace_id)
        ref = policy.MembershipRef(_ref(workspace), p.user_id)
        await self._require(p, policy.Action.WORKSPACE_JOIN, ref, workspace_id)
        async with self.pool.acquire() as conn, conn.transaction():
            await conn.execute(
                "INSERT INTO workspace_members (workspace_id, user_id) VALUES ($1, $2) ON CONFLICT DO NOTHING",
                workspace_id,
                p.user_id,
            )
            await conn.execute(
                "DELETE FROM workspace_invites WHERE workspace_id = $1 AND user_id = $2", workspace_id, p.user_id
            )
        return await self._changed(p, workspace_id, f"join {p.user_id}")

    async def remove_member(self, p: Principal, workspace_id: str, user_id: str) -> Workspace:
        """A member leaves (always allowed), or the owner removes one; the member's agents go with it,
        and an invitation is withdrawn the same way."""
        workspace = await self.get_workspace(p, workspace_id)
        ref = policy.MembershipRef(_ref(workspace), user_id)
        await self._require(p, policy.Action.WORKSPACE_REMOVE_MEMBER, ref, workspace_id)
        async with self.pool.acquire() as conn, conn.transaction():
            await conn.execute(
                "DELETE FROM workspace_members WHERE workspace_id = $1 AND user_id = $2", workspace_id, user_id
            )
            await conn.execute(
                "DELETE FROM workspace_invites WHERE workspace_id = $1 AND user_id = $2", workspace_id, user_id
            )
            await conn.execute(
                "DELETE FROM workspace_agents w USING agents a WHERE w.workspace_id = $1 AND a.id = w.agent_id"
                " AND a.owner_user_id = $2",
                workspace_id,
                user_id,
            )
        return await self._changed(p, workspace_id, f"remove member {user_id}")

    async def change_agent(self, p: Principal, workspace_id: str, agent_id: str, *, add: bool) -> Workspace:
        """A member brings its own agent in; an agent's owner (or the workspace owner) takes it out."""
        workspace = await self.get_workspace(p, workspace_id)
        grant = policy.AgentGrantRef(_ref(workspace), agent_id, await owner_of_agent(self.pool, agent_id))
        action = policy.Action.WORKSPACE_ALLOW_AGENT if add else policy.Action.WORKSPACE_WITHDRAW_AGENT
        await self._require(p, action, grant, workspace_id)
        if add:
            await self.pool.execute(
                "INSERT INTO workspace_agents (workspace_id, agent_id) VALUES ($1, $2) ON CONFLICT DO NOTHING",
                workspace_id,
                agent_id,
            )
        else:
            await self.pool.execute(
                "DELETE FROM workspace_agents WHERE workspace_id = $1 AND agent_id = $2", workspace_id, agent_id
            )
        return await self._changed(p, workspace_id, f"{'allow' if add else 'withdraw'} agent {agent_id}")

    async def announce_access_changed(self, user_id: str | None, reason: str, workspace_id: str | None = None) -> None:
        """Tell every gateway (core NATS, after the change is written) that rights changed: their live
        streams check again at once, and the principals they remember are resolved again. This one
        forgets its own before answering; for the others it is best effort: the periodic re-check, and
        how long a principal is remembered (``identity.KNOWN_KEY_S``), cover a lost hint."""
        self.keys.forget()
        try:
            change = AccessChanged(user_id=user_id, workspace_id=workspace_id, reason=reason)
            await self.broker.publish(change.model_dump(mode="json"), self.layout.subject(Subject.ACCESS_CHANGED))
        except Exception as exc:
            log.warning("access_changed.not_announced", error=str(exc))

    async def _changed(self, p: Principal, workspace_id: str, what: str) -> Workspace:
        await audit.record(
            self.pool, p, "workspace_update", target_type="workspace", target_id=workspace_id, reason=what
        )
        await self.announce_access_changed(None, f"workspace {workspace_id}: {what}", workspace_id)
        updated = await self._workspace(workspace_id)
        assert updated is not None
        return updated

    async def issue_key(self, p: Principal, body: KeyCreate) -> KeyCreated:
        user_id = body.user_id or p.user_id
        agent_owner = await owner_of_agent(self.pool, body.agent_id) if body.agent_id else None
        ref = policy.KeyRef(user_id, body.agent_id, agent_owner)
        await self._require(p, policy.Action.KEY_CREATE, ref, body.agent_id or user_id)
        if body.agent_id and agent_owner != user_id:  # the admin key asked for an agent that is not the user's
            raise NotFound(f"no agent {body.agent_id!r} of user {user_id!r}")
        async with self.pool.acquire() as conn, conn.transaction():
            if not await conn.fetchval("SELECT 1 FROM users WHERE id = $1", user_id):
                raise NotFound(f"no user {user_id!r}")
            key_id, secret = await create_key(conn, user_id=user_id, agent_id=body.agent_id, label=body.label)
            row = await conn.fetchrow(f"SELECT {_KEY_COLUMNS} FROM api_keys WHERE id = $1", key_id)
            await audit.record(conn, p, "key_create", target_type="key", target_id=key_id)
        assert row is not None
        return KeyCreated(**dict(row), api_key=secret)

    async def list_keys(self, p: Principal) -> list[KeyInfo]:
        await self._require(p, policy.Action.KEY_LIST, policy.KeyRef(p.user_id), None)
        rows = await self.pool.fetch(
            f"SELECT {_KEY_COLUMNS} FROM api_keys WHERE $1 OR user_id = $2"
            f" ORDER BY created_at DESC LIMIT {MAX_PAGE * 10}",
            p.is_admin,
            p.user_id,
        )
        return [KeyInfo(**dict(r)) for r in rows]

    async def revoke_key(self, p: Principal, key_id: str) -> None:
        owner = await self.pool.fetchval("SELECT user_id FROM api_keys WHERE id = $1", key_id)
        if owner is None:
            raise NotFound(f"no key {key_id!r}")
        ref = policy.KeyRef(owner)
        # Another user's key answers as a missing one: the answer must not tell that a key id exists.
        hidden = owner != p.user_id and not p.is_admin
        await self._require(p, policy.Action.KEY_REVOKE, ref, key_id, hidden=hidden)
        await self.pool.execute("UPDATE api_keys SET revoked_at = now() WHERE id = $1 AND revoked_at IS NULL", key_id)
        await audit.record(self.pool, p, "key_revoke", target_type="key", target_id=key_id)
        await self.announce_access_changed(owner, f"key {key_id} revoked")
