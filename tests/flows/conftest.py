"""Flows with sync-workers in processes of their own, on a bus prefix of their own."""

from __future__ import annotations

import contextlib
import uuid
from collections.abc import AsyncIterator
from pathlib import Path

import pytest_asyncio

from memgw.common.runtime import Infra
from memgw.gateway.services import Services, services_for
from memgw.launcher.runtime import open_infra, run_services
from tests.conftest import StageWatcher, watch_stages
from tests.infrastructure import forget_streams, make_settings, private_install


@pytest_asyncio.fixture
async def bus_infra(work_dir: Path, database_url: str, nats_url: str) -> AsyncIterator[Infra]:
    prefix = "c" + uuid.uuid4().hex[:8]
    settings = make_settings(
        data_dir=work_dir / f"bus-{prefix}", database_url=database_url, nats_url=nats_url, prefix=prefix
    )
    async with open_infra(settings) as infra, run_services(infra, []):  # relay only: no worker in this process
        yield infra
    await forget_streams(settings)


@pytest_asyncio.fixture
async def bus_watcher(bus_infra: Infra) -> AsyncIterator[StageWatcher]:
    async with watch_stages(bus_infra) as watcher:
        yield watcher


@pytest_asyncio.fixture
async def private_infra(work_dir: Path, pg_admin_url: str, nats_url: str) -> AsyncIterator[Infra]:
    """A database and bus prefix of its own: for tests that act on every row (auto-fetch)."""
    async with private_install(work_dir, pg_admin_url, nats_url) as infra:
        yield infra


@contextlib.asynccontextmanager
async def gateway_services(infra: Infra) -> AsyncIterator[Services]:
    """The gateway's services on this process's infrastructure, without its HTTP app."""
    services = services_for(infra)
    try:
        yield services
    finally:
        await services.close()
