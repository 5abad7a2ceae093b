"""A simulated cluster on one machine: the services as separate `memgw serve` processes — two
gateways, two sync-workers, one consolidator — on the run's NATS and a database of their own, with
the embedded index owned by the first process and reached by the others through the bus.

A burst of syncs and searches is spread over both gateways; one gateway is killed with -9 in the
middle of it, and its requests go to the other (as a load balancer would send them). Every run is
worked once, progress reaches a client on either gateway, nothing requested is lost, and what the
workers ingested is found by a search on the surviving gateway."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import uuid
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
import nats
import pytest
from cryptography.fernet import Fernet

from memgw.common.bus import BusLayout, delete_streams
from memgw.launcher.embedded.process import free_port
from tests.infrastructure import create_database, drop_database
from tests.up_process import start_memgw, stop_up

pytestmark = pytest.mark.slow

SOURCES, FILES = 8, 3
TOPICS = [  # one subject per source, so a search can tell them apart (near-duplicates fold into one hit)
    "apple orchards in autumn",
    "steel bridge engineering",
    "tide pools and starfish",
    "violin making with spruce",
    "glacier hiking in Iceland",
    "sourdough bread baking",
    "railway timetables of Japan",
    "beekeeping and honey harvest",
]


async def _follow(url: str, key: str, seen: dict[str, list[str]], ready: asyncio.Event) -> None:
    """An SSE client of one gateway: every stage event, by run."""
    async with (
        httpx.AsyncClient(base_url=url, timeout=None) as client,
        client.stream("GET", "/v1/events", headers={"Authorization": f"Bearer {key}"}) as stream,
    ):
        ready.set()
        async for line in stream.aiter_lines():
            if line.startswith("data: "):
                event = json.loads(line[6:])
                seen.setdefault(event["run_id"], []).append(event["stage"])


async def _request(clients: list[httpx.AsyncClient], method: str, path: str, **kw: Any) -> httpx.Response:
    """Send to the first gateway that answers (what a load balancer does when a replica dies)."""
    for client in clients:
        with contextlib.suppress(httpx.TransportError):
            return await client.request(method, path, **kw)
    raise AssertionError(f"no gateway answered {method} {path}")


@contextlib.asynccontextmanager
async def _cluster(tmp_path: Path, pg_admin_url: str, nats_url: str) -> AsyncIterator[dict[str, Any]]:
    name = "cl" + uuid.uuid4().hex[:8]
    database_url = await create_database(pg_admin_url, f"memgw_{name}")
    admin_key = "mgw_admin_" + uuid.uuid4().hex
    base = {k: v for k, v in os.environ.items() if not k.startswith("MEMGW_")} | {
        "MEMGW_DATABASE_URL": database_url,
        "MEMGW_NATS_URL": nats_url,
        "MEMGW_BUS_PREFIX": name,
        "MEMGW_BUS_ACK_WAIT_S": "3",
        "MEMGW_ADMIN_API_KEY": admin_key,
        "MEMGW_CREDENTIALS_KEY": Fernet.generate_key().decode(),
        "MEMGW_FOLDER_ROOTS": json.dumps({"*": [str(tmp_path)]}),
        "MEMGW_AUTOFETCH_CADENCE_S": "{}",
        "MEMGW_LOG_FORMAT": "json",
    }
    procs: dict[str, asyncio.subprocess.Process] = {}
    urls: list[str] = []
    try:
        # The consolidator first: it takes ownership of the install's embedded index.
        for role, service in [("consolidator", "consolidator"), ("gw0", "gateway"), ("gw1", "gateway")] + [
            (f"worker{n}", "sync-worker") for n in range(2)
        ]:
            env = base | {"MEMGW_DATA_DIR": str(tmp_path / role), "MEMGW_PORT": str(free_port())}
            procs[role], url, _ = await start_memgw(["serve", service], env, tmp_path / f"{role}.log")
            if url:
                urls.append(url)
        yield {"procs": procs, "urls": urls, "admin": admin_key, "logs": tmp_path, "prefix": name}
    finally:
        for proc in procs.values():
            if proc.returncode is None:
                await stop_up(proc, signal.SIGINT)
        nc = await nats.connect(nats_url)
        await delete_streams(nc, BusLayout(name))
        await nc.close()
        await drop_database(pg_admin_url, f"memgw_{name}")


async def test_a_burst_over_two_gateways_survives_one_killed(tmp_path: Path, pg_admin_url: str, nats_url: str) -> None:
    async with _cluster(tmp_path, pg_admin_url, nats_url) as cluster:
        procs, urls, admin = cluster["procs"], cluster["urls"], cluster["admin"]
        auth = {"Authorization": f"Bearer {admin}"}
        gw0, gw1 = (httpx.AsyncClient(base_url=u, headers=auth, timeout=60) for u in urls)
        on = [{}, {}]  # stage events seen by an SSE client of each gateway
        ready = [asyncio.Event(), asyncio.Event()]
        followers = [asyncio.create_task(_follow(u, admin, on[n], ready[n])) for n, u in enumerate(urls)]
        try:
            await asyncio.gather(*(r.wait() for r in ready))
            sources = []
            for n in range(SOURCES):
                folder = tmp_path / f"folder{n}"
                folder.mkdir()
                for f in range(FILES):
                    text = f"Notes on {TOPICS[n]}, part {f}: what we learned about {TOPICS[n]} 集群笔记. "
                    (folder / f"{f}.md").write_text(text * 6)
                body = {"id": f"src{n}", "kind": "Folder", "fields": {"path": str(folder)}}
                created = await (gw0 if n % 2 else gw1).post("/v1/sources", json=body)
                assert created.status_code == 201, created.text
                sources.append(body["id"])

            runs: dict[str, str] = {}
            for n, source in enumerate(sources):
                if n == SOURCES // 2 + 1:
                    procs["gw1"].send_signal(signal.SIGKILL)  # mid-burst; later requests fail over
                    await procs["gw1"].wait()
                order = [gw1, gw0] if n % 2 else [gw0, gw1]
                answer = await _request(order, "POST", f"/v1/sources/{source}/sync")
                assert answer.status_code == 202, answer.text
                runs[source] = answer.json()["run"]["id"]
                searched = await _request(order, "POST", "/v1/memory/search", json={"query": "集群笔记"})
                assert searched.status_code == 200, searched.text

            async with asyncio.timeout(180):  # every run ends, seen by the surviving gateway's client
                while not all(
                    "Completed" in on[0].get(run, []) or "Failed" in on[0].get(run, []) for run in runs.values()
                ):
                    await asyncio.sleep(0.5)
            for source, run in runs.items():
                state = (await gw0.get(f"/v1/sources/{source}/runs/{run}")).json()
                assert state["stage"] == "Completed", state
                assert on[0][run].count("Completed") == 1, (source, on[0][run])
            # progress of runs requested through gw0 reached the client on gw1 while gw1 lived
            early = [runs[s] for n, s in enumerate(sources[: SOURCES // 2]) if n % 2 == 0]
            assert any(run in on[1] for run in early)
            for n, source in enumerate(sources):
                found = await gw0.post("/v1/memory/search", json={"query": TOPICS[n], "limit": 10})
                assert source in {h["memory"]["source_id"] for h in found.json()["results"]}, source
            worked = [log.read_text() for log in (cluster["logs"] / "worker0.log", cluster["logs"] / "worker1.log")]
            assert all('"sync.stage"' in text for text in worked), "both workers took part"
        finally:
            for task in followers:
                task.cancel()
            await gw0.aclose()
            await gw1.aclose()
