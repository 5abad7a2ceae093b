"""pytest fixtures: real NATS JetStream and real Postgres, isolated per test run.

The servers on 127.0.0.1 (4222, 5432) are used when they answer; otherwise the fixtures start the
same embedded ones ``memgw up`` uses. Each run gets its own database and its own bus prefix (so its
own subjects and streams): parallel or repeated runs never see each other's data.
"""

from __future__ import annotations

import _posixsubprocess
import contextlib
import os
import subprocess
import uuid
from collections.abc import AsyncIterator, Mapping
from pathlib import Path

import asyncpg
import nats
import pytest
import pytest_asyncio

from memgw.common.bus import BusLayout, delete_streams
from memgw.common.logging import configure_logging
from memgw.common.runtime import Infra
from memgw.common.settings import (
    DataSettings,
    EmbedderSettings,
    IndexSettings,
    LogSettings,
    NatsSettings,
    PostgresSettings,
    Settings,
    SourceSettings,
    VaultSettings,
)
from memgw.launcher.embedded.nats import EmbeddedNats
from memgw.launcher.embedded.postgres import EmbeddedPostgres
from memgw.launcher.embedded.process import port_open
from memgw.launcher.runtime import open_infra

LOCAL_NATS = os.environ.get("MEMGW_TEST_NATS_URL", "nats://127.0.0.1:4222")
LOCAL_PG = os.environ.get("MEMGW_TEST_PG_ADMIN_URL", "postgresql://postgres@127.0.0.1:5432/postgres")


def _host_port(url: str) -> tuple[str, int]:
    hostport = url.split("//", 1)[1].split("/", 1)[0].rsplit("@", 1)[-1]
    host, port = hostport.rsplit(":", 1)
    return host, int(port)


@pytest.fixture(autouse=True)
def unit_tests_start_no_process(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """The unit tier promises to start no process: a test marked ``unit`` that tries fails at once.

    Every way out of this process ends in one of these calls: ``subprocess`` and asyncio's
    subprocesses in ``subprocess``'s own reference to ``fork_exec``, multiprocessing in
    ``fork_exec`` or ``fork``."""
    if request.node.get_closest_marker("unit") is not None:

        def refuse(*_args: object, **_kwargs: object) -> None:
            raise AssertionError("a unit test started a process: mark it for the integration tier instead")

        monkeypatch.setattr(_posixsubprocess, "fork_exec", refuse)
        monkeypatch.setattr(subprocess, "_fork_exec", refuse)
        for name in ("fork", "forkpty", "posix_spawn", "posix_spawnp"):
            monkeypatch.setattr(os, name, refuse)


@pytest.fixture(scope="session")
def run_id() -> str:
    return "t" + uuid.uuid4().hex[:10]


@pytest.fixture(scope="session")
def work_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("memgw")


@pytest_asyncio.fixture(scope="session")
async def nats_url(work_dir: Path) -> AsyncIterator[str]:
    if port_open(*_host_port(LOCAL_NATS)):
        yield LOCAL_NATS
        return
    nats = EmbeddedNats(work_dir / "embedded")
    url = await nats.start()
    yield url
    nats.stop()


@pytest_asyncio.fixture(scope="session")
async def pg_admin_url(work_dir: Path) -> AsyncIterator[str]:
    """A DSN of a maintenance database on a server where the tests may create databases."""
    if port_open(*_host_port(LOCAL_PG)):
        yield LOCAL_PG
        return
    postgres = EmbeddedPostgres(work_dir / "embedded")
    dsn = await postgres.start()
    yield dsn.rsplit("/", 1)[0] + "/postgres"
    postgres.stop()


async def create_database(admin_url: str, name: str) -> str:
    conn = await asyncpg.connect(admin_url)
    try:
        await conn.execute(f'CREATE DATABASE "{name}"')
    finally:
        await conn.close()
    return admin_url.rsplit("/", 1)[0] + f"/{name}"


async def drop_database(admin_url: str, name: str) -> None:
    conn = await asyncpg.connect(admin_url)
    try:
        await conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    finally:
        await conn.close()


@pytest_asyncio.fixture(scope="session")
async def database_url(pg_admin_url: str, run_id: str) -> AsyncIterator[str]:
    url = await create_database(pg_admin_url, f"memgw_{run_id}")
    yield url
    await drop_database(pg_admin_url, f"memgw_{run_id}")


def make_settings(
    *,
    data_dir: Path,
    database_url: str,
    nats_url: str,
    prefix: str,
    sources: Mapping[str, object] | None = None,
    **groups: object,
) -> Settings:
    """Settings for a test: explicit servers, a private prefix and data dir, fast redelivery;
    ``sources`` adds to the source settings (where the network readers' upstreams are)."""
    groups.setdefault("vault", VaultSettings(vault_debounce_ms=150))
    return Settings(
        data=DataSettings(data_dir=data_dir),
        nats=NatsSettings(nats_url=nats_url, bus_prefix=prefix, bus_ack_wait_s=3.0, bus_max_deliver=4),
        postgres=PostgresSettings(database_url=database_url, db_pool_max=8),
        index=IndexSettings(),
        embedder=EmbedderSettings(),
        # The auto-fetch schedule never fires by itself in a test (it would sync a test's sources
        # behind its back); the tests of the schedule call its tick.
        sources=SourceSettings(
            folder_roots={"*": [data_dir.parent]},
            operator_credential_users=["*"],
            autofetch_tick_s=86400,
            **(sources or {}),  # type: ignore[arg-type]
        ),
        log=LogSettings(log_level="WARNING", log_format="json"),
        **groups,
    )


@pytest.fixture(scope="session")
def settings(work_dir: Path, database_url: str, nats_url: str, run_id: str) -> Settings:
    configure_logging(LogSettings(log_level="WARNING", log_format="json"))
    return make_settings(data_dir=work_dir / "data", database_url=database_url, nats_url=nats_url, prefix=run_id)


@pytest_asyncio.fixture(scope="session")
async def infra(settings: Settings) -> AsyncIterator[Infra]:
    async with open_infra(settings) as infra:
        yield infra
    await forget_streams(settings)


async def forget_streams(settings: Settings) -> None:
    """Delete the streams of the settings' bus prefix (a test's install is done with them)."""
    nc = await nats.connect(settings.nats.nats_url or "")
    try:
        await delete_streams(nc, layout_of(settings))
    finally:
        await nc.close()


@contextlib.asynccontextmanager
async def private_install(
    work_dir: Path, pg_admin_url: str, nats_url: str, *, sources: Mapping[str, object] | None = None
) -> AsyncIterator[Infra]:
    """An install with a database, a bus prefix and a data dir of its own, opened; its database and
    streams are gone after. ``sources`` as for ``make_settings``."""
    name = "p" + uuid.uuid4().hex[:8]
    url = await create_database(pg_admin_url, f"memgw_{name}")
    settings = make_settings(
        data_dir=work_dir / f"private-{name}", database_url=url, nats_url=nats_url, prefix=name, sources=sources
    )
    try:
        async with open_infra(settings) as infra:
            yield infra
    finally:
        await forget_streams(settings)
        await drop_database(pg_admin_url, f"memgw_{name}")


@pytest.fixture
def files_dir(work_dir: Path) -> Path:
    """A fresh folder inside the allowed folder roots, for Folder sources."""
    path = work_dir / f"files-{uuid.uuid4().hex[:8]}"
    path.mkdir()
    return path


def layout_of(settings: Settings) -> BusLayout:
    return BusLayout(settings.nats.bus_prefix, settings.nats.bus_ack_wait_s, settings.nats.bus_max_deliver)
