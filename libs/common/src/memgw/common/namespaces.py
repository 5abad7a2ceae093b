"""Namespaces of seed 004 §C and how one is derived when the client gives none."""

from __future__ import annotations

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


def derive_namespace(
    *,
    memory_type: str,
    visibility: Visibility,
    user_id: str,
    agent_id: str | None,
    workspace_id: str | None,
) -> str:
    """Visibility decides the owner of the namespace; the type picks the user sub-namespace."""
    if visibility is Visibility.GLOBAL:
        return GLOBAL_NAMESPACE
    if visibility is Visibility.WORKSPACE_SHARED:
        if not workspace_id:
            raise ValueError("workspace-shared memory needs a workspace_id")
        return workspace_namespace(workspace_id)
    if visibility is Visibility.AGENT_ONLY:
        if not agent_id:
            raise ValueError("agent-only memory needs an agent_id")
        return agent_namespace(agent_id)
    if memory_type == MemoryType.PROFILE:
        return user_namespace(user_id, "profile")
    if memory_type == MemoryType.PREFERENCE:
        return user_namespace(user_id, "preferences")
    return user_namespace(user_id, "long_term")
