"""The base of middlewares that add headers to an HTTP request's answer, computed when the answer starts
(so they can say what happened while the request ran).

Plain ASGI, not Starlette's ``BaseHTTPMiddleware``: that one runs the rest of the app in a task of its
own behind in-memory streams on every request, for nothing this needs (a header added).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable

from starlette.datastructures import MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send


class AnswerHeaders(ABC):
    def __init__(self, app: ASGIApp):
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":  # WebSocket and lifespan pass through
            await self.app(scope, receive, send)
            return
        await self.handle(scope, receive, send)

    @abstractmethod
    async def handle(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Run the request, calling ``answer_with`` with the headers to add."""

    async def answer_with(
        self, scope: Scope, receive: Receive, send: Send, headers: Callable[[], Iterable[tuple[str, str]]]
    ) -> None:
        """Run the app on the request; its answer's start gets ``headers()``, asked for at that moment."""

        async def answer(message: Message) -> None:
            if message["type"] == "http.response.start":
                added = MutableHeaders(scope=message)
                for name, value in headers():
                    added.append(name, value)
            await send(message)

        await self.app(scope, receive, answer)
