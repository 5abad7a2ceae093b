"""`memgw up` on a bare data dir: embedded NATS, embedded Postgres, Qdrant Edge; the README's curl
example works; Ctrl-C stops everything; a restart on the same data dir keeps every memory."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from pathlib import Path

import httpx
import pytest

from memgw.common.embedded.process import free_port, port_open


async def _start(data_dir: Path, port: int) -> tuple[asyncio.subprocess.Process, str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("MEMGW_")}
    env |= {"MEMGW_DATA_DIR": str(data_dir), "MEMGW_PORT": str(port), "MEMGW_LOG_FORMAT": "json"}
    proc = await asyncio.create_subprocess_exec(
        str(Path(sys.executable).parent / "memgw"),
        "up",
        env=env,
        stdout=asyncio.subprocess.PIPE,
        stderr=(data_dir.parent / "up.log").open("ab"),
    )
    assert proc.stdout is not None
    url = key = ""
    async with asyncio.timeout(90):
        while not key:
            line = (await proc.stdout.readline()).decode()
            assert line, f"memgw up exited early; see {data_dir.parent / 'up.log'}"
            if line.startswith("Memory Gateway is up at "):
                url = line.split(" at ", 1)[1].strip()
            if line.startswith("Admin API key: "):
                key = line.split(": ", 1)[1].strip()
    return proc, url, key


async def _stop(proc: asyncio.subprocess.Process, sig: signal.Signals) -> int:
    proc.send_signal(sig)
    async with asyncio.timeout(60):
        return await proc.wait()


def _embedded_ports(data_dir: Path) -> list[int]:
    pid_file = data_dir / "postgres" / "data" / "postmaster.pid"
    return [int(pid_file.read_text().splitlines()[3])] if pid_file.exists() else []


@pytest.mark.slow
async def test_up_serves_the_curl_example_stops_cleanly_and_keeps_data_across_restarts(tmp_path: Path) -> None:
    data_dir = tmp_path / "data"
    port = free_port()
    proc, url, key = await _start(data_dir, port)
    headers = {"Authorization": f"Bearer {key}"}
    try:
        async with httpx.AsyncClient(base_url=url, headers=headers, timeout=30) as client:
            body = {"content": "用户偏好中文输出。", "memory_type": "preference"}
            created = await client.post("/v1/memory", json=body)
            assert created.status_code == 201, created.text
            found = await client.post("/v1/memory/search", json={"query": "中文输出偏好", "limit": 3})
            assert found.json()["results"][0]["memory"]["id"] == created.json()["id"]
            pg_ports = _embedded_ports(data_dir)
            assert pg_ports
            assert port_open("127.0.0.1", pg_ports[0])
    finally:
        code = await _stop(proc, signal.SIGINT)
    assert code == 0
    assert not (data_dir / "postgres" / "data" / "postmaster.pid").exists()
    assert not port_open("127.0.0.1", pg_ports[0])

    proc, url, key_again = await _start(data_dir, port)
    try:
        assert key_again == key
        async with httpx.AsyncClient(base_url=url, headers=headers, timeout=30) as client:
            found = await client.post("/v1/memory/search", json={"query": "中文输出偏好", "limit": 3})
            assert found.json()["results"][0]["memory"]["id"] == created.json()["id"]
    finally:
        assert await _stop(proc, signal.SIGTERM) == 0
