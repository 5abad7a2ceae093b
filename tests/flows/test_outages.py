"""Outages are waited out, and work is never wedged: liveness apart from readiness, 503 with
Retry-After while the database does not answer, a run or job whose worker vanished ended instead of
waited on forever, and an embedded index that refuses a second owner with a message that says why."""

from __future__ import annotations

import uuid
from pathlib import Path
from typing import Any

import pytest

from memgw.common.index.edge import EdgeIndex, IndexInUse
from memgw.gateway import memory_service
from tests.conftest import StageWatcher, System


async def test_alive_is_apart_from_ready(system: System) -> None:
    assert (await system.client.get("/healthz")).json() == {"status": "ok"}
    ready = await system.client.get("/readyz")
    assert ready.status_code == 200
    assert {k: v for k, v in ready.json().items() if k != "detail"} == {
        "status": "ready",
        "database": "ok",
        "bus": "ok",
    }


async def test_a_database_that_does_not_answer_is_a_503_with_retry_after(
    system: System, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def unreachable(*_: Any, **__: Any) -> None:
        raise ConnectionRefusedError("connection refused")

    monkeypatch.setattr(memory_service.Memories, "list_memories", unreachable)
    answer = await system.client.get("/v1/memory", headers=system.auth())
    assert answer.status_code == 503
    assert answer.headers["Retry-After"] == "5"
    assert answer.json()["error"] == "unavailable"


async def test_a_run_whose_worker_vanished_does_not_wedge_its_source(system: System, files_dir: Path) -> None:
    key = await system.user(f"out_{uuid.uuid4().hex[:8]}")
    source = f"wedge-{files_dir.name}"
    await system.folder_source(key, source, files_dir)
    dead = f"run_dead_{uuid.uuid4().hex[:8]}"
    await system.infra.pool.execute(  # a run left Ingesting by a worker that died an hour ago
        "INSERT INTO sync_runs (id, source_id, stage, created_at, updated_at)"
        " VALUES ($1, $2, 'Ingesting', now() - interval '1 hour', now() - interval '1 hour')",
        dead,
        source,
    )
    answer = await system.client.post(f"/v1/sources/{source}/sync", headers=system.auth(key))
    assert answer.status_code == 202
    assert answer.json()["run"]["id"] != dead
    ended = await system.infra.pool.fetchrow("SELECT stage, detail, finished_at FROM sync_runs WHERE id = $1", dead)
    assert ended["stage"] == "Failed"
    assert ended["finished_at"] is not None
    assert "abandoned" in ended["detail"]


async def test_a_job_nobody_works_on_is_reported_failed(system: System) -> None:
    uid = f"out_{uuid.uuid4().hex[:8]}"
    key = await system.user(uid)
    job = f"job_{uuid.uuid4().hex}"
    await system.infra.pool.execute(
        "INSERT INTO jobs (id, kind, user_id, state, updated_at) VALUES ($1, 'consolidate_session', $2, 'running',"
        " now() - interval '1 hour')",
        job,
        uid,
    )
    seen = (await system.client.get(f"/v1/jobs/{job}", headers=system.auth(key))).json()
    assert seen["state"] == "failed"
    assert "abandoned" in seen["detail"]


@pytest.mark.unit
async def test_the_embedded_index_has_one_owner(tmp_path: Path) -> None:
    first = EdgeIndex(tmp_path / "shard", dim=8)
    await first.ensure()
    second = EdgeIndex(tmp_path / "shard", dim=8)
    try:
        with pytest.raises(IndexInUse, match="MEMGW_QDRANT_URL"):
            await second.ensure()
    finally:
        await second.close()
        await first.close()
    again = EdgeIndex(tmp_path / "shard", dim=8)  # the owner is gone: the index opens again
    await again.ensure()
    await again.close()


async def test_the_outbox_listens_again_after_its_connection_dropped(system: System) -> None:
    """With polling slowed to a minute, an event still goes out at once after the relay's LISTEN
    connection was killed: the relay noticed, reopened it, and was woken by the commit."""
    import asyncio

    import nats

    from memgw.common.bus import BusLayout, delete_streams, ensure_streams
    from memgw.common.db.outbox import OutboxRelay, enqueue
    from memgw.common.events import ReviewDecided

    layout = BusLayout(f"ob{uuid.uuid4().hex[:8]}")  # its own streams: the system's relay leaves them be
    nc = await nats.connect(system.infra.nats_url)
    await ensure_streams(nc, layout)
    relay = OutboxRelay(system.infra.pool, system.infra.broker, layout, poll_s=60.0)
    await relay.start()
    try:
        first = relay._listener
        assert first is not None
        await system.infra.pool.execute("SELECT pg_terminate_backend($1)", first.get_server_pid())
        async with asyncio.timeout(10):  # reopened, though the next poll is a minute away
            while relay._listener is None or relay._listener is first:
                await asyncio.sleep(0.05)
        async with system.infra.pool.acquire() as conn, conn.transaction():
            await enqueue(conn, layout, ReviewDecided(review_id="rev_outbox", decision="keep_old", decided_by="t"))
        async with asyncio.timeout(10):
            while await system.infra.pool.fetchval(
                "SELECT count(*) FROM outbox WHERE stream = ANY($1) AND published_at IS NULL", layout.stream_names()
            ):
                await asyncio.sleep(0.05)
    finally:
        await relay.stop()
        await delete_streams(nc, layout)
        await nc.close()


async def test_work_waits_out_an_outage_longer_than_its_tries_and_is_never_dead_lettered(
    system: System, files_dir: Path, stage_watcher: StageWatcher, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The database refuses the sync for more deliveries than a failing message gets: the bus keeps
    retrying with backoff, the run completes once it answers again, and no dead letter is written."""
    import nats

    from memgw.common.bus import dead_letters
    from memgw.sync_worker.service import SyncService

    refusals = system.infra.settings.nats.bus_max_deliver  # a genuine error would be dead now
    source = f"outage-{uuid.uuid4().hex[:8]}"
    attempts: list[int] = []
    real_sync = SyncService._sync

    async def down_for_a_while(self: SyncService, run: Any, reader: Any) -> None:
        if run.source.id == source:  # other tests' syncs may run meanwhile: they are left alone
            attempts.append(1)
            if len(attempts) <= refusals:
                raise ConnectionRefusedError("connection refused (Postgres is restarting)")
        await real_sync(self, run, reader)

    monkeypatch.setattr(SyncService, "_sync", down_for_a_while)
    (files_dir / "note.md").write_text("The sync survived a database outage.\n", encoding="utf-8")
    key = await system.user(f"out_{uuid.uuid4().hex[:8]}")
    await system.folder_source(key, source, files_dir)
    final = await system.sync(key, source, stage_watcher)
    assert final["stage"] == "Completed", final
    assert final["counts"]["items_new"] == 1
    assert len(attempts) == refusals + 1
    nc = await nats.connect(system.infra.nats_url)
    try:
        letters = await dead_letters(nc, system.infra.layout)
    finally:
        await nc.close()
    assert not [letter for letter in letters if final["run_id"].encode() in letter.data]


async def test_a_change_the_index_never_got_is_mended_by_the_reconciler(
    system: System, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A process that dies between its commit and its index write (here: the index write never
    happens) leaves the index behind Postgres; the reconciler's pass brings both the write and a
    later delete into the index, and clears the marks they left."""
    from memgw.common.index.base import Match, Where
    from memgw.common.memories import MemoryStore

    uid = f"rec_{uuid.uuid4().hex[:8]}"
    key = await system.user(uid)
    mine = Where(must=(Match("user_id", uid),))
    store, index = system.infra.store, system.infra.index
    real_sync = MemoryStore.sync_index

    async def crashed_before_indexing(self: MemoryStore, *_: Any, **__: Any) -> None:
        return None

    monkeypatch.setattr(MemoryStore, "sync_index", crashed_before_indexing)
    created = await system.client.post(
        "/v1/memory", json={"content": "the reconciler finds me"}, headers=system.auth(key)
    )
    assert created.status_code == 201, created.text
    memory_id = created.json()["id"]
    assert await index.count(mine) == 0
    marks = "SELECT count(*) FROM index_pending WHERE memory_id = $1"
    assert await system.infra.pool.fetchval(marks, memory_id) >= 1

    monkeypatch.setattr(MemoryStore, "sync_index", real_sync)
    assert await store.reconcile_index(older_than_s=3600) == 0  # still in its writer's hands: left be
    assert await store.reconcile_index(older_than_s=0) >= 1
    assert await index.count(mine) == 1
    await store.marks_cleared()
    assert await system.infra.pool.fetchval(marks, memory_id) == 0
    found = await system.client.post("/v1/memory/search", json={"query": "reconciler"}, headers=system.auth(key))
    assert memory_id in [h["memory"]["id"] for h in found.json()["results"]]
    assert await system.infra.pool.fetchval(marks, memory_id) == 0  # a search's touch is nothing to index

    monkeypatch.setattr(MemoryStore, "sync_index", crashed_before_indexing)
    deleted = await system.client.delete(f"/v1/memory/{memory_id}", headers=system.auth(key))
    assert deleted.status_code in (200, 204), deleted.text
    assert await index.count(mine) == 1  # the index still holds what Postgres no longer has
    monkeypatch.setattr(MemoryStore, "sync_index", real_sync)
    await store.reconcile_index(older_than_s=0)
    assert await index.count(mine) == 0
    await store.marks_cleared()
    assert await system.infra.pool.fetchval(marks, memory_id) == 0


async def test_an_index_that_lost_its_points_is_filled_in_at_start(system: System, tmp_path: Path) -> None:
    """A fresh (or restored, older) index beside the same Postgres: the reconciler's start fills in
    every memory Postgres holds, without re-embedding and without clearing what is there."""
    import asyncio

    from memgw.common.index.edge import EdgeIndex
    from memgw.common.memories import MemoryStore
    from memgw.common.reconciler import reconcile_forever

    key = await system.user(f"lost_{uuid.uuid4().hex[:8]}")
    created = await system.client.post("/v1/memory", json={"content": "kept in Postgres"}, headers=system.auth(key))
    assert created.status_code == 201, created.text
    lost = EdgeIndex(tmp_path / "lost", dim=system.infra.embedder.dim)
    await lost.ensure()
    store = MemoryStore(system.infra.pool, lost, system.infra.layout)
    try:
        assert await store.index_gap() > 0
        running = asyncio.create_task(reconcile_forever(store, every_s=3600))
        try:
            async with asyncio.timeout(120):
                while await store.index_gap() != 0:
                    await asyncio.sleep(0.2)
        finally:
            running.cancel()
    finally:
        await lost.close()


async def test_an_index_written_before_read_keys_gets_them_at_start(system: System, tmp_path: Path) -> None:
    """Points an older version wrote carry no read key, so searches (which ask by key) would miss
    them: the reconciler's start finds such points and indexes those memories again."""
    import asyncio

    from memgw.common.acl import read_where
    from memgw.common.domain import Principal
    from memgw.common.index.base import READ_KEY_FIELD
    from memgw.common.memories import MemoryStore, index_point
    from memgw.common.reconciler import reconcile_forever

    uid = f"keys_{uuid.uuid4().hex[:8]}"
    key = await system.user(uid)
    created = await system.client.post(
        "/v1/memory", json={"content": "written before read keys"}, headers=system.auth(key)
    )
    assert created.status_code == 201, created.text
    old = EdgeIndex(tmp_path / "old", dim=system.infra.embedder.dim)
    await old.ensure()
    store = MemoryStore(system.infra.pool, old, system.infra.layout)
    try:
        async for rows in store.iter_rows():  # as the version before wrote them
            points = [index_point(r) for r in rows]
            for p in points:
                p.payload.pop(READ_KEY_FIELD, None)
            await old.upsert(points)
        assert await store.index_gap() == 0
        assert await store.index_keyless() > 0
        reader = read_where(Principal(user_id=uid))
        assert not await old.search(text="written before read keys", where=reader, limit=10)

        running = asyncio.create_task(reconcile_forever(store, every_s=3600))
        try:
            async with asyncio.timeout(120):
                while await store.index_keyless():
                    await asyncio.sleep(0.2)
        finally:
            running.cancel()
        found = await old.search(text="written before read keys", where=reader, limit=10)
        assert [h.memory_id for h in found] == [created.json()["id"]]
    finally:
        await old.close()


async def test_listing_a_source_with_no_worker_running_says_so_at_once(bus_infra: Any, work_dir: Path) -> None:
    """No sync-worker on the bus: the listing answers 503 naming the missing worker (NATS says there
    are no responders), not a wait of a minute for a timeout."""
    from memgw.common.domain import Principal
    from memgw.common.sources import MemorySourceEntry, SourceKind
    from memgw.gateway.errors import Unavailable
    from memgw.gateway.identity import ensure_admin_key
    from tests.flows.conftest import gateway_services

    admin = Principal(user_id="admin", is_admin=True, is_trusted=True)
    folder = work_dir / f"alone-{uuid.uuid4().hex[:6]}"
    folder.mkdir()
    await ensure_admin_key(bus_infra.pool, bus_infra.settings.data.data_dir, None)
    async with gateway_services(bus_infra) as services:
        entry = MemorySourceEntry(
            id=folder.name, kind=SourceKind.FOLDER, owner_user_id="admin", fields={"path": str(folder)}
        )
        await services.sources.add(admin, entry)
        with pytest.raises(Unavailable, match="no sync-worker is running"):
            await services.sources.preview(admin, folder.name)
