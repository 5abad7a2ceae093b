"""``POST /rpc``: OpenHuman's memory-source JSON-RPC 2.0 (single requests and batches), the same
API keys as REST."""

from __future__ import annotations

import json
from typing import Any

from fastapi import APIRouter, Request, Response
from fastapi.responses import JSONResponse

from memgw.gateway.deps import PrincipalDep, RpcDep
from memgw.gateway.openhuman_rpc import INVALID_REQUEST, MAX_BATCH, PARSE_ERROR, error_reply, handle
from memgw.gateway.schemas import MAX_NESTING, check_value

router = APIRouter(tags=["openhuman-rpc"])


@router.post("/rpc", response_model=None)
async def rpc(request: Request, endpoint: RpcDep, principal: PrincipalDep) -> Response:
    """JSON-RPC 2.0: `openhuman.memory_sources_{list,get,add,update,remove,list_items,read_item,sync,status_list}`."""
    try:
        message: Any = json.loads(await request.body())
    except (ValueError, UnicodeDecodeError):
        return JSONResponse(error_reply(None, PARSE_ERROR, "the body is not JSON"))
    except RecursionError:  # nested deeper than the parser follows
        return JSONResponse(error_reply(None, INVALID_REQUEST, f"nested more than {MAX_NESTING} levels"))
    try:
        check_value(message, "request")
    except ValueError as exc:
        return JSONResponse(error_reply(None, INVALID_REQUEST, str(exc)))
    if isinstance(message, list):
        if not message or len(message) > MAX_BATCH:
            return JSONResponse(error_reply(None, INVALID_REQUEST, f"a batch holds 1 to {MAX_BATCH} requests"))
        replies = [r for m in message if (r := await handle(endpoint, principal, m)) is not None]
        return JSONResponse(replies) if replies else Response(status_code=204)
    reply = await handle(endpoint, principal, message)
    return JSONResponse(reply) if reply is not None else Response(status_code=204)
