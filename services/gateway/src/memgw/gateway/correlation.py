"""Every HTTP request runs in a correlation scope: the caller's ``X-Correlation-ID``, or a fresh one,
bound for its log lines and sent back on its answer.

A plain ASGI middleware, not Starlette's ``BaseHTTPMiddleware``: that one runs the rest of the app in
a task of its own behind in-memory streams on every request, for nothing this needs (a header read, a
header added).
"""

from __future__ import annotations

from starlette.datastructures import Headers, MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from memgw.common.logging import CORRELATION_HEADER, correlation_scope


class Correlation:
    def __init__(self, app: ASGIApp):
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        with correlation_scope(Headers(scope=scope).get(CORRELATION_HEADER)) as cid:

            async def answer(message: Message) -> None:
                if message["type"] == "http.response.start":
                    MutableHeaders(scope=message)[CORRELATION_HEADER] = cid
                await send(message)

            await self.app(scope, receive, answer)
