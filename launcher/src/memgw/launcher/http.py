"""Serve an ASGI app on a free loopback port for the length of a block (tests, benchmarks, fakes
of the world outside the machine)."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from typing import Any

import uvicorn

from memgw.launcher.embedded.process import free_port


@contextlib.asynccontextmanager
async def serve(app: Any, *, graceful_s: int = 3) -> AsyncIterator[str]:
    """Yield the base URL; open streams get ``graceful_s`` to close when the block ends."""
    port = free_port()
    config = uvicorn.Config(
        app, host="127.0.0.1", port=port, log_config=None, access_log=False, timeout_graceful_shutdown=graceful_s
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
