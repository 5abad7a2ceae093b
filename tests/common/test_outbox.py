"""The transactional outbox on real Postgres and real NATS JetStream."""

from __future__ import annotations

import asyncio
import uuid
from pathlib import Path

import asyncpg
from faststream.nats import NatsBroker

from memgw.common.bus import MSG_ID_HEADER, BusLayout, ensure_streams
from memgw.common.db.outbox import OutboxRelay, enqueue
from memgw.common.events import MemoryChanged, Subject
from memgw.launcher.embedded.nats import EmbeddedNats
from memgw.launcher.embedded.process import free_port


def _event(n: int) -> MemoryChanged:
    return MemoryChanged(memory_id=f"mem_{n}", user_id="u", namespace="user/u/long_term", change="created", version=1)


async def _stream_messages(broker: NatsBroker, layout: BusLayout) -> list[tuple[str, str]]:
    js = broker.connection.jetstream()
    stream = layout.stream_of(Subject.MEMORY_CHANGED).name
    info = await js.stream_info(stream)
    out = []
    for seq in range(info.state.first_seq, info.state.last_seq + 1):
        msg = await js.get_msg(stream, seq)
        out.append(((msg.headers or {}).get(MSG_ID_HEADER, ""), msg.data.decode()))
    return [m for m in out if m[0]]


async def _install(nats_url: str) -> tuple[BusLayout, NatsBroker]:
    """An install of its own on the run's NATS: its bus layout, and a broker connected with its streams."""
    layout = BusLayout("o" + uuid.uuid4().hex[:8])
    broker = NatsBroker(nats_url, logger=None)
    await broker.connect()
    await ensure_streams(broker.connection, layout)
    return layout, broker


async def test_a_rolled_back_write_publishes_nothing_and_a_committed_one_exactly_once(
    own_pool: asyncpg.Pool, nats_url: str
) -> None:
    layout, broker = await _install(nats_url)
    relay = OutboxRelay(own_pool, broker, layout)
    rolled_back, committed = _event(1), _event(2)

    async with own_pool.acquire() as conn:
        tx = conn.transaction()
        await tx.start()
        await enqueue(conn, layout, rolled_back)
        await tx.rollback()
        async with conn.transaction():
            await enqueue(conn, layout, committed)
    assert await relay.publish_pending() == 1
    assert await relay.publish_pending() == 0

    messages = await _stream_messages(broker, layout)
    assert [m[0] for m in messages] == [committed.id]
    assert '"mem_2"' in messages[0][1]
    await broker.stop()


async def test_events_written_while_nats_is_away_are_published_when_it_returns(
    own_pool: asyncpg.Pool, tmp_path: Path
) -> None:
    nats = EmbeddedNats(tmp_path, port=free_port())
    url = await nats.start()
    layout = BusLayout("o" + uuid.uuid4().hex[:8])
    broker = NatsBroker(url, logger=None, reconnect_time_wait=1, max_reconnect_attempts=-1)
    await broker.connect()
    await ensure_streams(broker.connection, layout)
    relay = OutboxRelay(own_pool, broker, layout, poll_s=0.2)
    await relay.start()
    try:
        nats.stop()
        events = [_event(n) for n in range(5)]
        async with own_pool.acquire() as conn, conn.transaction():
            for event in events:
                await enqueue(conn, layout, event)
        await asyncio.sleep(1.5)
        pending = await own_pool.fetchval("SELECT count(*) FROM outbox WHERE published_at IS NULL")
        assert pending == 5

        await nats.start()  # same port, same JetStream store
        async with asyncio.timeout(30):
            while await own_pool.fetchval("SELECT count(*) FROM outbox WHERE published_at IS NULL"):
                await asyncio.sleep(0.2)
        messages = await _stream_messages(broker, layout)
        assert sorted(m[0] for m in messages) == sorted(e.id for e in events)
    finally:
        await relay.stop()
        await broker.stop()
        nats.stop()


async def test_a_relay_publishes_only_its_own_installs_rows(own_pool: asyncpg.Pool, nats_url: str) -> None:
    mine, other = BusLayout("o" + uuid.uuid4().hex[:8]), BusLayout("x" + uuid.uuid4().hex[:8])
    broker = NatsBroker(nats_url, logger=None)
    await broker.connect()
    await ensure_streams(broker.connection, mine)  # the other install's streams do not exist here
    async with own_pool.acquire() as conn, conn.transaction():
        await enqueue(conn, other, _event(1))
        await enqueue(conn, mine, _event(2))
    relay = OutboxRelay(own_pool, broker, mine)
    assert await relay.publish_pending() == 1  # the foreign row neither goes out nor blocks the queue
    assert await own_pool.fetchval("SELECT count(*) FROM outbox WHERE published_at IS NULL") == 1
    await broker.stop()


async def test_rows_published_more_than_a_day_ago_are_pruned_and_younger_ones_kept(
    own_pool: asyncpg.Pool, nats_url: str
) -> None:
    layout, broker = await _install(nats_url)
    async with own_pool.acquire() as conn, conn.transaction():
        await enqueue(conn, layout, _event(1))
        await enqueue(conn, layout, _event(2))
    relay = OutboxRelay(own_pool, broker, layout)
    assert await relay.publish_pending() == 2
    [old, young] = await own_pool.fetch(
        "SELECT id FROM outbox WHERE stream = ANY($1::text[]) ORDER BY id", layout.stream_names()
    )
    await own_pool.execute("UPDATE outbox SET published_at = now() - interval '2 days' WHERE id = $1", old["id"])
    assert await OutboxRelay(own_pool, broker, layout).publish_pending() == 0  # a new relay prunes first thing
    left = await own_pool.fetch("SELECT id FROM outbox WHERE stream = ANY($1::text[])", layout.stream_names())
    assert [r["id"] for r in left] == [young["id"]]
    await broker.stop()
