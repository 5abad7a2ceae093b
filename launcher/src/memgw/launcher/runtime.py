"""The composition root's runtime: bring up the infrastructure one process runs on and run the
services' parts on it.

``open_infra`` starts the embedded servers the settings leave unnamed, migrates, connects and
declares the streams; it yields an ``Infra`` whose broker is connected but not yet consuming, so
each service's router is included before ``run_services`` starts consuming.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
from collections.abc import AsyncIterator

from faststream.nats import NatsBroker

from memgw.common.bus import BusLayout, ensure_streams
from memgw.common.credentials import CredentialBox
from memgw.common.db.migrate import migrate_dsn
from memgw.common.db.outbox import OutboxRelay
from memgw.common.db.pool import close_pool, create_pool
from memgw.common.embedding.factory import create_embedder
from memgw.common.index.base import VectorIndex
from memgw.common.index.edge import EdgeIndex
from memgw.common.index.factory import create_index
from memgw.common.index.graph import keep_graph_forever
from memgw.common.index.lease import IndexLease
from memgw.common.index.shared import OwnedIndex, RemoteIndex, serve_index
from memgw.common.logging import get_logger
from memgw.common.memories import MemoryStore
from memgw.common.reconciler import reconcile_forever
from memgw.common.runtime import Infra, ServiceParts
from memgw.common.settings import Settings
from memgw.common.skills import Skills
from memgw.launcher.embedded.nats import EmbeddedNats
from memgw.launcher.embedded.postgres import EmbeddedPostgres
from memgw.launcher.embedded.supervisor import EmbeddedServer, EmbeddedServerLost, Supervisor

log = get_logger("memgw.runtime")


def freeze_start_up_heap() -> None:
    """Take what start-up made (modules, settings, pools, routers: objects that live as long as the
    process) out of the garbage collector's view. A full collection walks every object it can see, and
    with them in view one stalls whatever request is running, for far longer than with them frozen
    (bench/reports/gc_pauses.md). Objects made later are collected as before. Called once, by a process
    that serves (tests start systems many times and do not)."""
    gc.collect()
    gc.freeze()


@contextlib.asynccontextmanager
async def open_infra(settings: Settings) -> AsyncIterator[Infra]:
    async with contextlib.AsyncExitStack() as stack:
        data_dir = settings.data.data_dir
        data_dir.mkdir(parents=True, exist_ok=True)
        data_dir.chmod(0o700)  # the bus store, the database, the index and the keys: this user's alone
        embedded: list[EmbeddedServer] = []
        nats_url = settings.nats.nats_url
        if not nats_url:
            nats = EmbeddedNats(data_dir)
            nats_url = await nats.start()
            stack.callback(nats.stop)
            embedded.append(nats)
        database_url = settings.postgres.database_url
        if not database_url:
            postgres = EmbeddedPostgres(data_dir)
            database_url = await postgres.start()
            stack.callback(postgres.stop)
            embedded.append(postgres)
        supervisor = Supervisor(embedded)
        if embedded:
            watching = asyncio.create_task(supervisor.run(), name="embedded-supervisor")
            stack.callback(watching.cancel)
        await migrate_dsn(database_url)
        pool = await create_pool(database_url, max_size=settings.postgres.db_pool_max)
        stack.push_async_callback(close_pool, pool)

        layout = BusLayout(
            settings.nats.bus_prefix,
            ack_wait_s=settings.nats.bus_ack_wait_s,
            max_deliver=settings.nats.bus_max_deliver,
            replicas=settings.nats.bus_replicas,
        )
        # faststream's own lines (a message received, processed, failed) go through structlog, with the
        # correlation id like every other line; per-message lines at debug, failures at error.
        # An outage is waited out, never fatal: nats-py gives up after 60 reconnects by default, and a
        # client that gave up leaves consumers with nothing to pull from until the process restarts.
        broker = NatsBroker(
            nats_url,
            logger=get_logger("memgw.bus.faststream"),
            log_level=logging.DEBUG,
            graceful_timeout=5.0,
            max_reconnect_attempts=-1,
            reconnect_time_wait=2,
        )
        await broker.connect()
        stack.push_async_callback(broker.stop)
        await ensure_streams(broker.connection, layout)

        embedder = create_embedder(settings.embedder)
        stack.push_async_callback(embedder.close)
        index = await _open_index(stack, settings, database_url, broker, layout, embedder.dim)

        skills = Skills(settings)  # a binding that names nothing installed stops the start here
        stack.push_async_callback(skills.close)
        store = MemoryStore(pool, index, layout, settings.data.secrets_on_write)
        stack.push_async_callback(store.marks_cleared)  # before the pool closes
        yield Infra(
            settings=settings,
            layout=layout,
            pool=pool,
            broker=broker,
            index=index,
            embedder=embedder,
            store=store,
            nats_url=nats_url,
            database_url=database_url,
            credentials=CredentialBox.for_settings(settings.data.credentials_key, data_dir),
            skills=skills,
        )
        if supervisor.lost:
            raise EmbeddedServerLost(supervisor.lost)


async def _open_index(
    stack: contextlib.AsyncExitStack,
    settings: Settings,
    database_url: str,
    broker: NatsBroker,
    layout: BusLayout,
    dim: int,
) -> VectorIndex:
    """A Qdrant server when one is named; else the install's embedded shard: opened here when this
    process is the first of its install (and then served to the others on the bus, while its lease
    holds), reached through the one that is otherwise (``memgw.common.index.shared``)."""
    if settings.index.qdrant_url:
        index = create_index(settings.index, data_dir=settings.data.data_dir, dim=dim)
        await index.ensure()
        stack.push_async_callback(index.close)
        return index
    lease = await IndexLease.try_take(database_url, layout.prefix)
    if lease is None:
        log.info("index.remote", reason="another process of this install owns the embedded index")
        return RemoteIndex(broker.connection, layout)
    stack.push_async_callback(lease.release)
    keeping = asyncio.create_task(lease.keep(), name="index-lease")
    stack.callback(keeping.cancel)
    shard = create_index(settings.index, data_dir=settings.data.data_dir, dim=dim)
    await shard.ensure()
    stack.push_async_callback(shard.close)
    serving = await serve_index(broker.connection, layout, shard, lease)

    async def stop_serving() -> None:
        with contextlib.suppress(Exception):  # the broker may be stopped already (run_services stops it)
            await serving.unsubscribe()

    stack.push_async_callback(stop_serving)
    return OwnedIndex(shard, lease, RemoteIndex(broker.connection, layout))


@contextlib.asynccontextmanager
async def run_services(infra: Infra, parts: list[ServiceParts]) -> AsyncIterator[None]:
    """Start consuming for every part's router, the outbox relay, the index reconciler and the
    background loops."""

    for part in parts:
        if part.router is not None:
            infra.broker.include_router(part.router)
    await infra.broker.start()
    relay = OutboxRelay(infra.pool, infra.broker, infra.layout)
    await relay.start()
    tasks = [asyncio.create_task(job(), name=f"{part.name}-bg") for part in parts for job in part.background]
    if not isinstance(infra.index, RemoteIndex):  # the index's owner keeps it in line, for everyone
        every_s = infra.settings.index.index_reconcile_s
        tasks.append(asyncio.create_task(reconcile_forever(infra.store, every_s=every_s), name="index-reconciler"))
    if isinstance(infra.index, OwnedIndex) and isinstance(infra.index.shard, EdgeIndex):  # Qdrant builds its own
        s = infra.settings.index
        keeper = keep_graph_forever(
            infra.index.shard, every_s=s.index_graph_check_s, min_new=s.index_graph_min_new, share=s.index_graph_share
        )
        tasks.append(asyncio.create_task(keeper, name="index-graph"))
    log.info("services.started", services=[p.name for p in parts])
    try:
        yield
    finally:
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        await relay.stop()
        await infra.broker.stop()
        for part in parts:
            for close in part.cleanup:
                with contextlib.suppress(Exception):
                    await close()
