"""Cross-service fixtures: the whole system in this process, on the run's NATS and Postgres."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any

import httpx
import nats
import pytest_asyncio

from memgw.common.events import Subject
from memgw.common.runtime import Infra, run_services
from memgw.gateway.identity import ensure_admin_key
from memgw.launcher.compose import SERVICES


@dataclass
class System:
    infra: Infra
    client: httpx.AsyncClient
    admin_key: str

    def auth(self, key: str | None = None) -> dict[str, str]:
        return {"Authorization": f"Bearer {key or self.admin_key}"}


@pytest_asyncio.fixture(scope="session")
async def system(infra: Infra) -> AsyncIterator[System]:
    parts = [build(infra) for build in SERVICES.values()]
    admin_key = await ensure_admin_key(infra.pool, infra.settings.data.data_dir, None)
    async with run_services(infra, parts):
        app = next(p.app for p in parts if p.app is not None)
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://gateway") as client:
            yield System(infra, client, admin_key)


@dataclass
class StageWatcher:
    """Collects MemorySyncStageChanged events straight off NATS."""

    events: list[dict[str, Any]] = field(default_factory=list)
    changed: asyncio.Event = field(default_factory=asyncio.Event)

    def stages(self, run_id: str) -> list[str]:
        return [e["stage"] for e in self.events if e["run_id"] == run_id]

    async def wait_final(self, run_id: str, timeout: float = 60.0) -> dict[str, Any]:
        async def final() -> dict[str, Any]:
            while True:
                for e in self.events:
                    if e["run_id"] == run_id and e["stage"] in ("Completed", "Failed"):
                        return e
                self.changed.clear()
                await self.changed.wait()

        return await asyncio.wait_for(final(), timeout)


@pytest_asyncio.fixture
async def stage_watcher(infra: Infra) -> AsyncIterator[StageWatcher]:
    watcher = StageWatcher()
    nc = await nats.connect(infra.nats_url)

    async def on_msg(msg: Any) -> None:
        watcher.events.append(json.loads(msg.data))
        watcher.changed.set()

    await nc.subscribe(infra.layout.subject(Subject.SYNC_STAGE), cb=on_msg)
    yield watcher
    await nc.close()
