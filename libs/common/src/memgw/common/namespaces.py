"""Namespaces of seed 004 §C and how one is derived when the client gives none."""

from __future__ import annotations

import re
from dataclasses import dataclass

from memgw.common.domain import MemoryType, Visibility

GLOBAL_NAMESPACE = "global/public"


def user_namespace(user_id: str, kind: str) -> str:
    return f"user/{user_id}/{kind}"


def agent_namespace(agent_id: str) -> str:
    return f"agent/{agent_id}/memory"


def workspace_namespace(workspace_id: str) -> str:
    return f"workspace/{workspace_id}/shared"


def session_namespace(session_id: str) -> str:
    return f"session/{session_id}/episodic"


def namespaces_for(
    *,
    memory_type: str,
    visibility: Visibility,
    user_id: str,
    agent_id: str | None,
    workspace_id: str | None,
) -> tuple[str, ...]:
    """Where a memory of this type and visibility may go, the default first. Visibility decides the
    owner of the namespace; among a user's own namespaces the type decides: a profile fact goes to
    ``profile``, anything else to ``long_term`` (as seed 004 §B and §D file a preference), and a
    preference or profile fact may be filed under ``preferences`` or ``long_term`` when asked."""
    if visibility is Visibility.GLOBAL:
        return (GLOBAL_NAMESPACE,)
    if visibility is Visibility.WORKSPACE_SHARED:
        if not workspace_id:
            raise ValueError("workspace-shared memory needs a workspace_id")
        return (workspace_namespace(workspace_id),)
    if visibility is Visibility.AGENT_ONLY:
        if not agent_id:
            raise ValueError("agent-only memory needs an agent_id")
        return (agent_namespace(agent_id),)
    if memory_type == MemoryType.PROFILE:
        return (user_namespace(user_id, "profile"), user_namespace(user_id, "long_term"))
    if memory_type == MemoryType.PREFERENCE:
        return (user_namespace(user_id, "long_term"), user_namespace(user_id, "preferences"))
    return (user_namespace(user_id, "long_term"),)


def derive_namespace(
    *,
    memory_type: str,
    visibility: Visibility,
    user_id: str,
    agent_id: str | None,
    workspace_id: str | None,
) -> str:
    """The default namespace of a memory of this type and visibility (see ``namespaces_for``)."""
    return namespaces_for(
        memory_type=memory_type, visibility=visibility, user_id=user_id, agent_id=agent_id, workspace_id=workspace_id
    )[0]


USER_KINDS = ("profile", "preferences", "long_term")
_NAMESPACE = re.compile(r"^(user|agent|workspace)/([A-Za-z0-9][A-Za-z0-9_.@-]{0,127})/([a-z_]+)$")
_SUFFIX = {"agent": "memory", "workspace": "shared"}


@dataclass(frozen=True)
class NamespaceParts:
    """A long-term namespace read back: whose it is (user, agent or workspace id; '' for global)."""

    visibility: Visibility
    owner: str
    kind: str


def parse_namespace(namespace: str) -> NamespaceParts:
    """The parts of a namespace memories may live in; ValueError for anything else (session
    namespaces hold episodes, never memories)."""
    if namespace == GLOBAL_NAMESPACE:
        return NamespaceParts(Visibility.GLOBAL, "", "public")
    found = _NAMESPACE.match(namespace)
    if found:
        scope, owner, kind = found.groups()
        if scope == "user" and kind in USER_KINDS:
            return NamespaceParts(Visibility.PRIVATE, owner, kind)
        if kind == _SUFFIX.get(scope):
            visibility = Visibility.AGENT_ONLY if scope == "agent" else Visibility.WORKSPACE_SHARED
            return NamespaceParts(visibility, owner, kind)
    raise ValueError(f"{namespace!r} is not a namespace memories may be written into")


@dataclass(frozen=True)
class Owners:
    """The ACL columns of a memory; the database refuses a row whose namespace disagrees with them."""

    visibility: Visibility
    user_id: str
    agent_id: str | None
    workspace_id: str | None


def owners_in(namespace: str, *, user_id: str, agent_id: str | None) -> Owners:
    """The ACL columns of a memory that ``user_id`` (through ``agent_id``) writes into ``namespace``."""
    parts = parse_namespace(namespace)
    return Owners(
        visibility=parts.visibility,
        user_id=user_id,
        agent_id=parts.owner if parts.visibility is Visibility.AGENT_ONLY else agent_id,
        workspace_id=parts.owner if parts.visibility is Visibility.WORKSPACE_SHARED else None,
    )
