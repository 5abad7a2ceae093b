"""Every HTTP request runs in a correlation scope: the caller's ``X-Correlation-ID``, or a fresh one,
bound for its log lines and sent back on its answer."""

from __future__ import annotations

from starlette.datastructures import Headers
from starlette.types import Receive, Scope, Send

from memgw.common.logging import CORRELATION_HEADER, correlation_scope
from memgw.gateway.answer_headers import AnswerHeaders


class Correlation(AnswerHeaders):
    async def handle(self, scope: Scope, receive: Receive, send: Send) -> None:
        with correlation_scope(Headers(scope=scope).get(CORRELATION_HEADER)) as cid:
            await self.answer_with(scope, receive, send, lambda: [(CORRELATION_HEADER, cid)])
