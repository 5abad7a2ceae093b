"""Serve an ASGI app on a free loopback port for the length of a block (tests, benchmarks, fakes
of the world outside the machine)."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from typing import Any

import uvicorn

from memgw.launcher.embedded.process import free_port

# How long an idle connection stays open. Longer than clients keep idle connections (httpx: 5 s,
# the same as uvicorn's default): with equal timers the server may close a connection at the moment
# a client reuses it, and that request dies with a read error instead of being answered.
KEEP_ALIVE_S = 75


@contextlib.asynccontextmanager
async def serve(app: Any, *, graceful_s: int = 3) -> AsyncIterator[str]:
    """Yield the base URL; open streams get ``graceful_s`` to close when the block ends."""
    port = free_port()
    config = uvicorn.Config(
        app,
        host="127.0.0.1",
        port=port,
        log_config=None,
        access_log=False,
        timeout_graceful_shutdown=graceful_s,
        timeout_keep_alive=KEEP_ALIVE_S,
    )
    server = uvicorn.Server(config)
    task = asyncio.create_task(server.serve())
    while not server.started:
        if task.done():
            task.result()  # raises what stopped it
            raise RuntimeError("the server stopped before it started")
        await asyncio.sleep(0.01)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        await task
