"""OpenHuman's memory-source RPC (seeds 000/001): ``openhuman.memory_sources_{list, get, add, update,
remove, list_items, read_item, sync, status_list}`` as JSON-RPC 2.0, with the seeds' flat field
names (a source's kind fields side by side with ``id``, ``kind``, ``label``; a patch flat too), so a
client written against OpenHuman works here. Every method is the REST API's ``Sources`` underneath:
the same policy, validation and audit; an error keeps its HTTP meaning in ``error.data``.
"""

from __future__ import annotations

import re
from typing import Any

from fastapi.encoders import jsonable_encoder
from pydantic import ValidationError

from memgw.common.domain import ID_PATTERN, Principal
from memgw.common.logging import get_logger
from memgw.common.sources import (
    SourceValidationError,
    from_openhuman,
    openhuman_table,
    patch_from_openhuman,
)
from memgw.gateway.errors import ApiError
from memgw.gateway.sources_service import Sources

log = get_logger("memgw.gateway.rpc")
PREFIX = "openhuman.memory_sources_"
METHODS = ("list", "get", "add", "update", "remove", "list_items", "read_item", "sync", "status_list")
MAX_BATCH = 50
_ID = re.compile(ID_PATTERN)

# JSON-RPC 2.0's codes, and ours for what HTTP would say (-32000 - status).
PARSE_ERROR, INVALID_REQUEST, METHOD_NOT_FOUND, INVALID_PARAMS, INTERNAL = -32700, -32600, -32601, -32602, -32603


class RpcError(Exception):
    def __init__(self, code: int, message: str, data: dict[str, Any] | None = None):
        super().__init__(message)
        self.code, self.message, self.data = code, message, data


def _text(params: dict[str, Any], name: str) -> str:
    value = params.get(name)
    if not isinstance(value, str) or not value:
        raise RpcError(INVALID_PARAMS, f"params.{name} is required (a string)")
    return value


def _id(params: dict[str, Any]) -> str:
    source_id = _text(params, "id")
    if not _ID.match(source_id):
        raise RpcError(INVALID_PARAMS, f"params.id must match {ID_PATTERN}")
    return source_id


class OpenHumanRpc:
    def __init__(self, sources: Sources):
        self.sources = sources

    async def call(self, p: Principal, method: str, params: Any) -> Any:
        name = method.removeprefix(PREFIX) if method.startswith(PREFIX) else ""
        if name not in METHODS:
            raise RpcError(METHOD_NOT_FOUND, f"no method {method!r}; the methods are {PREFIX}{{{', '.join(METHODS)}}}")
        if params is None:
            params = {}
        if not isinstance(params, dict):
            raise RpcError(INVALID_PARAMS, "params must be an object (named parameters)")
        try:
            return await getattr(self, f"_{name}")(p, dict(params))
        except ApiError as exc:
            raise RpcError(
                -32000 - exc.status_code, exc.detail, {"status": exc.status_code, "error": exc.code}
            ) from exc
        except (SourceValidationError, ValidationError, TypeError) as exc:
            raise RpcError(INVALID_PARAMS, str(exc)) from exc

    async def _list(self, p: Principal, params: dict[str, Any]) -> list[dict[str, Any]]:
        await self.sources.reconcile_composio(p)  # as OpenHuman's list does: connections made meanwhile
        return [openhuman_table(e) for e in await self.sources.list_sources(p)]

    async def _get(self, p: Principal, params: dict[str, Any]) -> dict[str, Any]:
        return openhuman_table(await self.sources.get(p, _id(params)))

    async def _add(self, p: Principal, params: dict[str, Any]) -> dict[str, Any]:
        owner = params.pop("owner_user_id", None) or p.user_id
        workspace = params.pop("workspace_id", None)
        entry = from_openhuman(params, owner).model_copy(update={"workspace_id": workspace})
        return openhuman_table(await self.sources.add(p, entry))

    async def _update(self, p: Principal, params: dict[str, Any]) -> dict[str, Any]:
        source_id = _id(params)
        patch = patch_from_openhuman({k: v for k, v in params.items() if k != "id"})
        return openhuman_table(await self.sources.update(p, source_id, patch))

    async def _remove(self, p: Principal, params: dict[str, Any]) -> dict[str, Any]:
        source_id = _id(params)
        return {"id": source_id, "removed": True, "chunks_removed": await self.sources.remove(p, source_id)}

    async def _list_items(self, p: Principal, params: dict[str, Any]) -> list[dict[str, Any]]:
        return (await self.sources.preview(p, _id(params))).items

    async def _read_item(self, p: Principal, params: dict[str, Any]) -> dict[str, Any]:
        return (await self.sources.preview(p, _id(params), _text(params, "item_id"))).content or {}

    async def _sync(self, p: Principal, params: dict[str, Any]) -> dict[str, Any]:
        """Queued, answered at once; progress comes as MemorySyncStageChanged on /v1/events(/ws)."""
        run, created = await self.sources.request_sync(p, _id(params))
        return {"run": run, "created": created}

    async def _status_list(self, p: Principal, params: dict[str, Any]) -> list[dict[str, Any]]:
        return [s.model_dump(mode="json") for s in await self.sources.status_list(p)]


def error_reply(request_id: Any, code: int, message: str, data: dict[str, Any] | None = None) -> dict[str, Any]:
    error: dict[str, Any] = {"code": code, "message": message}
    if data:
        error["data"] = data
    return {"jsonrpc": "2.0", "error": error, "id": request_id}


async def handle(rpc: OpenHumanRpc, p: Principal, message: Any) -> dict[str, Any] | None:
    """One JSON-RPC request object → its response (None for a notification)."""
    if not isinstance(message, dict) or message.get("jsonrpc") != "2.0" or not isinstance(message.get("method"), str):
        return error_reply(
            None, INVALID_REQUEST, 'a request is {"jsonrpc": "2.0", "method": "...", "params": {...}, "id": …}'
        )
    request_id = message.get("id")
    if request_id is not None and not isinstance(request_id, str | int):
        return error_reply(None, INVALID_REQUEST, "id must be a string, a number or null")
    try:
        result = jsonable_encoder(await rpc.call(p, message["method"], message.get("params")))
        reply: dict[str, Any] = {"jsonrpc": "2.0", "result": result, "id": request_id}
    except RpcError as exc:
        reply = error_reply(request_id, exc.code, exc.message, exc.data)
    except Exception:  # logged with the correlation id; the caller learns only that it failed
        log.exception("rpc.failed", method=message["method"])
        reply = error_reply(request_id, INTERNAL, "internal error")
    return reply if "id" in message else None
