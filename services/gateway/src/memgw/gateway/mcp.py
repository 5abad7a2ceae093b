"""MCP over streamable HTTP at ``/mcp``: the seed's eight tools, each a thin twin of its REST
endpoint. Same API keys (``Authorization: Bearer`` or ``X-API-Key``), same request models, same
service functions, so the same validation, ACL and audit apply."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any, Literal, TypeVar

from fastmcp import FastMCP
from fastmcp.exceptions import ToolError
from fastmcp.server.dependencies import get_http_headers
from pydantic import ValidationError

from memgw.common.domain import Principal, Visibility
from memgw.gateway import session_service
from memgw.gateway.deps import authenticate
from memgw.gateway.errors import ApiError, Unauthorized
from memgw.gateway.identity import api_key_from
from memgw.gateway.schemas import FeedbackRequest, MemoryCreate, MemoryPatch, SearchRequest
from memgw.gateway.services import Services

T = TypeVar("T")


async def _principal(services: Services) -> Principal:
    headers = get_http_headers(include={"authorization", "x-api-key"})
    try:
        return await authenticate(services.pool, api_key_from(headers), target="mcp")
    except Unauthorized as exc:
        raise ToolError(f"unauthorized: {exc.detail}") from exc


async def _call(services: Services, action: Callable[[Principal], Awaitable[T]]) -> T:
    """Run a service call as the caller; API errors become tool errors with the same message."""
    principal = await _principal(services)
    try:
        return await action(principal)
    except ApiError as exc:
        raise ToolError(f"{exc.code}: {exc.detail}") from exc
    except ValidationError as exc:
        raise ToolError(f"invalid_request: {exc.errors(include_url=False)}") from exc


def create_mcp(services: Services) -> FastMCP:
    mcp = FastMCP("memory-gateway", instructions="Long-term memory shared across agents, isolated per user.")

    @mcp.tool
    async def memory_search(
        query: str,
        limit: int = 10,
        namespaces: list[str] | None = None,
        mode: Literal["hybrid", "dense", "sparse"] = "hybrid",
        user_id: str | None = None,
        agent_id: str | None = None,
        workspace_id: str | None = None,
    ) -> dict[str, Any]:
        """Find memories by meaning and keywords (Chinese and English) among what this key may read."""
        body = SearchRequest(
            query=query,
            limit=limit,
            namespaces=namespaces,
            mode=mode,
            user_id=user_id,
            agent_id=agent_id,
            workspace_id=workspace_id,
        )
        hits = await _call(services, lambda p: services.memories.search(p, body))
        return {"results": [h.model_dump(mode="json") for h in hits], "total": len(hits)}

    @mcp.tool
    async def memory_upsert(
        content: str,
        memory_type: str | None = None,
        visibility: Visibility = Visibility.PRIVATE,
        summary: str | None = None,
        tags: list[str] | None = None,
        importance: float | None = None,
        confidence: float | None = None,
        memory_id: str | None = None,
        version: int | None = None,
        user_id: str | None = None,
        agent_id: str | None = None,
        workspace_id: str | None = None,
        session_id: str | None = None,
    ) -> dict[str, Any]:
        """Store a memory, or with `memory_id` change one (pass its `version` to refuse a stale write)."""
        given = {
            "content": content,
            "memory_type": memory_type,
            "summary": summary,
            "tags": tags,
            "importance": importance,
            "confidence": confidence,
        }
        fields = {k: v for k, v in given.items() if v is not None}  # what the caller said, nothing more
        if memory_id:
            patch = MemoryPatch(**fields, version=version)
            record = await _call(services, lambda p: services.memories.update(p, memory_id, patch))
        else:
            create = MemoryCreate(
                **fields,
                visibility=visibility,
                user_id=user_id,
                agent_id=agent_id,
                workspace_id=workspace_id,
                session_id=session_id,
            )
            record = await _call(services, lambda p: services.memories.create(p, create))
        return {"id": record.id, "namespace": record.namespace, "version": record.version}

    @mcp.tool
    async def memory_append_episode(
        session_id: str,
        content: str,
        summary: str = "",
        tags: list[str] | None = None,
        user_id: str | None = None,
        agent_id: str | None = None,
        workspace_id: str | None = None,
    ) -> dict[str, Any]:
        """Record what happened in this session; it stays short-term until the session is committed."""
        body = session_service.EpisodeCreate(
            session_id=session_id,
            content=content,
            summary=summary,
            tags=tags or [],
            user_id=user_id,
            agent_id=agent_id,
            workspace_id=workspace_id,
        )
        episode = await _call(services, lambda p: services.sessions.append_episode(p, body))
        return {"id": episode.id, "namespace": episode.namespace}

    @mcp.tool
    async def memory_commit_session(
        session_id: str,
        promote: bool = True,
        min_importance: float | None = None,
        target_namespace: str | None = None,
        user_id: str | None = None,
        agent_id: str | None = None,
        workspace_id: str | None = None,
    ) -> dict[str, Any]:
        """Hand the session's episodes to the consolidator; returns a job id to follow."""
        body = session_service.CommitRequest(
            promote=promote,
            min_importance=min_importance,
            target_namespace=target_namespace,
            user_id=user_id,
            agent_id=agent_id,
            workspace_id=workspace_id,
        )
        return await _call(services, lambda p: services.sessions.commit(p, session_id, body))

    @mcp.tool
    async def memory_get_profile(user_id: str | None = None) -> dict[str, Any]:
        """The user's profile: stable facts and preferences."""
        profile = await _call(services, lambda p: services.profiles.get_profile(p, user_id or p.user_id))
        return profile.model_dump(mode="json")

    @mcp.tool
    async def memory_list_namespaces() -> list[dict[str, Any]]:
        """The namespaces this key may read, and which it may write."""
        return await _call(services, lambda p: services.memories.namespaces(p))

    @mcp.tool
    async def memory_delete(memory_id: str) -> dict[str, Any]:
        """Delete a memory this key may write."""
        await _call(services, lambda p: services.memories.delete(p, memory_id))
        return {"deleted": True, "id": memory_id}

    @mcp.tool
    async def memory_feedback(
        memory_id: str,
        feedback: Literal["incorrect", "duplicate", "outdated", "useful"],
        comment: str | None = None,
        target_memory_id: str | None = None,
    ) -> dict[str, Any]:
        """Judge a memory; `incorrect` removes it from default retrieval at once."""
        body = FeedbackRequest(feedback=feedback, comment=comment, target_memory_id=target_memory_id)
        applies_to = await _call(services, lambda p: services.memories.feedback(p, memory_id, body))
        return {"status": "ok", "memory_id": memory_id, "feedback": feedback, "applies_to": applies_to}

    return mcp
