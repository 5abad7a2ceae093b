"""Cross-service fixtures: the whole system in this process, on the run's NATS and Postgres."""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import nats
import pytest
import pytest_asyncio

from memgw.common.events import Subject
from memgw.common.runtime import Infra
from memgw.gateway.identity import ensure_admin_key
from memgw.launcher.compose import SERVICES
from memgw.launcher.http import serve
from memgw.launcher.runtime import run_services


@dataclass
class System:
    infra: Infra
    client: httpx.AsyncClient
    admin_key: str
    app: Any = None

    def auth(self, key: str | None = None) -> dict[str, str]:
        return {"Authorization": f"Bearer {key or self.admin_key}"}

    @property
    def url(self) -> str:
        return str(self.client.base_url).rstrip("/")

    async def admin(self, method: str, path: str, **kwargs: Any) -> Any:
        response = await self.client.request(method, path, headers=self.auth(), **kwargs)
        assert response.status_code < 300, (path, response.status_code, response.text)
        return response.json()

    async def user(self, user_id: str, *, trusted: bool = False) -> str:
        """Create a user and return a key of its own (not bound to an agent)."""
        await self.admin("POST", "/v1/users", json={"user_id": user_id, "is_trusted": trusted})
        return str((await self.admin("POST", "/v1/keys", json={"user_id": user_id}))["api_key"])

    async def folder_source(self, key: str, source_id: str, path: Path, **extra: Any) -> dict[str, Any]:
        body = {"id": source_id, "kind": "Folder", "fields": {"path": str(path)}, **extra}
        response = await self.client.post("/v1/sources", json=body, headers=self.auth(key))
        assert response.status_code == 201, response.text
        return dict(response.json())

    async def sync(self, key: str, source_id: str, watcher: StageWatcher) -> dict[str, Any]:
        """Request a sync and wait for its final stage event."""
        answer = await self.client.post(f"/v1/sources/{source_id}/sync", headers=self.auth(key))
        assert answer.status_code == 202, answer.text
        return await watcher.wait_final(answer.json()["run"]["id"])

    async def agent(self, user_id: str, agent_id: str, memory_sources: list[str] | None = None) -> str:
        """Create an agent of the user and return a key bound to it."""
        body: dict[str, Any] = {"agent_id": agent_id, "owner_user_id": user_id}
        if memory_sources is not None:
            body["memory_sources"] = memory_sources
        await self.admin("POST", "/v1/agents", json=body)
        key = await self.admin("POST", "/v1/keys", json={"user_id": user_id, "agent_id": agent_id})
        return str(key["api_key"])


@contextlib.asynccontextmanager
async def running_system(infra: Infra) -> AsyncIterator[System]:
    """All four services in this process, the gateway served by uvicorn on a loopback port (real
    HTTP, so the MCP endpoint's lifespan runs as in production)."""
    parts = [build(infra) for build in SERVICES.values()]
    admin_key = await ensure_admin_key(infra.pool, infra.settings.data.data_dir, None)
    async with run_services(infra, parts):
        app = next(p.app for p in parts if p.app is not None)
        async with serve(app) as url, httpx.AsyncClient(base_url=url, timeout=30) as client:
            yield System(infra, client, admin_key, app)


@pytest_asyncio.fixture(scope="session")
async def system(infra: Infra) -> AsyncIterator[System]:
    async with running_system(infra) as system:
        yield system


@pytest.fixture
def passages_embedded(system: System, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every passage text that reaches the embedder while the test runs (reused ones never do)."""
    embedded: list[str] = []
    inner = system.infra.embedder.embed_passages

    async def counting(texts: Any) -> list[list[float]]:
        embedded.extend(texts)
        return await inner(texts)

    monkeypatch.setattr(system.infra.embedder, "embed_passages", counting)
    return embedded


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


@contextlib.asynccontextmanager
async def watch_stages(infra: Infra) -> AsyncIterator[StageWatcher]:
    """Collect the install's MemorySyncStageChanged events while the block runs."""
    watcher = StageWatcher()
    nc = await nats.connect(infra.nats_url)

    async def on_msg(msg: Any) -> None:
        watcher.events.append(json.loads(msg.data))
        watcher.changed.set()

    await nc.subscribe(infra.layout.subject(Subject.SYNC_STAGE), cb=on_msg)
    try:
        yield watcher
    finally:
        await nc.close()


@pytest_asyncio.fixture
async def stage_watcher(infra: Infra) -> AsyncIterator[StageWatcher]:
    async with watch_stages(infra) as watcher:
        yield watcher
