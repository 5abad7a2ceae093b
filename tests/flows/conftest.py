"""Flows with sync-workers in processes of their own, on a bus prefix of their own."""

from __future__ import annotations

import contextlib
import uuid
from collections.abc import AsyncIterator
from pathlib import Path

import nats
import pytest_asyncio

from memgw.common.bus import delete_streams
from memgw.common.runtime import Infra
from memgw.gateway.services import Services, services_for
from memgw.launcher.runtime import open_infra, run_services
from tests.conftest import StageWatcher, watch_stages
from tests.infrastructure import create_database, drop_database, layout_of, make_settings


@pytest_asyncio.fixture
async def bus_infra(work_dir: Path, database_url: str, nats_url: str) -> AsyncIterator[Infra]:
    prefix = "c" + uuid.uuid4().hex[:8]
    settings = make_settings(
        data_dir=work_dir / f"bus-{prefix}", database_url=database_url, nats_url=nats_url, prefix=prefix
    )
    async with open_infra(settings) as infra, run_services(infra, []):  # relay only: no worker in this process
        yield infra
    nc = await nats.connect(nats_url)
    await delete_streams(nc, layout_of(settings))
    await nc.close()


@pytest_asyncio.fixture
async def bus_watcher(bus_infra: Infra) -> AsyncIterator[StageWatcher]:
    async with watch_stages(bus_infra) as watcher:
        yield watcher


@pytest_asyncio.fixture
async def private_infra(work_dir: Path, pg_admin_url: str, nats_url: str) -> AsyncIterator[Infra]:
    """A database and bus prefix of its own: for tests that act on every row (auto-fetch)."""
    name = "p" + uuid.uuid4().hex[:8]
    url = await create_database(pg_admin_url, f"memgw_{name}")
    settings = make_settings(data_dir=work_dir / f"private-{name}", database_url=url, nats_url=nats_url, prefix=name)
    async with open_infra(settings) as infra:
        yield infra
    nc = await nats.connect(nats_url)
    await delete_streams(nc, layout_of(settings))
    await nc.close()
    await drop_database(pg_admin_url, f"memgw_{name}")


@contextlib.asynccontextmanager
async def gateway_services(infra: Infra) -> AsyncIterator[Services]:
    """The gateway's services on this process's infrastructure, without its HTTP app."""
    services = services_for(infra)
    try:
        yield services
    finally:
        await services.close()
