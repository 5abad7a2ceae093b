"""MCP over streamable HTTP at ``/mcp`` (and the seed's ``/mcp/rpc``): the seed's eight tools, each a
thin twin of its REST endpoint, written for a language model to call well.

- The key decides who is asking: no tool takes a user or agent id (an LLM cannot widen its reach by
  naming someone), the same API keys as REST (``Authorization: Bearer`` or ``X-API-Key``).
- Every argument is described and bounded; memory types and visibilities are enums.
- Search answers compact hits (id, content, type, namespace, score); ``full`` gives whole records.
- Errors have one style, ``<code>: <what is wrong and how to fix it>``.
- Only tools are advertised: this server has no resources or prompts.
The same service objects as REST, so the same validation, policy and audit apply.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Annotated, Any, Literal, TypeVar

from fastmcp import FastMCP
from fastmcp.exceptions import ToolError
from fastmcp.exceptions import ValidationError as ArgumentsRefused
from fastmcp.server.dependencies import get_http_headers
from fastmcp.server.http import StarletteWithLifespan
from fastmcp.server.middleware import Middleware, MiddlewareContext
from pydantic import AfterValidator, Field, ValidationError
from starlette.routing import Route

from memgw.common.domain import MemoryType, Principal, Visibility
from memgw.common.secrets import SecretRefused
from memgw.common.viking import memory_id_of
from memgw.gateway import session_service
from memgw.gateway.deps import authenticate
from memgw.gateway.errors import ApiError, Unauthorized
from memgw.gateway.identity import api_key_from
from memgw.gateway.schemas import FeedbackRequest, MemoryCreate, MemoryPatch, SearchHit, SearchRequest
from memgw.gateway.services import Services

T = TypeVar("T")
PATHS = ("/mcp", "/mcp/rpc")  # ours, and the seed's
_NOT_ADVERTISED = ("prompts/list", "prompts/get", "resources/list", "resources/read", "resources/templates/list")

# What an LLM may store: every memory type but the source chunks that readers make.
MemoryTypeName = Literal["profile", "preference", "fact", "decision", "experience", "failure", "note"]
assert set(MemoryTypeName.__args__) == {t.value for t in MemoryType} - {MemoryType.RESOURCE.value}  # type: ignore[attr-defined]
VisibilityName = Literal["private", "agent-only", "workspace-shared", "global"]

Query = Annotated[str, Field(min_length=1, max_length=2000, description="What to look for, in any language.")]
Limit = Annotated[int, Field(ge=1, le=50, description="How many hits at most (1 to 50).")]
MemoryId = Annotated[
    str,
    Field(min_length=1, max_length=400, description="A memory's id or viking:// URI, as search returns them."),
    AfterValidator(memory_id_of),
]
SessionId = Annotated[
    str, Field(min_length=1, max_length=128, description="The conversation's session id (any id you choose).")
]
Unit = Annotated[float, Field(ge=0, le=1)]


def _problem(exc: ValidationError) -> str:
    return "; ".join(f"{'.'.join(str(p) for p in e['loc']) or 'arguments'}: {e['msg']}" for e in exc.errors())


class OneErrorStyle(Middleware):
    """Argument errors found before a tool runs read like every other error: ``invalid_request: ...``."""

    async def on_call_tool(self, context: MiddlewareContext[Any], call_next: Any) -> Any:
        try:
            return await call_next(context)
        except ArgumentsRefused as exc:  # fastmcp's wrapper of the pydantic error about the arguments
            cause = exc.__cause__
            problem = _problem(cause) if isinstance(cause, ValidationError) else str(exc)
            raise ToolError(f"invalid_request: {problem}") from exc


async def _principal(services: Services) -> Principal:
    headers = get_http_headers(include={"authorization", "x-api-key"})
    try:
        return await authenticate(services.keys, api_key_from(headers), target="mcp")
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
        raise ToolError(f"invalid_request: {_problem(exc)}") from exc
    except SecretRefused as exc:
        raise ToolError(f"secret_refused: {exc}") from exc


def _compact(hit: SearchHit) -> dict[str, Any]:
    m = hit.memory
    return {"id": m.id, "content": m.content, "type": m.memory_type, "namespace": m.namespace, "score": hit.score}


def mcp_app(services: Services) -> StarletteWithLifespan:
    """The MCP server as an ASGI app, answering at every path of ``PATHS``; ``app.state.end_sessions()``
    ends every open session (see ``end_sessions``)."""
    app = create_mcp(services).http_app(path=PATHS[0])
    [endpoint] = [route.endpoint for route in app.routes if isinstance(route, Route) and route.path == PATHS[0]]
    app.router.routes += [Route(path, endpoint=endpoint) for path in PATHS[1:]]
    # fastmcp's StreamableHTTPASGIApp gets a new session manager at each start of its lifespan: read it then.
    app.state.end_sessions = lambda: end_sessions(getattr(endpoint, "session_manager", None))
    return app


async def end_sessions(manager: Any) -> None:
    """End every open MCP session, its GET stream too, the moment a stop is asked: a client holding one
    open would otherwise keep the server's graceful shutdown waiting until it cancels the stream
    (fastmcp does the same in its lifespan, which runs only after the server has drained). The SDK's
    session manager has no public way to list its sessions, hence its private map."""
    for transport in list(getattr(manager, "_server_instances", {}).values()):
        await transport.terminate()


def create_mcp(services: Services) -> FastMCP:
    mcp = FastMCP(
        "memory-gateway",
        instructions=(
            "Long-term memory shared across this user's agents. Search before answering questions about the"
            " user or past work; store durable facts, preferences and decisions; append what happens in a"
            " session as episodes and commit the session at its end."
        ),
    )
    mcp.add_middleware(OneErrorStyle())

    @mcp.tool
    async def memory_search(
        query: Query,
        limit: Limit = 10,
        namespaces: Annotated[
            list[str] | None,
            Field(max_length=20, description="Only these namespaces (see memory_list_namespaces); default: all."),
        ] = None,
        mode: Annotated[
            Literal["hybrid", "dense", "sparse"],
            Field(description="hybrid = meaning and keywords (best); dense = meaning only; sparse = keywords only."),
        ] = "hybrid",
        full: Annotated[bool, Field(description="Whole records instead of compact hits.")] = False,
        user_id: Annotated[
            str | None, Field(max_length=128, description="Your own user id (the key's); any other is refused.")
        ] = None,
        agent_id: Annotated[
            str | None, Field(max_length=128, description="Your own agent id (the key's); any other is refused.")
        ] = None,
        workspace_id: Annotated[
            str | None, Field(max_length=128, description="Only this workspace's memories (one the key may read).")
        ] = None,
    ) -> dict[str, Any]:
        """Find memories by meaning and keywords (Chinese and English) among what this key may read.
        user_id, agent_id and workspace_id (the seed's example passes them) narrow the search as REST's do:
        they may name only the key's own identity, or a workspace it may read; the policy refuses others."""
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
        results = [h.model_dump(mode="json") if full else _compact(h) for h in hits]
        return {"results": results, "total": len(hits)}

    @mcp.tool
    async def memory_upsert(
        content: Annotated[
            str, Field(min_length=1, max_length=32_000, description="The memory, one self-contained statement.")
        ],
        memory_type: Annotated[
            MemoryTypeName | None, Field(description="What kind of memory it is; classified from the text if left out.")
        ] = None,
        visibility: Annotated[
            VisibilityName | None,
            Field(
                description="private = this user; agent-only = this agent; workspace-shared = a workspace."
                " Left out: workspace-shared when a workspace is named, agent-only for your own lessons, else private."
            ),
        ] = None,
        workspace_id: Annotated[
            str | None, Field(max_length=128, description="The workspace, with visibility workspace-shared only.")
        ] = None,
        summary: Annotated[str | None, Field(max_length=2000, description="A short title.")] = None,
        tags: Annotated[list[str] | None, Field(max_length=32, description="Labels to filter by later.")] = None,
        importance: Annotated[Unit | None, Field(description="0 to 1: how much it matters (default 0.5).")] = None,
        confidence: Annotated[Unit | None, Field(description="0 to 1: how sure you are (default 0.8).")] = None,
        memory_id: Annotated[
            MemoryId | None, Field(description="Change this memory (id or viking:// URI) instead of storing a new one.")
        ] = None,
        version: Annotated[
            int | None, Field(ge=1, description="With memory_id: the version you read; a stale one is refused.")
        ] = None,
    ) -> dict[str, Any]:
        """Store a memory, or with `memory_id` change one (its text, type, tags, importance, confidence)."""
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
            shared = Visibility(visibility) if visibility else None
            create = MemoryCreate(**fields, visibility=shared, workspace_id=workspace_id)
            record = await _call(services, lambda p: services.memories.create(p, create))
        return {"id": record.id, "namespace": record.namespace, "version": record.version, "uri": record.uri}

    @mcp.tool
    async def memory_append_episode(
        session_id: SessionId,
        content: Annotated[str, Field(min_length=1, max_length=32_000, description="What happened in this turn.")],
        summary: Annotated[str, Field(max_length=2000, description="A one-line summary.")] = "",
        tags: Annotated[list[str] | None, Field(max_length=32, description="Labels.")] = None,
    ) -> dict[str, Any]:
        """Record what happened in this session; it stays short-term until the session is committed."""
        body = session_service.EpisodeCreate(session_id=session_id, content=content, summary=summary, tags=tags or [])
        episode = await _call(services, lambda p: services.sessions.append_episode(p, body))
        return {"id": episode.id, "namespace": episode.namespace}

    @mcp.tool
    async def memory_commit_session(
        session_id: SessionId,
        promote: Annotated[bool, Field(description="Promote what the extraction finds to long-term memory.")] = True,
        min_importance: Annotated[
            Unit | None, Field(description="0 to 1: keep only memories at least this important.")
        ] = None,
        target_namespace: Annotated[
            str | None, Field(max_length=256, description="Where promoted memories go; default: by their type.")
        ] = None,
    ) -> dict[str, Any]:
        """Hand the session's episodes to the consolidator; returns a job id to follow."""
        body = session_service.CommitRequest(
            promote=promote, min_importance=min_importance, target_namespace=target_namespace
        )
        return await _call(services, lambda p: services.sessions.commit(p, session_id, body))

    @mcp.tool
    async def memory_get_profile() -> dict[str, Any]:
        """This user's profile: stable facts and preferences."""
        profile = await _call(services, lambda p: services.profiles.get_profile(p, p.user_id))
        return profile.model_dump(mode="json")

    @mcp.tool
    async def memory_list_namespaces() -> list[dict[str, Any]]:
        """The namespaces this key may read, and which it may write."""
        return await _call(services, lambda p: services.memories.namespaces(p))

    @mcp.tool
    async def memory_delete(memory_id: MemoryId) -> dict[str, Any]:
        """Delete a memory this key may write."""
        await _call(services, lambda p: services.memories.delete(p, memory_id))
        return {"deleted": True, "id": memory_id}

    @mcp.tool
    async def memory_feedback(
        memory_id: MemoryId,
        feedback: Annotated[
            Literal["incorrect", "duplicate", "outdated", "useful"],
            Field(description="incorrect removes it from retrieval at once; useful lifts it."),
        ],
        comment: Annotated[str | None, Field(max_length=2000, description="Why.")] = None,
        target_memory_id: Annotated[
            str | None, Field(max_length=128, description="The memory it duplicates or is outdated by.")
        ] = None,
    ) -> dict[str, Any]:
        """Judge a memory; `incorrect` removes it from default retrieval at once."""
        body = FeedbackRequest(feedback=feedback, comment=comment, target_memory_id=target_memory_id)
        applies_to = await _call(services, lambda p: services.memories.feedback(p, memory_id, body))
        return {"status": "ok", "memory_id": memory_id, "feedback": feedback, "applies_to": applies_to}

    handlers = mcp._mcp_server._request_handlers  # the SDK offers no switch for these
    for method in _NOT_ADVERTISED:
        handlers.pop(method, None)  # no handler, no capability: clients are not invited to list nothing
    return mcp
