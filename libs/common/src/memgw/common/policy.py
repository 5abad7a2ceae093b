"""Who may do what to which resource: the one place access is decided (DESIGN §2, Authorization).

Every rule is a pure function of (principal, action, resource) answering a ``Decision`` with the
reason the audit row keeps, allow or deny alike. Handlers describe the resource as one of the small
records below, ask ``decide`` and act on the answer; they never decide themselves. Reading memories
is the one rule kept where it is rendered twice, as SQL and as an index filter (``memgw.common.acl``);
writing memories is decided here.

The model, in short:
- a memory, a source, a workspace, a session, a review, a job and a key each have one owner (a user);
- sharing is by workspace membership the member accepted (an invitation is not membership), and an
  agent reaches a workspace only when the workspace allows it;
- an agent-bound key acts within its agent: the agent's ``memory_sources`` scope holds for every
  source call, and it manages nothing (users, agents, workspaces, keys);
- the admin key may do everything (and every use of it is audited like any other).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from memgw.common.domain import Principal, Visibility
from memgw.common.namespaces import parse_namespace


@dataclass(frozen=True)
class Decision:
    allowed: bool
    reason: str


def allow(reason: str) -> Decision:
    return Decision(True, reason)


def deny(reason: str) -> Decision:
    return Decision(False, reason)


class Action(StrEnum):
    """What is asked; the value is the audit row's ``action``."""

    ACT_FOR = "act_for"  # a request body names a user, an agent or a workspace to act for
    MEMORY_WRITE = "memory_write"  # create, change, delete, clear flags, change the shared record by feedback
    SOURCE_CREATE = "source_create"
    SOURCE_READ = "source_read"
    SOURCE_ITEMS = "source_items"
    SOURCE_PATCH = "source_patch"
    SOURCE_PLACE = "source_place"  # put a source into a workspace (on create or move)
    SOURCE_DELETE = "source_delete"
    SOURCE_SYNC = "source_sync"
    SOURCE_RUNS = "source_runs"
    CONNECTION_USE = "connection_use"  # register a Composio connection as a source
    CREDENTIAL_USE = "credential_use"  # an operator-wide upstream credential serves a user's sync
    WORKSPACE_CREATE = "workspace_create"
    WORKSPACE_READ = "workspace_read"
    WORKSPACE_INVITE = "workspace_invite"
    WORKSPACE_JOIN = "workspace_join"
    WORKSPACE_REMOVE_MEMBER = "workspace_remove_member"
    WORKSPACE_ALLOW_AGENT = "workspace_allow_agent"
    WORKSPACE_WITHDRAW_AGENT = "workspace_withdraw_agent"
    SESSION_READ = "session_read"
    SESSION_WRITE = "session_write"
    SESSION_COMMIT = "session_commit"
    COMMIT_TARGET = "commit_target"  # where a commit's memories may be written
    REVIEW_READ = "review_read"
    REVIEW_DECIDE = "review_decide"
    JOB_READ = "job_read"
    KEY_CREATE = "key_create"
    KEY_LIST = "key_list"
    KEY_REVOKE = "key_revoke"
    USER_CREATE = "user_create"
    USER_READ = "user_read"
    AGENT_CREATE = "agent_create"
    AGENT_READ = "agent_read"
    AGENT_UPDATE = "agent_update"
    PROFILE_READ = "profile_read"
    AUDIT_READ = "audit_read"
    COUNTS_READ = "counts_read"  # how many memories each namespace holds, never what they say
    SKILL_READ = "skill_read"


# -- resources ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class ActingRef:
    """Whom a request body says it acts for; ``agent_owner_id`` is who owns ``agent_id``."""

    user_id: str | None = None
    agent_id: str | None = None
    agent_owner_id: str | None = None
    workspace_id: str | None = None


@dataclass(frozen=True)
class MemoryRef:
    user_id: str
    agent_id: str | None
    visibility: str
    workspace_id: str | None


@dataclass(frozen=True)
class SourceRef:
    id: str
    owner_user_id: str
    workspace_id: str | None = None
    workspace_owner_id: str | None = None  # may remove a source from the workspace


@dataclass(frozen=True)
class PlacementRef:
    """A source about to live in ``workspace_id``; ``owner_is_member``: its owner is a member now."""

    workspace_id: str
    owner_user_id: str
    owner_is_member: bool


@dataclass(frozen=True)
class ConnectionRef:
    """An upstream account (a Composio connection) and the user the upstream says it belongs to."""

    id: str
    for_user_id: str
    upstream_user_id: str | None


@dataclass(frozen=True)
class CredentialRef:
    """An operator-wide credential (``name``) asked to serve ``user_id``; ``users`` is whom the
    operator named (``*`` = every user)."""

    name: str
    user_id: str
    users: tuple[str, ...]


@dataclass(frozen=True)
class WorkspaceRef:
    id: str
    owner_user_id: str
    members: frozenset[str] = frozenset()
    invited: frozenset[str] = frozenset()


@dataclass(frozen=True)
class MembershipRef:
    """``user_id``'s place in ``workspace`` (invite, join, remove or leave)."""

    workspace: WorkspaceRef
    user_id: str


@dataclass(frozen=True)
class AgentGrantRef:
    """An agent's admission to ``workspace``; ``agent_owner_id`` is None for an unknown agent."""

    workspace: WorkspaceRef
    agent_id: str
    agent_owner_id: str | None


@dataclass(frozen=True)
class SessionRef:
    id: str
    user_id: str
    agent_id: str | None


@dataclass(frozen=True)
class NamespaceRef:
    """A namespace memories are about to be written into on behalf of ``session``'s owner."""

    namespace: str
    session: SessionRef


@dataclass(frozen=True)
class OwnedRef:
    """Anything with one owning user and nothing else to it: a review, a job, a profile, a user."""

    kind: str
    id: str
    user_id: str


@dataclass(frozen=True)
class KeyRef:
    user_id: str
    agent_id: str | None = None
    agent_owner_id: str | None = None  # who owns agent_id (None = no such agent)


@dataclass(frozen=True)
class AgentRef:
    id: str
    owner_user_id: str


@dataclass(frozen=True)
class AuditRef:
    """Audit rows of ``actor_user_id`` (None = of everyone)."""

    actor_user_id: str | None


@dataclass(frozen=True)
class CountsRef:
    """The number of memories per namespace and type, of every user: what an operator watches."""


@dataclass(frozen=True)
class SkillRef:
    """A skill of this install: what it does and its models, never anyone's data."""

    name: str | None = None  # None = the list


Resource = (
    SkillRef
    | CountsRef
    | ActingRef
    | MemoryRef
    | SourceRef
    | PlacementRef
    | ConnectionRef
    | CredentialRef
    | WorkspaceRef
    | MembershipRef
    | AgentGrantRef
    | SessionRef
    | NamespaceRef
    | OwnedRef
    | KeyRef
    | AgentRef
    | AuditRef
)


# -- rules -------------------------------------------------------------------------------------------------

_AGENT_MANAGES_NOTHING = "an agent-bound key may not manage users, agents, workspaces, keys or reviews"


def _acting(p: Principal, action: Action, a: ActingRef) -> Decision:
    """A body may name only the principal's own user, its own agent (a user key: any agent of the
    user) and a workspace the principal reads."""
    # Each refusal says what to send instead: a client with a default identity (Hermes' mem0 provider
    # sends user "hermes-user" unless MEM0_USER_ID is set) learns from the body what to set.
    if a.user_id and a.user_id != p.user_id:
        return deny(
            f"key of user {p.user_id} may not act for user {a.user_id}: send user_id {p.user_id} or none"
            f" (a mem0 client: MEM0_USER_ID={p.user_id})"
        )
    if a.agent_id and a.agent_id != p.agent_id:
        if p.agent_id:
            return deny(
                f"key of agent {p.agent_id} may not act for agent {a.agent_id}: send agent_id {p.agent_id} or"
                f" none (a mem0 client: MEM0_AGENT_ID={p.agent_id})"
            )
        if a.agent_owner_id != p.user_id:
            return deny(
                f"agent {a.agent_id} is not an agent of user {p.user_id}: send one of its agents' ids or none"
                " (a mem0 client: MEM0_AGENT_ID)"
            )
    if a.workspace_id and a.workspace_id not in p.workspace_ids:
        return deny(f"not a member of workspace {a.workspace_id} (or this agent is not allowed)")
    return allow("acts for itself")


def _memory(p: Principal, action: Action, m: MemoryRef) -> Decision:
    """private: its user; agent-only: its user through its agent; workspace-shared: the workspace's
    members through allowed agents; global: trusted writers only."""
    if m.visibility == Visibility.GLOBAL:
        return allow("trusted writer") if p.is_trusted else deny("only trusted writers may write global memory")
    if m.visibility == Visibility.WORKSPACE_SHARED:
        if m.workspace_id in p.workspace_ids:
            return allow(f"member of workspace {m.workspace_id}")
        return deny(f"not a member of workspace {m.workspace_id} (or this agent is not allowed there)")
    if m.user_id != p.user_id:
        return deny(f"memory of user {m.user_id} belongs to another user")
    if m.visibility == Visibility.AGENT_ONLY and m.agent_id != p.agent_id:
        return deny(f"agent-only memory of agent {m.agent_id} belongs to another agent")
    return allow("own memory")


def _in_agent_scope(p: Principal, source_id: str) -> bool:
    return p.memory_sources is None or source_id in p.memory_sources


def _source(p: Principal, action: Action, s: SourceRef) -> Decision:
    if not _in_agent_scope(p, s.id):
        return deny(f"source {s.id} is outside agent {p.agent_id}'s memory_sources")
    owner = s.owner_user_id == p.user_id
    if action in (Action.SOURCE_READ, Action.SOURCE_ITEMS, Action.SOURCE_RUNS):
        if owner:
            return allow("owner")
        if s.workspace_id is not None and s.workspace_id in p.workspace_ids:
            return allow(f"member of workspace {s.workspace_id}")
        return deny(f"source {s.id} belongs to another user")
    if action == Action.SOURCE_CREATE:
        return allow("own source") if owner else deny(f"key of user {p.user_id} may not add sources for another user")
    if owner:
        return allow("owner")
    if action == Action.SOURCE_DELETE and s.workspace_owner_id == p.user_id and not p.agent_id:
        return allow(f"owner of workspace {s.workspace_id}")
    return deny(f"only the owner of source {s.id} may {action.value.removeprefix('source_')} it")


def _placement(p: Principal, action: Action, w: PlacementRef) -> Decision:
    if not w.owner_is_member:
        return deny(f"the source's owner is not a member of workspace {w.workspace_id}")
    if w.workspace_id not in p.workspace_ids:
        return deny(f"not a member of workspace {w.workspace_id} (or this key's agent is not allowed there)")
    return allow(f"member of workspace {w.workspace_id}")


def _connection(p: Principal, action: Action, c: ConnectionRef) -> Decision:
    if c.upstream_user_id is None:
        return deny(f"connection {c.id} names no owner upstream; only an admin may register it")
    if c.upstream_user_id != c.for_user_id:
        return deny(f"connection {c.id} belongs to another user")
    return allow("connection of the source's owner")


def _credential(p: Principal, action: Action, c: CredentialRef) -> Decision:
    if "*" in c.users or c.user_id in c.users:
        return allow(f"the operator lets user {c.user_id} use {c.name}")
    return deny(f"the operator's {c.name} serves only the users named in its setting")


def _workspace(p: Principal, action: Action, w: WorkspaceRef) -> Decision:
    if action == Action.WORKSPACE_CREATE:
        if p.agent_id:
            return deny(_AGENT_MANAGES_NOTHING)
        if w.owner_user_id != p.user_id:
            return deny("only the admin key creates a workspace owned by someone else")
        return allow("any user may create a workspace")
    if p.user_id in w.members:
        return allow("member")
    if p.user_id in w.invited:
        return allow("invited")
    return deny(f"not a member of workspace {w.id}")


def _membership(p: Principal, action: Action, m: MembershipRef) -> Decision:
    w = m.workspace
    if p.agent_id:
        return deny(_AGENT_MANAGES_NOTHING)
    if action == Action.WORKSPACE_INVITE:
        if w.owner_user_id != p.user_id:
            return deny(f"only the owner of workspace {w.id} may invite")
        return allow("workspace owner invites; the user must accept")
    if action == Action.WORKSPACE_JOIN:
        if m.user_id != p.user_id:
            return deny("only the invited user may accept an invitation")
        if p.user_id in w.members:
            return allow("already a member")
        return allow("accepts an invitation") if p.user_id in w.invited else deny(f"no invitation to workspace {w.id}")
    # removal: a member leaves; the owner removes others (never itself: the workspace needs its owner)
    if m.user_id == w.owner_user_id:
        return deny(f"the owner cannot leave workspace {w.id}; delete it or hand it over")
    if m.user_id == p.user_id:
        return allow("a member may always leave")
    if w.owner_user_id == p.user_id:
        return allow("workspace owner removes a member")
    return deny(f"only the owner of workspace {w.id} may remove other members")


def _agent_grant(p: Principal, action: Action, g: AgentGrantRef) -> Decision:
    w = g.workspace
    if p.agent_id:
        return deny(_AGENT_MANAGES_NOTHING)
    if g.agent_owner_id is None:
        return deny(f"no agent {g.agent_id}")
    if action == Action.WORKSPACE_WITHDRAW_AGENT:
        if g.agent_owner_id == p.user_id:
            return allow("an agent's owner may always withdraw it")
        if w.owner_user_id == p.user_id:
            return allow("workspace owner removes an agent")
        return deny(f"agent {g.agent_id} belongs to another user")
    if g.agent_owner_id != p.user_id:
        return deny(f"agent {g.agent_id} belongs to another user; only its owner may bring it in")
    if p.user_id not in w.members:
        return deny(f"not a member of workspace {w.id}")
    return allow("member brings its own agent")


def _session(p: Principal, action: Action, s: SessionRef) -> Decision:
    if s.user_id != p.user_id:
        return deny(f"session {s.id} belongs to another user")
    if s.agent_id and p.agent_id and s.agent_id != p.agent_id:
        return deny(f"session {s.id} belongs to agent {s.agent_id}")
    return allow("own session")


def _commit_target(p: Principal, action: Action, t: NamespaceRef) -> Decision:
    """Where a commit may write, decided again when the consolidator writes: the committer's own user
    namespaces, its session's (or key's) agent's, a workspace it reads now (member, agent allowed),
    the global one when trusted."""
    try:
        parts = parse_namespace(t.namespace)
    except ValueError as exc:
        return deny(str(exc))
    s = t.session
    if s.user_id != p.user_id:
        return deny(f"session {s.id} belongs to another user")
    if parts.visibility == Visibility.PRIVATE:
        ok = parts.owner == p.user_id
    elif parts.visibility == Visibility.AGENT_ONLY:
        ok = parts.owner == (s.agent_id or p.agent_id)
    elif parts.visibility == Visibility.WORKSPACE_SHARED:
        ok = parts.owner in p.workspace_ids
    else:
        ok = p.is_trusted
    if ok:
        return allow(f"may write {t.namespace}")
    return deny(f"may not write into namespace {t.namespace}")


def _owned(p: Principal, action: Action, o: OwnedRef) -> Decision:
    if action == Action.REVIEW_DECIDE and p.agent_id:
        return deny(_AGENT_MANAGES_NOTHING)
    if action == Action.USER_CREATE:
        return deny("only an admin key may create users")
    if o.user_id == p.user_id:
        return allow(f"own {o.kind}")
    return deny(f"{o.kind} {o.id} belongs to another user")


def _key(p: Principal, action: Action, k: KeyRef) -> Decision:
    if p.agent_id:
        return deny(_AGENT_MANAGES_NOTHING)
    if k.user_id != p.user_id:
        return deny(f"key of user {p.user_id} may not manage keys of user {k.user_id}")
    if k.agent_id is not None and k.agent_owner_id != k.user_id:
        return deny(f"agent {k.agent_id} is not an agent of user {k.user_id}")
    return allow("own key")


def _agent(p: Principal, action: Action, a: AgentRef) -> Decision:
    if a.owner_user_id != p.user_id:
        return deny(f"agent {a.id} belongs to another user")
    if action != Action.AGENT_READ and p.agent_id:
        return deny(_AGENT_MANAGES_NOTHING)
    return allow("own agent")


def _audit(p: Principal, action: Action, a: AuditRef) -> Decision:
    if a.actor_user_id == p.user_id:
        return allow("own audit rows")
    return deny("only an admin key may read other users' audit rows")


def _counts(p: Principal, action: Action, c: CountsRef) -> Decision:
    return deny("only an admin key counts every user's memories; a key counts what it may read")


def _skill(p: Principal, action: Action, s: SkillRef) -> Decision:
    return allow("skills describe the install, not anyone's data: every key may read them")


_RULES: dict[type, Callable[[Principal, Action, Any], Decision]] = {
    SkillRef: _skill,
    CountsRef: _counts,
    ActingRef: _acting,
    MemoryRef: _memory,
    SourceRef: _source,
    PlacementRef: _placement,
    ConnectionRef: _connection,
    CredentialRef: _credential,
    WorkspaceRef: _workspace,
    MembershipRef: _membership,
    AgentGrantRef: _agent_grant,
    SessionRef: _session,
    NamespaceRef: _commit_target,
    OwnedRef: _owned,
    KeyRef: _key,
    AgentRef: _agent,
    AuditRef: _audit,
}
# Decisions the admin key does not short-circuit: they are about the upstream or the data, not about
# who asks (an operator credential serves only named users; a connection only its upstream owner).
_NOT_FOR_ADMIN = (CredentialRef,)


def decide(p: Principal, action: Action, resource: Resource) -> Decision:
    """The answer, with its reason, to ``p`` asking to do ``action`` to ``resource``."""
    if p.is_admin and not isinstance(resource, _NOT_FOR_ADMIN):
        return allow("admin key")
    return _RULES[type(resource)](p, action, resource)
