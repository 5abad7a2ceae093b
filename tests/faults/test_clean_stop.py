"""Ctrl-C while people follow live progress and an MCP client holds its stream: every stream is told
and ended first (SSE gets its ``closed`` event, a WebSocket the 1001 "going away" close, the MCP
session is terminated), then the server stops, with no traceback and exit code 0."""

from __future__ import annotations

import asyncio
import contextlib
import signal
from collections.abc import AsyncIterator
from pathlib import Path

import httpx
import pytest
from websockets.asyncio.client import connect as ws_connect
from websockets.exceptions import ConnectionClosed

from memgw.launcher.embedded.process import free_port
from tests.up_process import start_up, stop_up

MCP_VERSION = "2025-06-18"


@contextlib.asynccontextmanager
async def _mcp_stream(client: httpx.AsyncClient, auth: dict[str, str]) -> AsyncIterator[httpx.Response]:
    """An MCP session over streamable HTTP, with the GET stream a client keeps open for the server."""
    h = {**auth, "Accept": "application/json, text/event-stream"}
    hello = {"protocolVersion": MCP_VERSION, "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}
    init = await client.post(
        "/mcp", json={"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": hello}, headers=h
    )
    assert init.status_code == 200, init.text
    h |= {"mcp-session-id": init.headers["mcp-session-id"], "mcp-protocol-version": MCP_VERSION}
    await client.post("/mcp", json={"jsonrpc": "2.0", "method": "notifications/initialized"}, headers=h)
    async with client.stream("GET", "/mcp", headers={**h, "Accept": "text/event-stream"}) as stream:
        assert stream.status_code == 200
        yield stream


async def test_ctrl_c_closes_live_streams_first_and_leaves_no_traceback(tmp_path: Path) -> None:
    proc, url, key = await start_up(tmp_path / "data", free_port())
    try:
        auth = {"Authorization": f"Bearer {key}"}
        async with (
            httpx.AsyncClient(base_url=url, timeout=30) as client,
            _mcp_stream(client, auth) as mcp,
            client.stream("GET", "/v1/events", headers=auth) as sse,
            ws_connect(url.replace("http://", "ws://") + "/v1/events/ws", additional_headers=auth) as ws,
        ):
            lines = sse.aiter_lines()
            assert await anext(lines) == ": connected"
            exit_code = asyncio.create_task(stop_up(proc, signal.SIGINT))
            said = [line async for line in lines if line]
            with pytest.raises(ConnectionClosed) as closed:
                async with asyncio.timeout(30):
                    await ws.recv()
            assert closed.value.rcvd is not None
            assert closed.value.rcvd.code == 1001
            async with asyncio.timeout(30):
                assert [line async for line in mcp.aiter_lines() if line.startswith("data:")] == []
            assert await exit_code == 0
        assert said[0] == "event: closed", said
        assert "shutting down" in said[1], said
        log = (tmp_path / "up.log").read_text()
        assert "Traceback" not in log, log[-3000:]
        assert "CancelledError" not in log, log[-3000:]
    finally:
        if proc.returncode is None:
            proc.kill()
            await proc.wait()
