"""Live progress for people: SSE and WebSocket relay stage events, filtered to what the caller may
see; `memgw sources sync ID --follow` shows a progress bar until the end."""

from __future__ import annotations

import asyncio
import json
import os
import sys
import uuid
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.asyncio.client import connect as ws_connect
from websockets.exceptions import InvalidStatus

from memgw.common.db.outbox import NOTIFY_CHANNEL, enqueue
from memgw.common.events import MemorySyncStageChanged, SyncCounts, SyncStage
from tests.conftest import System


async def _sse(
    client: httpx.AsyncClient,
    headers: dict[str, str],
    out: list[dict[str, Any]],
    ready: asyncio.Event,
    source_id: str | None = None,
) -> None:
    params = {"source_id": source_id} if source_id else {}
    async with client.stream("GET", "/v1/events", headers=headers, params=params, timeout=None) as stream:
        async for line in stream.aiter_lines():
            if line.startswith(": connected"):
                ready.set()
            elif line.startswith("data: "):
                out.append(json.loads(line[6:]))


@pytest.fixture
async def two_users(system: System) -> tuple[str, str]:
    return await system.user(f"live_{uuid.uuid4().hex[:8]}"), await system.user(f"peek_{uuid.uuid4().hex[:8]}")


async def test_sse_and_websocket_relay_stages_only_to_those_who_may_see_them(
    system: System, two_users: tuple[str, str], files_dir: Path
) -> None:
    owner, outsider = two_users
    (files_dir / "a.md").write_text("进度 progress")
    sid = f"live-{files_dir.name}"
    await system.folder_source(owner, sid, files_dir)
    seen: dict[str, list[dict[str, Any]]] = {"owner": [], "outsider": [], "ws": []}
    ready = {name: asyncio.Event() for name in seen}
    tasks = [
        asyncio.create_task(_sse(system.client, system.auth(owner), seen["owner"], ready["owner"], sid)),
        asyncio.create_task(_sse(system.client, system.auth(outsider), seen["outsider"], ready["outsider"])),
    ]
    ws_url = system.url.replace("http://", "ws://") + "/v1/events/ws"

    async def websocket() -> None:
        async with ws_connect(f"{ws_url}?api_key={owner}") as ws:
            ready["ws"].set()
            while True:
                event = json.loads(await ws.recv())
                seen["ws"].append(event)
                if event["stage"] in ("Completed", "Failed"):
                    return

    tasks.append(asyncio.create_task(websocket()))
    try:
        async with asyncio.timeout(20):
            for event in ready.values():
                await event.wait()
        await asyncio.sleep(0.2)  # the relay's NATS subscription is live
        run_id = (await system.client.post(f"/v1/sources/{sid}/sync", headers=system.auth(owner))).json()["run"]["id"]
        async with asyncio.timeout(30):
            while not any(e["run_id"] == run_id and e["stage"] == "Completed" for e in seen["owner"]):
                await asyncio.sleep(0.05)
            await tasks[2]
        await asyncio.sleep(0.3)
    finally:
        for task in tasks:
            task.cancel()
    stages = [e["stage"] for e in seen["owner"] if e["run_id"] == run_id]
    assert stages[:4] == ["Requested", "Fetching", "Stored", "Ingesting"]
    assert stages[-1] == "Completed"
    assert [e["stage"] for e in seen["ws"] if e["run_id"] == run_id] == stages
    assert not [e for e in seen["outsider"] if e["connection_id"] == sid]


async def test_an_event_the_outbox_publishes_again_reaches_a_listener_once(system: System, files_dir: Path) -> None:
    """A relay that dies between publishing a row and marking it leaves the row to be published again,
    with the same id: JetStream keeps one copy, and so must the gateway's plain subscription."""
    uid = f"once_{uuid.uuid4().hex[:8]}"
    owner = await system.user(uid)
    sid = f"once-{files_dir.name}"
    await system.folder_source(owner, sid, files_dir)
    infra = system.infra

    def stage(stage: SyncStage) -> MemorySyncStageChanged:
        return MemorySyncStageChanged(
            run_id="run_once", connection_id=sid, owner_user_id=uid, stage=stage, counts=SyncCounts()
        )

    async def announce(event: MemorySyncStageChanged) -> None:
        async with infra.pool.acquire() as conn, conn.transaction():
            await enqueue(conn, infra.layout, event)

    seen: list[dict[str, Any]] = []
    ready = asyncio.Event()
    task = asyncio.create_task(_sse(system.client, system.auth(owner), seen, ready, sid))
    try:
        async with asyncio.timeout(30):
            await ready.wait()
            await asyncio.sleep(0.2)  # the relay's NATS subscription is live
            first = stage(SyncStage.INGESTING)
            await announce(first)
            while not seen:
                await asyncio.sleep(0.05)
            # the mark is lost, as when its relay died before committing: the row goes out again
            await infra.pool.execute("UPDATE outbox SET published_at = NULL WHERE msg_id = $1", first.id)
            await infra.pool.execute(f"NOTIFY {NOTIFY_CHANNEL}")
            while await infra.pool.fetchval("SELECT published_at IS NULL FROM outbox WHERE msg_id = $1", first.id):
                await asyncio.sleep(0.05)
            await announce(stage(SyncStage.COMPLETED))  # published after the copy, so seen after it
            while len({e["stage"] for e in seen}) < 2:
                await asyncio.sleep(0.05)
    finally:
        task.cancel()
    assert [e["stage"] for e in seen] == ["Ingesting", "Completed"]


async def test_a_websocket_without_a_valid_key_is_closed(system: System) -> None:
    ws_url = system.url.replace("http://", "ws://") + "/v1/events/ws?api_key=wrong"
    with pytest.raises((InvalidStatus, Exception)):
        async with ws_connect(ws_url) as ws:
            await asyncio.wait_for(ws.recv(), 5)


async def test_the_cli_follows_a_sync_to_its_end(system: System, two_users: tuple[str, str], files_dir: Path) -> None:
    owner, _ = two_users
    for n in range(3):
        (files_dir / f"{n}.md").write_text(f"file {n} 文件")
    sid = f"cli-{files_dir.name}"
    await system.folder_source(owner, sid, files_dir)
    env = {**os.environ, "MEMGW_URL": system.url, "MEMGW_API_KEY": owner, "MEMGW_LOG_FORMAT": "json"}
    proc = await asyncio.create_subprocess_exec(
        str(Path(sys.executable).parent / "memgw"),
        "sources",
        "sync",
        sid,
        "--follow",
        env=env,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    out, err = await asyncio.wait_for(proc.communicate(), 60)
    assert proc.returncode == 0, err.decode()
    assert out.decode().startswith("Completed:")
    assert '"items_new": 3' in out.decode()
    listing = await asyncio.create_subprocess_exec(
        str(Path(sys.executable).parent / "memgw"), "sources", "list", env=env, stdout=asyncio.subprocess.PIPE
    )
    listed, _ = await listing.communicate()
    assert sid in listed.decode()
