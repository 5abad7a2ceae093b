from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator
from typing import Annotated, Any

from fastapi import APIRouter, Body, Request, Response, WebSocket, WebSocketDisconnect, status
from fastapi.responses import PlainTextResponse, StreamingResponse
from pydantic import BaseModel, ConfigDict, Field

from memgw.common.domain import ID_PATTERN
from memgw.common.sources import KIND_SPECS, MemorySourceEntry, SourceKind
from memgw.gateway import sources_service
from memgw.gateway.deps import IfMatchVersion, PrincipalDep, ServicesDep, SourcesDep, authenticate, get_services
from memgw.gateway.errors import Unauthorized
from memgw.gateway.events import StreamClosed
from memgw.gateway.identity import api_key_from
from memgw.gateway.schemas import RequestBody, ResourceId

router = APIRouter(prefix="/v1", tags=["sources"])
HEARTBEAT_S = 15.0
FIRST_MESSAGE_S = 10.0  # a WebSocket that sends no key in this time is closed


class SourceCreate(RequestBody):
    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={"examples": [{"id": "notes", "kind": "Folder", "fields": {"path": "/home/me/notes"}}]},
    )
    id: str = Field(pattern=ID_PATTERN)
    kind: SourceKind
    label: str = ""
    enabled: bool = True
    owner_user_id: str | None = None
    workspace_id: str | None = None
    fields: dict[str, Any] = Field(default_factory=dict)
    max_tokens_per_sync: int | None = None
    max_cost_per_sync_usd: float | None = None
    sync_depth_days: int | None = None


class ComposioConnect(RequestBody):
    connection_id: str = Field(min_length=1, max_length=200)


@router.get("/sources", response_model=list[MemorySourceEntry])
async def list_sources(sources: SourcesDep, principal: PrincipalDep) -> list[MemorySourceEntry]:
    """Sources the key may see; Composio connections made elsewhere are reconciled in first."""
    await sources.reconcile_composio(principal)
    return await sources.list_sources(principal)


@router.post("/sources", status_code=status.HTTP_201_CREATED, response_model=MemorySourceEntry)
async def add_source(body: SourceCreate, sources: SourcesDep, principal: PrincipalDep) -> MemorySourceEntry:
    """Credentials among the fields (a GithubRepo `token`, a Composio `connection_id`) are sealed and
    never shown again: the answer names them under `credentials`."""
    owner = body.owner_user_id or principal.user_id
    entry = MemorySourceEntry.model_validate({**body.model_dump(), "owner_user_id": owner})
    return await sources.add(principal, entry)


class KindFields(BaseModel):
    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                {"kind": "GithubRepo", "required": ["repo"], "optional": ["token", "include"], "secret": ["token"]}
            ]
        }
    )
    kind: SourceKind
    required: list[str]
    optional: list[str]
    secret: list[str] = Field(description="Credentials among the fields: write-only, never shown again.")
    lists: list[str] = Field(default_factory=list, description="Fields whose value is a list of strings.")
    numbers: list[str] = Field(default_factory=list, description="Fields whose value is a whole number above 0.")
    choices: dict[str, list[str]] = Field(default_factory=dict, description="The values a list field may hold.")


@router.get("/sources/kinds", response_model=list[KindFields])
async def source_kinds(principal: PrincipalDep) -> list[KindFields]:
    """Each kind of source and its fields, as `POST /v1/sources` takes them (the console's forms)."""
    return [
        KindFields(
            kind=kind,
            required=list(spec.required),
            optional=list(spec.optional),
            secret=list(spec.secret),
            lists=list(spec.lists),
            numbers=list(spec.numbers),
            choices={name: list(values) for name, values in spec.choices.items()},
        )
        for kind, spec in KIND_SPECS.items()
    ]


@router.get("/sources/status", response_model=list[sources_service.SourceStatus])
async def status_list(sources: SourcesDep, principal: PrincipalDep) -> list[sources_service.SourceStatus]:
    """Per source: synced and pending counts, freshness, and the stage of a run in flight."""
    return await sources.status_list(principal)


@router.get("/sources/export", response_class=PlainTextResponse)
async def export_sources(sources: SourcesDep, principal: PrincipalDep) -> str:
    """The sources as OpenHuman's config.toml `[[memory_sources]]` tables."""
    return await sources.export_openhuman(principal)


@router.post("/sources/import")
async def import_sources(
    sources: SourcesDep, principal: PrincipalDep, toml: Annotated[str, Body(media_type="text/plain")]
) -> dict[str, Any]:
    """Bring OpenHuman's `[[memory_sources]]` in (send the TOML as text/plain)."""
    return await sources.import_openhuman(principal, toml)


@router.post("/sources/composio", status_code=status.HTTP_201_CREATED, response_model=MemorySourceEntry)
async def connect_composio(body: ComposioConnect, sources: SourcesDep, principal: PrincipalDep) -> MemorySourceEntry:
    """A new Composio connection becomes a source at once."""
    return await sources.connect_composio(principal, body.connection_id)


@router.get("/sources/{source_id}", response_model=MemorySourceEntry)
async def get_source(source_id: ResourceId, sources: SourcesDep, principal: PrincipalDep) -> MemorySourceEntry:
    return await sources.get(principal, source_id)


@router.patch("/sources/{source_id}", response_model=MemorySourceEntry)
async def update_source(
    source_id: ResourceId,
    patch: Annotated[dict[str, Any], Body(examples=[{"enabled": False, "fields": {"glob": "**/*.txt"}}])],
    sources: SourcesDep,
    principal: PrincipalDep,
    expected: IfMatchVersion = None,
) -> MemorySourceEntry:
    """An absent field stays, an explicit null clears it; `id` and `kind` cannot change."""
    return await sources.update(principal, source_id, patch, expected)


@router.delete("/sources/{source_id}")
async def remove_source(source_id: ResourceId, sources: SourcesDep, principal: PrincipalDep) -> dict[str, Any]:
    chunks = await sources.remove(principal, source_id)
    return {"removed": True, "id": source_id, "chunks_removed": chunks}


@router.get("/sources/{source_id}/items")
async def list_items(source_id: ResourceId, sources: SourcesDep, principal: PrincipalDep) -> list[dict[str, Any]]:
    """What the source's reader sees now (asked of a sync-worker; nothing is stored)."""
    return (await sources.preview(principal, source_id)).items


@router.get("/sources/{source_id}/items/{item_id:path}")
async def read_item(
    source_id: ResourceId, item_id: str, sources: SourcesDep, principal: PrincipalDep
) -> dict[str, Any]:
    answer = await sources.preview(principal, source_id, item_id)
    return answer.content or {}


@router.post("/sources/{source_id}/sync", status_code=status.HTTP_202_ACCEPTED)
async def sync_source(
    source_id: ResourceId, sources: SourcesDep, principal: PrincipalDep, response: Response
) -> dict[str, Any]:
    """Queue a sync and answer at once with its run; a run already in flight is returned instead.
    Follow it on `/v1/events` (SSE) or `/v1/events/ws`."""
    run, created = await sources.request_sync(principal, source_id)
    response.headers["Location"] = f"/v1/sources/{source_id}/runs/{run['id']}"
    return {"run": run, "created": created}


@router.get("/sources/{source_id}/runs/{run_id}")
async def get_run(
    source_id: ResourceId, run_id: ResourceId, sources: SourcesDep, principal: PrincipalDep
) -> dict[str, Any]:
    return await sources.get_run(principal, source_id, run_id)


@router.get("/events", response_class=StreamingResponse)
async def stage_events(
    request: Request, services: ServicesDep, principal: PrincipalDep, source_id: str | None = None
) -> StreamingResponse:
    """Server-sent events: every MemorySyncStageChanged the key may see (optionally of one source)."""
    relay = services.stage_relay

    secret = api_key_from(request.headers) or ""

    async def stream() -> AsyncIterator[str]:
        async with relay.listen(principal, secret, source_id) as listener:
            yield ": connected\n\n"
            while not await request.is_disconnected():
                try:
                    event = await asyncio.wait_for(listener.queue.get(), HEARTBEAT_S)
                except TimeoutError:
                    yield ": ping\n\n"
                    continue
                if isinstance(event, StreamClosed):
                    yield f"event: closed\ndata: {json.dumps({'reason': event.reason})}\n\n"
                    return
                yield f"event: {event.type}\nid: {event.id}\ndata: {event.model_dump_json()}\n\n"

    return StreamingResponse(stream(), media_type="text/event-stream", headers={"Cache-Control": "no-cache"})


@router.websocket("/events/ws")
async def stage_events_ws(websocket: WebSocket, source_id: str | None = None) -> None:
    """The same events over a WebSocket. The key comes as a header, or — what a browser can do
    without putting it in a URL — as the first message, `{"api_key": "..."}`, answered with
    `{"type": "Authenticated"}`. (`?api_key=` still works for clients that cannot do either.)"""
    services = await get_services(websocket)
    secret = api_key_from(websocket.headers, websocket.query_params.get("api_key"))
    first_message = secret is None
    if first_message:
        await websocket.accept()
        try:
            frame = await asyncio.wait_for(websocket.receive(), FIRST_MESSAGE_S)
            hello = json.loads(frame.get("text") or "null")  # a binary or closing frame carries no key
            secret = str(hello.get("api_key") or "") if isinstance(hello, dict) else ""
        except (TimeoutError, ValueError, RecursionError, WebSocketDisconnect):
            secret = ""
    try:
        principal = await authenticate(services.keys, secret, target="websocket /v1/events/ws")
    except Unauthorized as exc:
        with contextlib.suppress(RuntimeError, WebSocketDisconnect):
            await websocket.close(code=4401, reason=exc.detail)
        return
    if first_message:
        await websocket.send_text(json.dumps({"type": "Authenticated", "user_id": principal.user_id}))
    else:
        await websocket.accept()
    async with services.stage_relay.listen(principal, secret or "", source_id) as listener:
        try:
            while True:
                event = await listener.queue.get()
                if isinstance(event, StreamClosed):
                    await websocket.close(code=event.code, reason=event.reason)
                    return
                await websocket.send_text(json.dumps(event.model_dump(mode="json"), ensure_ascii=False))
        except WebSocketDisconnect:
            return
