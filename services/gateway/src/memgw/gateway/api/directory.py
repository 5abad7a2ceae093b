from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query, status

from memgw.gateway import directory_service, profile_service
from memgw.gateway.deps import DirectoryDep, PrincipalDep, ProfilesDep
from memgw.gateway.pagination import Page
from memgw.gateway.schemas import MAX_PAGE, ResourceId

router = APIRouter(prefix="/v1", tags=["directory"])


@router.post("/users", status_code=status.HTTP_201_CREATED, response_model=directory_service.User)
async def create_user(
    body: directory_service.UserCreate, directory: DirectoryDep, principal: PrincipalDep
) -> directory_service.User:
    """Admin only."""
    return await directory.create_user(principal, body)


@router.get("/users", response_model=Page[directory_service.User])
async def list_users(
    directory: DirectoryDep,
    principal: PrincipalDep,
    cursor: str | None = None,
    limit: Annotated[int, Query(ge=1, le=MAX_PAGE)] = 50,
) -> Page[directory_service.User]:
    return await directory.list_users(principal, cursor, limit)


@router.get("/users/{user_id}", response_model=directory_service.User)
async def get_user(user_id: ResourceId, directory: DirectoryDep, principal: PrincipalDep) -> directory_service.User:
    return await directory.get_user(principal, user_id)


@router.get("/users/{user_id}/profile", response_model=profile_service.Profile)
async def get_profile(user_id: ResourceId, profiles: ProfilesDep, principal: PrincipalDep) -> profile_service.Profile:
    return await profiles.get_profile(principal, user_id)


@router.get("/me")
async def me(principal: PrincipalDep) -> dict[str, object]:
    """Who this key speaks for: its user, its agent, the workspaces it may read."""
    return {
        "user_id": principal.user_id,
        "agent_id": principal.agent_id,
        "workspace_ids": sorted(principal.workspace_ids),
        "is_admin": principal.is_admin,
    }


@router.get("/me/profile", response_model=profile_service.Profile)
async def my_profile(profiles: ProfilesDep, principal: PrincipalDep) -> profile_service.Profile:
    """This key's user's profile."""
    return await profiles.get_profile(principal, principal.user_id)


@router.post("/agents", status_code=status.HTTP_201_CREATED, response_model=directory_service.Agent)
async def create_agent(
    body: directory_service.AgentCreate, directory: DirectoryDep, principal: PrincipalDep
) -> directory_service.Agent:
    return await directory.create_agent(principal, body)


@router.get("/agents", response_model=list[directory_service.Agent])
async def list_agents(directory: DirectoryDep, principal: PrincipalDep) -> list[directory_service.Agent]:
    return await directory.list_agents(principal)


@router.get("/agents/{agent_id}", response_model=directory_service.Agent)
async def get_agent(agent_id: ResourceId, directory: DirectoryDep, principal: PrincipalDep) -> directory_service.Agent:
    return await directory.get_agent(principal, agent_id)


@router.patch("/agents/{agent_id}", response_model=directory_service.Agent)
async def update_agent(
    agent_id: ResourceId, body: directory_service.AgentPatch, directory: DirectoryDep, principal: PrincipalDep
) -> directory_service.Agent:
    """An absent field stays; `memory_sources: null` lets the agent recall from every source again."""
    return await directory.update_agent(principal, agent_id, body)


@router.post("/workspaces", status_code=status.HTTP_201_CREATED, response_model=directory_service.Workspace)
async def create_workspace(
    body: directory_service.WorkspaceCreate, directory: DirectoryDep, principal: PrincipalDep
) -> directory_service.Workspace:
    return await directory.create_workspace(principal, body)


@router.get("/workspaces", response_model=list[directory_service.Workspace])
async def list_workspaces(directory: DirectoryDep, principal: PrincipalDep) -> list[directory_service.Workspace]:
    """Workspaces the key's user belongs to or is invited to."""
    return await directory.list_workspaces(principal)


@router.post("/workspaces/{workspace_id}/join", response_model=directory_service.Workspace)
async def join_workspace(
    workspace_id: ResourceId, directory: DirectoryDep, principal: PrincipalDep
) -> directory_service.Workspace:
    """Accept an invitation."""
    return await directory.join(principal, workspace_id)


@router.get("/workspaces/{workspace_id}", response_model=directory_service.Workspace)
async def get_workspace(
    workspace_id: ResourceId, directory: DirectoryDep, principal: PrincipalDep
) -> directory_service.Workspace:
    return await directory.get_workspace(principal, workspace_id)


@router.put("/workspaces/{workspace_id}/members/{user_id}", response_model=directory_service.Workspace)
async def add_member(
    workspace_id: ResourceId, user_id: ResourceId, directory: DirectoryDep, principal: PrincipalDep
) -> directory_service.Workspace:
    """The workspace owner invites `user_id` (it joins with `POST /v1/workspaces/{id}/join`); the admin key adds
    the member directly."""
    return await directory.invite_member(principal, workspace_id, user_id)


@router.delete("/workspaces/{workspace_id}/members/{user_id}", response_model=directory_service.Workspace)
async def remove_member(
    workspace_id: ResourceId, user_id: ResourceId, directory: DirectoryDep, principal: PrincipalDep
) -> directory_service.Workspace:
    """A member leaves (its own user id), or the owner removes a member; the member's agents leave with it."""
    return await directory.remove_member(principal, workspace_id, user_id)


@router.put("/workspaces/{workspace_id}/agents/{agent_id}", response_model=directory_service.Workspace)
async def allow_agent(
    workspace_id: ResourceId, agent_id: ResourceId, directory: DirectoryDep, principal: PrincipalDep
) -> directory_service.Workspace:
    """A member brings one of its own agents in."""
    return await directory.change_agent(principal, workspace_id, agent_id, add=True)


@router.delete("/workspaces/{workspace_id}/agents/{agent_id}", response_model=directory_service.Workspace)
async def disallow_agent(
    workspace_id: ResourceId, agent_id: ResourceId, directory: DirectoryDep, principal: PrincipalDep
) -> directory_service.Workspace:
    """The agent's owner withdraws it at any time; the workspace owner may remove it too."""
    return await directory.change_agent(principal, workspace_id, agent_id, add=False)


@router.post("/keys", status_code=status.HTTP_201_CREATED, response_model=directory_service.KeyCreated)
async def create_key(
    body: directory_service.KeyCreate, directory: DirectoryDep, principal: PrincipalDep
) -> directory_service.KeyCreated:
    """The secret is in the answer once; only its hash is stored."""
    return await directory.issue_key(principal, body)


@router.get("/keys", response_model=list[directory_service.KeyInfo])
async def list_keys(directory: DirectoryDep, principal: PrincipalDep) -> list[directory_service.KeyInfo]:
    return await directory.list_keys(principal)


@router.delete("/keys/{key_id}")
async def revoke_key(key_id: ResourceId, directory: DirectoryDep, principal: PrincipalDep) -> dict[str, object]:
    await directory.revoke_key(principal, key_id)
    return {"revoked": True, "id": key_id}
