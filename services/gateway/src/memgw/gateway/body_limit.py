"""The body limit, held on the stream itself: whatever the framing (Content-Length or chunked), no
route — REST, MCP, import — ever sees more than ``max_bytes`` of a body. A plain ASGI middleware:
it reads the body up to the limit before the app runs, answers 413 past it, and otherwise hands the
app the same body (then the live receive channel, so disconnects are still seen)."""

from __future__ import annotations

import json
from typing import Any

from starlette.types import ASGIApp, Message, Receive, Scope, Send


class BodyLimit:
    def __init__(self, app: ASGIApp, max_bytes: int):
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = dict(scope.get("headers") or []).get(b"content-length", b"")
        if declared.isdigit() and int(declared) > self.max_bytes:
            await self._too_large(send)
            return
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] != "http.request":  # the client went away: let the app see it
                await self.app(scope, _replay(chunks, message, receive), send)
                return
            body = message.get("body", b"")
            size += len(body)
            if size > self.max_bytes:
                await self._too_large(send)
                return
            chunks.append(body)
            if not message.get("more_body", False):
                break
        await self.app(scope, _replay(chunks, None, receive), send)

    async def _too_large(self, send: Send) -> None:
        body = json.dumps({"error": "payload_too_large", "detail": f"body over {self.max_bytes} bytes"}).encode()
        headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
        await send({"type": "http.response.start", "status": 413, "headers": headers})
        await send({"type": "http.response.body", "body": body})


def _replay(chunks: list[bytes], pending: Message | None, receive: Receive) -> Receive:
    """A receive channel that first gives the body read so far (and a message that came after it),
    then the live one."""
    queue: list[Message] = [{"type": "http.request", "body": b"".join(chunks), "more_body": False}]
    if pending is not None:
        queue.append(pending)

    async def replay() -> Any:
        if queue:
            return queue.pop(0)
        return await receive()

    return replay
