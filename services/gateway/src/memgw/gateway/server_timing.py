"""Where a request's time went, step by step, in its answer's ``Server-Timing`` header (W3C Server
Timing): ``auth;dur=0.31, embed;dur=18.9, dense;dur=1.02, …, app;dur=24.6`` (milliseconds).

Browsers' developer tools draw it, and an operator or a benchmark reads a slow search's steps off one
answer instead of profiling the server. A step names only work done for this request: its own query's
embedding, its own lists and re-check; nothing of another tenant's requests is in it.

``step`` records into the request's list through a context variable; tasks a request starts
(``asyncio.gather``) copy the context and so share the list. Outside a request it records nothing.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from starlette.types import Receive, Scope, Send

from memgw.gateway.answer_headers import AnswerHeaders

HEADER = "Server-Timing"
# A step is a name and its duration in milliseconds, or a name and a description (``note``).
_steps: ContextVar[list[tuple[str, float | str]] | None] = ContextVar("server_timing_steps", default=None)


@contextmanager
def step(name: str) -> Iterator[None]:
    """Time the block as one step of the current request (a step taken twice is listed twice)."""
    steps = _steps.get()
    if steps is None:
        yield
        return
    start = time.perf_counter()
    try:
        yield
    finally:
        steps.append((name, (time.perf_counter() - start) * 1000))


def note(name: str, description: str) -> None:
    """Say how the current request went about a step (``order;desc=beside``), without a duration."""
    steps = _steps.get()
    if steps is not None:
        steps.append((name, description))


def _entry(name: str, value: float | str) -> str:
    return f"{name};desc={value}" if isinstance(value, str) else f"{name};dur={value:.2f}"


def header_value(steps: list[tuple[str, float | str]]) -> str:
    return ", ".join(_entry(name, value) for name, value in steps)


class ServerTiming(AnswerHeaders):
    """Give every HTTP answer the steps its request took, and ``app``: the time to its first byte."""

    async def handle(self, scope: Scope, receive: Receive, send: Send) -> None:
        steps: list[tuple[str, float | str]] = []
        token = _steps.set(steps)
        start = time.perf_counter()

        def timing() -> list[tuple[str, str]]:
            total: tuple[str, float | str] = ("app", (time.perf_counter() - start) * 1000)
            return [(HEADER, header_value([*steps, total]))]

        try:
            await self.answer_with(scope, receive, send, timing)
        finally:
            _steps.reset(token)
