"""A worker's pod is probed like the gateway's: ``memgw serve consolidator`` with ``MEMGW_HEALTH_PORT``
answers ``/healthz`` and ``/readyz`` (Postgres and the bus asked), and stops cleanly."""

from __future__ import annotations

import os
import signal
import uuid
from pathlib import Path

import httpx
import nats
from cryptography.fernet import Fernet

from memgw.common.bus import BusLayout, delete_streams
from memgw.launcher.embedded.process import free_port
from tests.infrastructure import create_database, drop_database
from tests.up_process import start_memgw, stop_up


async def test_a_worker_answers_its_probes(tmp_path: Path, pg_admin_url: str, nats_url: str) -> None:
    name = "pr" + uuid.uuid4().hex[:8]
    database_url = await create_database(pg_admin_url, f"memgw_{name}")
    port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("MEMGW_")} | {
        "MEMGW_DATABASE_URL": database_url,
        "MEMGW_NATS_URL": nats_url,
        "MEMGW_BUS_PREFIX": name,
        "MEMGW_CREDENTIALS_KEY": Fernet.generate_key().decode(),
        "MEMGW_DATA_DIR": str(tmp_path / "data"),
        "MEMGW_HEALTH_PORT": str(port),
        "MEMGW_LOG_FORMAT": "json",
    }
    proc, url, _ = await start_memgw(["serve", "consolidator"], env, tmp_path / "consolidator.log")
    try:
        assert url == ""  # no API: the port answers probes only
        async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}", timeout=10) as probes:
            alive = await probes.get("/healthz")
            ready = await probes.get("/readyz")
            api = await probes.get("/v1/memory")
        assert alive.status_code == 200, alive.text
        assert ready.status_code == 200, ready.text
        assert (ready.json()["database"], ready.json()["bus"]) == ("ok", "ok")
        assert api.status_code == 404
        assert await stop_up(proc, signal.SIGTERM) == 0
    finally:
        if proc.returncode is None:
            proc.kill()
            await proc.wait()
        nc = await nats.connect(nats_url)
        await delete_streams(nc, BusLayout(name))
        await nc.close()
        await drop_database(pg_admin_url, f"memgw_{name}")
