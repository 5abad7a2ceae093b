"""Fault campaign, embedded default: the servers `memgw up` started for itself are killed with -9
under it. Each is started again on its own address, the gateway answers again without a restart,
and nothing written before is lost; a server that cannot come back ends `memgw up` with exit code 1
and a message that names it (never a process answering 503 for good)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import uuid
from collections.abc import Callable
from pathlib import Path

import httpx
import pytest

from memgw.launcher.embedded.process import free_port
from tests.up_process import start_up, stop_up

pytestmark = pytest.mark.slow


def _postmaster_pid(data_dir: Path) -> int:
    return int((data_dir / "postgres" / "data" / "postmaster.pid").read_text().splitlines()[0])


def _nats_pid(data_dir: Path) -> int:
    return int((data_dir / "nats" / "nats-server.pid").read_text().strip())


async def _ready_again(client: httpx.AsyncClient, killed: int, pid_of: Callable[[Path], int], data_dir: Path) -> None:
    """Wait until the gateway is ready on a server that is not the one killed."""
    async with asyncio.timeout(90):
        while True:
            with contextlib.suppress(httpx.TransportError, OSError, ValueError, IndexError):
                if (await client.get("/readyz")).status_code == 200 and pid_of(data_dir) != killed:
                    return
            await asyncio.sleep(0.5)


async def _write_and_find(client: httpx.AsyncClient, text: str) -> str:
    async with asyncio.timeout(60):  # the pool's first connections after an outage may still fail
        while True:
            created = await client.post("/v1/memory", json={"content": text})
            if created.status_code == 201:
                break
            assert created.status_code == 503, created.text
            await asyncio.sleep(0.5)
    memory_id = str(created.json()["id"])
    found = await client.post("/v1/memory/search", json={"query": text, "limit": 10})
    assert memory_id in [hit["memory"]["id"] for hit in found.json()["results"]]
    return memory_id


async def test_killed_embedded_servers_come_back_and_one_that_cannot_ends_up_with_a_reason(tmp_path: Path) -> None:
    data_dir = tmp_path / "data"
    proc, url, key = await start_up(data_dir, free_port())
    clean_exit = False
    try:
        async with httpx.AsyncClient(base_url=url, headers={"Authorization": f"Bearer {key}"}, timeout=30) as client:
            before = await _write_and_find(client, f"written before the faults {uuid.uuid4().hex[:6]}")

            postmaster = _postmaster_pid(data_dir)
            os.kill(postmaster, signal.SIGKILL)
            await _ready_again(client, postmaster, _postmaster_pid, data_dir)
            await _write_and_find(client, f"written after Postgres came back {uuid.uuid4().hex[:6]}")

            nats_server = _nats_pid(data_dir)
            os.kill(nats_server, signal.SIGKILL)
            await _ready_again(client, nats_server, _nats_pid, data_dir)
            await _write_and_find(client, f"written after NATS came back {uuid.uuid4().hex[:6]}")
            assert (await client.get(f"/v1/memory/{before}")).status_code == 200

            # Postgres dies and its cluster is gone: nothing can start it again.
            pgdata = data_dir / "postgres" / "data"
            postmaster = _postmaster_pid(data_dir)
            os.kill(postmaster, signal.SIGKILL)
            pgdata.rename(pgdata.with_name("data.moved"))
        async with asyncio.timeout(150):
            code = await proc.wait()
        clean_exit = True
    finally:
        if not clean_exit:
            await stop_up(proc, signal.SIGKILL)
    log = (tmp_path / "up.log").read_text(errors="replace")
    assert code == 1, log[-3000:]
    assert "the embedded postgres server died and could not be started again" in log
    assert "embedded.postgres.restarted" in log
    assert "embedded.nats.restarted" in log


def _tree(pid: int) -> list[int]:
    """A process and all its descendants (a postmaster and its backends)."""
    found = [pid]
    for task in Path(f"/proc/{pid}/task").iterdir():
        with contextlib.suppress(OSError, ValueError):
            for child in (task / "children").read_text().split():
                found += _tree(int(child))
    return found


def _signal_all(pids: list[int], sig: signal.Signals) -> None:
    for pid in pids:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, sig)


@pytest.mark.timeout(600)  # the bus stays frozen for three minutes
async def test_frozen_servers_are_outages_waited_out_not_hangs(tmp_path: Path) -> None:
    """Postgres frozen (SIGSTOP, every backend with it): requests answer 503 instead of hanging, the
    process stays alive, and all is well once it thaws. NATS frozen for 3 minutes: writes and sync
    requests go on (the outbox keeps their events), and once it thaws the sync requested meanwhile
    runs to completion."""
    data_dir = tmp_path / "data"
    (tmp_path / "notes").mkdir()
    (tmp_path / "notes" / "thaw.md").write_text("Requested while the bus was frozen, synced after it thawed.")
    roots = json.dumps({"*": [str(tmp_path / "notes")]})
    proc, url, key = await start_up(data_dir, free_port(), MEMGW_FOLDER_ROOTS=roots)
    try:
        headers = {"Authorization": f"Bearer {key}"}
        async with httpx.AsyncClient(base_url=url, headers=headers, timeout=90) as client:
            before = await _write_and_find(client, f"before the freeze {uuid.uuid4().hex[:6]}")

            frozen = _tree(_postmaster_pid(data_dir))
            _signal_all(frozen, signal.SIGSTOP)
            try:
                answer = await client.get(f"/v1/memory/{before}")
                assert answer.status_code == 503, answer.text
                assert "Retry-After" in answer.headers
                assert (await client.get("/healthz")).status_code == 200  # alive, only not ready
            finally:
                _signal_all(frozen, signal.SIGCONT)
            await _write_and_find(client, f"after Postgres thawed {uuid.uuid4().hex[:6]}")

            source = {"id": "thaw", "kind": "Folder", "fields": {"path": str(tmp_path / "notes")}}
            nats_server = _nats_pid(data_dir)
            os.kill(nats_server, signal.SIGSTOP)
            try:
                await asyncio.sleep(60)
                during = await _write_and_find(client, f"while NATS is frozen {uuid.uuid4().hex[:6]}")
                created = await client.post("/v1/sources", json=source)
                assert created.status_code == 201, created.text
                requested = await client.post("/v1/sources/thaw/sync")
                assert requested.status_code == 202, requested.text
                run = requested.json()["run"]["id"]
                await asyncio.sleep(120)  # three minutes in all
            finally:
                os.kill(nats_server, signal.SIGCONT)
            async with asyncio.timeout(180):
                while (state := (await client.get(f"/v1/sources/thaw/runs/{run}")).json())["stage"] != "Completed":
                    assert state["stage"] != "Failed", state
                    await asyncio.sleep(1)
            assert (await client.get(f"/v1/memory/{during}")).status_code == 200
            assert (await client.get("/readyz")).status_code == 200
    finally:
        assert await stop_up(proc, signal.SIGINT) == 0
