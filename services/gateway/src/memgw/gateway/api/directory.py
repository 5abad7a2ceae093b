from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query, status

from memgw.gateway import directory_service as directory
from memgw.gateway import profile_service
from memgw.gateway.deps import InfraDep, PrincipalDep
from memgw.gateway.pagination import Page
from memgw.gateway.schemas import MAX_PAGE, ResourceId

router = APIRouter(prefix="/v1", tags=["directory"])


@router.post("/users", status_code=status.HTTP_201_CREATED, response_model=directory.User)
async def create_user(body: directory.UserCreate, infra: InfraDep, principal: PrincipalDep) -> directory.User:
    """Admin only."""
    return await directory.create_user(infra, principal, body)


@router.get("/users", response_model=Page[directory.User])
async def list_users(
    infra: InfraDep,
    principal: PrincipalDep,
    cursor: str | None = None,
    limit: Annotated[int, Query(ge=1, le=MAX_PAGE)] = 50,
) -> Page[directory.User]:
    return await directory.list_users(infra, principal, cursor, limit)


@router.get("/users/{user_id}", response_model=directory.User)
async def get_user(user_id: ResourceId, infra: InfraDep, principal: PrincipalDep) -> directory.User:
    return await directory.get_user(infra, principal, user_id)


@router.get("/users/{user_id}/profile", response_model=profile_service.Profile)
async def get_profile(user_id: ResourceId, infra: InfraDep, principal: PrincipalDep) -> profile_service.Profile:
    return await profile_service.get_profile(infra, principal, user_id)


@router.post("/agents", status_code=status.HTTP_201_CREATED, response_model=directory.Agent)
async def create_agent(body: directory.AgentCreate, infra: InfraDep, principal: PrincipalDep) -> directory.Agent:
    return await directory.create_agent(infra, principal, body)


@router.get("/agents", response_model=list[directory.Agent])
async def list_agents(infra: InfraDep, principal: PrincipalDep) -> list[directory.Agent]:
    return await directory.list_agents(infra, principal)


@router.get("/agents/{agent_id}", response_model=directory.Agent)
async def get_agent(agent_id: ResourceId, infra: InfraDep, principal: PrincipalDep) -> directory.Agent:
    return await directory.get_agent(infra, principal, agent_id)


@router.patch("/agents/{agent_id}", response_model=directory.Agent)
async def update_agent(
    agent_id: ResourceId, body: directory.AgentPatch, infra: InfraDep, principal: PrincipalDep
) -> directory.Agent:
    """An absent field stays; `memory_sources: null` lets the agent recall from every source again."""
    return await directory.update_agent(infra, principal, agent_id, body)


@router.post("/workspaces", status_code=status.HTTP_201_CREATED, response_model=directory.Workspace)
async def create_workspace(
    body: directory.WorkspaceCreate, infra: InfraDep, principal: PrincipalDep
) -> directory.Workspace:
    return await directory.create_workspace(infra, principal, body)


@router.get("/workspaces", response_model=list[directory.Workspace])
async def list_workspaces(infra: InfraDep, principal: PrincipalDep) -> list[directory.Workspace]:
    """Workspaces the key's user belongs to or is invited to."""
    return await directory.list_workspaces(infra, principal)


@router.post("/workspaces/{workspace_id}/join", response_model=directory.Workspace)
async def join_workspace(workspace_id: ResourceId, infra: InfraDep, principal: PrincipalDep) -> directory.Workspace:
    """Accept an invitation."""
    return await directory.join(infra, principal, workspace_id)


@router.get("/workspaces/{workspace_id}", response_model=directory.Workspace)
async def get_workspace(workspace_id: ResourceId, infra: InfraDep, principal: PrincipalDep) -> directory.Workspace:
    return await directory.get_workspace(infra, principal, workspace_id)


@router.put("/workspaces/{workspace_id}/members/{user_id}", response_model=directory.Workspace)
async def add_member(
    workspace_id: ResourceId, user_id: ResourceId, infra: InfraDep, principal: PrincipalDep
) -> directory.Workspace:
    """The workspace owner invites `user_id` (it joins with `POST /v1/workspaces/{id}/join`); the admin key adds
    the member directly."""
    return await directory.invite_member(infra, principal, workspace_id, user_id)


@router.delete("/workspaces/{workspace_id}/members/{user_id}", response_model=directory.Workspace)
async def remove_member(
    workspace_id: ResourceId, user_id: ResourceId, infra: InfraDep, principal: PrincipalDep
) -> directory.Workspace:
    """A member leaves (its own user id), or the owner removes a member; the member's agents leave with it."""
    return await directory.remove_member(infra, principal, workspace_id, user_id)


@router.put("/workspaces/{workspace_id}/agents/{agent_id}", response_model=directory.Workspace)
async def allow_agent(
    workspace_id: ResourceId, agent_id: ResourceId, infra: InfraDep, principal: PrincipalDep
) -> directory.Workspace:
    """A member brings one of its own agents in."""
    return await directory.change_agent(infra, principal, workspace_id, agent_id, add=True)


@router.delete("/workspaces/{workspace_id}/agents/{agent_id}", response_model=directory.Workspace)
async def disallow_agent(
    workspace_id: ResourceId, agent_id: ResourceId, infra: InfraDep, principal: PrincipalDep
) -> directory.Workspace:
    """The agent's owner withdraws it at any time; the workspace owner may remove it too."""
    return await directory.change_agent(infra, principal, workspace_id, agent_id, add=False)


@router.post("/keys", status_code=status.HTTP_201_CREATED, response_model=directory.KeyCreated)
async def create_key(body: directory.KeyCreate, infra: InfraDep, principal: PrincipalDep) -> directory.KeyCreated:
    """The secret is in the answer once; only its hash is stored."""
    return await directory.issue_key(infra, principal, body)


@router.get("/keys", response_model=list[directory.KeyInfo])
async def list_keys(infra: InfraDep, principal: PrincipalDep) -> list[directory.KeyInfo]:
    return await directory.list_keys(infra, principal)


@router.delete("/keys/{key_id}")
async def revoke_key(key_id: ResourceId, infra: InfraDep, principal: PrincipalDep) -> dict[str, object]:
    await directory.revoke_key(infra, principal, key_id)
    return {"revoked": True, "id": key_id}
