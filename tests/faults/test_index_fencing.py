"""H2: the embedded index's owner is fenced. An owner that lost its Postgres connection (and with it
its lock) while paused never answers beside its successor: the successor waits out the old lease and
takes the next epoch; the old owner, when it resumes, must renew before it acts, cannot, and steps
down silently; its own writes then go to the new owner. One index answers, and it has every point."""

from __future__ import annotations

import asyncio
import json
import uuid
from pathlib import Path

import asyncpg
import nats
import pytest
from nats.aio.msg import Msg

from memgw.common.bus import BusLayout
from memgw.common.db.migrate import migrate_dsn
from memgw.common.events import Subject
from memgw.common.index.base import IndexPoint
from memgw.common.index.edge import EdgeIndex
from memgw.common.index.lease import IndexLease
from memgw.common.index.shared import IndexOwnerUnavailable, OwnedIndex, RemoteIndex, serve_index

DIM = 8
TERM_S = 2.0


def _point(n: int) -> IndexPoint:
    dense = [0.0] * DIM
    dense[n % DIM] = 1.0
    return IndexPoint(memory_id=f"m{n}", dense=dense, text=f"point {n}", payload={"user_id": "u"})


async def test_a_paused_owner_that_lost_its_lock_never_answers_beside_its_successor(
    tmp_path: Path, nats_url: str, database_url: str
) -> None:
    await migrate_dsn(database_url)
    layout = BusLayout("fence" + uuid.uuid4().hex[:6])
    nc_a, nc_b, nc_caller = [await nats.connect(nats_url) for _ in range(3)]
    shard_a, shard_b = EdgeIndex(tmp_path / "a", dim=DIM), EdgeIndex(tmp_path / "b", dim=DIM)
    await shard_a.ensure()
    await shard_b.ensure()
    caller = RemoteIndex(nc_caller, layout)
    lease_a = await IndexLease.try_take(database_url, layout.prefix, term_s=TERM_S)
    assert lease_a is not None
    serving_a = await serve_index(nc_a, layout, shard_a, lease_a)
    await caller.upsert([_point(1)])
    assert caller.epoch == lease_a.epoch

    # A is paused (it renews nothing) and Postgres drops its connection: its lock goes with it.
    admin = await asyncpg.connect(database_url)
    a_expires = await admin.fetchval("SELECT expires_at FROM index_leases WHERE prefix = $1", layout.prefix)
    held = (
        "SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND granted"
        " AND objid = (hashtext($1)::bigint & 4294967295)"
    )
    key = f"memgw-embedded-index:{layout.prefix}"
    await admin.execute(f"SELECT pg_terminate_backend(pid) FROM ({held}) AS a", key)
    # The signal is sent at once; the backend, and its lock, go a moment later.
    for _ in range(200):
        if await admin.fetchval(held, key) is None:
            break
        await asyncio.sleep(0.05)
    lease_b = await IndexLease.try_take(database_url, layout.prefix, term_s=TERM_S)  # a process starting now
    assert lease_b is not None
    assert lease_b.epoch == lease_a.epoch + 1
    assert await admin.fetchval("SELECT now() >= $1", a_expires)  # it waited out A's term before it acted
    await admin.close()
    assert not lease_a.acting()  # by then A's own clock had stopped trusting its lease
    serving_b = await serve_index(nc_b, layout, shard_b, lease_b)
    try:
        await caller.upsert([_point(n) for n in range(1, 4)])  # B answers; A, resumed, renews and cannot
        assert caller.epoch == lease_b.epoch
        assert not await lease_a.confirmed()  # its renewal (begun by the call it did not answer) failed
        assert lease_a.lost
        assert await caller.count() == 3
        assert await shard_b.count() == 3
        assert await shard_a.count() == 1  # nothing reached the stale shard after its lease

        # A's own writes, through its OwnedIndex, go to the owner there is now.
        owned_a = OwnedIndex(shard_a, lease_a, RemoteIndex(nc_a, layout))
        await owned_a.upsert([_point(4)])
        assert await shard_b.count() == 4
        assert await shard_a.count() == 1
        assert [h.memory_id for h in await owned_a.search(dense=_point(4).dense, where=None, limit=1)] == ["m4"]
    finally:
        for serving in (serving_a, serving_b):
            await serving.unsubscribe()
        await lease_b.release()
        await lease_a.release()
        for shard in (shard_a, shard_b):
            await shard.close()
        for nc in (nc_a, nc_b, nc_caller):
            await nc.close()


async def test_an_owner_told_of_a_newer_epoch_steps_down_and_stays_silent(
    tmp_path: Path, nats_url: str, database_url: str
) -> None:
    await migrate_dsn(database_url)
    layout = BusLayout("told" + uuid.uuid4().hex[:6])
    nc_owner, nc_caller = await nats.connect(nats_url), await nats.connect(nats_url)
    shard = EdgeIndex(tmp_path / "s", dim=DIM)
    await shard.ensure()
    lease = await IndexLease.try_take(database_url, layout.prefix, term_s=600)
    assert lease is not None
    serving = await serve_index(nc_owner, layout, shard, lease)
    subject = layout.subject(Subject.INDEX_CALL)
    try:
        answered = await nc_caller.request(subject, json.dumps({"op": "count", "epoch": lease.epoch}).encode(), 10)
        assert json.loads(answered.data) == {"ok": True, "result": 0, "epoch": lease.epoch}
        newer = json.dumps({"op": "count", "epoch": lease.epoch + 1}).encode()
        with pytest.raises(nats.errors.TimeoutError):  # silent: the newer owner answers, or nobody
            await nc_caller.request(subject, newer, 2)
        assert lease.lost
    finally:
        await serving.unsubscribe()
        await lease.release()
        await shard.close()
        await nc_owner.close()
        await nc_caller.close()


async def test_a_caller_refuses_a_stale_owners_answer(nats_url: str) -> None:
    """Should an older owner answer before it hears of the newer one, a caller that has heard of the
    newer one refuses that answer; answered only by stale owners, the call is an outage."""
    layout = BusLayout("stale" + uuid.uuid4().hex[:6])
    nc_stale, nc_caller = await nats.connect(nats_url), await nats.connect(nats_url)

    async def stale_owner(msg: Msg) -> None:
        await msg.respond(json.dumps({"ok": True, "result": 7, "epoch": 1}).encode())

    sub = await nc_stale.subscribe(layout.subject(Subject.INDEX_CALL), cb=stale_owner)
    await nc_stale.flush()
    caller = RemoteIndex(nc_caller, layout)
    try:
        assert await caller.count() == 7  # epoch 1 is the newest this caller has heard of
        caller.epoch = 2
        with pytest.raises(IndexOwnerUnavailable):
            await caller.count()
    finally:
        await sub.unsubscribe()
        await nc_stale.close()
        await nc_caller.close()
