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
from tests.conftest import System


async def test_alive_is_apart_from_ready(system: System) -> None:
    assert (await system.client.get("/healthz")).json() == {"status": "ok"}
    ready = await system.client.get("/readyz")
    assert ready.status_code == 200
    assert ready.json() == {"status": "ready", "database": "ok", "bus": "ok"}


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
