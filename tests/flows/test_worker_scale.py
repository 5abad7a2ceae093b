"""Several sync-worker replicas: a burst of syncs is shared and each source is synced once; the
auto-fetch schedule starts a due source once however many replicas look, and not again after a
restart."""

from __future__ import annotations

import asyncio
import signal
import subprocess
from pathlib import Path

import pytest

from memgw.common.domain import Principal
from memgw.common.runtime import Infra
from memgw.common.sources import MemorySourceEntry, SourceKind
from memgw.gateway.identity import ensure_admin_key
from memgw.gateway.schemas import SearchRequest
from memgw.gateway.sources_service import Sources
from memgw.sync_worker.autofetch import AutoFetch
from tests.conftest import StageWatcher
from tests.flows.conftest import gateway_services
from tests.workers import start_worker

ADMIN = Principal(user_id="admin", is_admin=True, is_trusted=True)
SOURCES = 8


async def _folder_sources(
    infra: Infra, sources: Sources, work_dir: Path, prefix: str, count: int, files: int = 3
) -> list[str]:
    await ensure_admin_key(infra.pool, infra.settings.data.data_dir, None)
    ids = []
    for n in range(count):
        folder = work_dir / f"{prefix}-{n}"
        folder.mkdir()
        for f in range(files):
            (folder / f"{f}.md").write_text(f"source {n} file {f} " + "内容 content " * 40)
        source_id = f"{prefix}-{n}"
        await sources.add(
            ADMIN,
            MemorySourceEntry(
                id=source_id, kind=SourceKind.FOLDER, owner_user_id="admin", fields={"path": str(folder)}
            ),
        )
        ids.append(source_id)
    return ids


@pytest.mark.slow
async def test_two_replicas_share_a_burst_and_each_source_is_synced_once(
    bus_infra: Infra, bus_watcher: StageWatcher, work_dir: Path
) -> None:
    infra = bus_infra
    async with gateway_services(infra) as services:
        ids = await _folder_sources(infra, services.sources, work_dir, f"burst-{infra.layout.prefix}", SOURCES)
        logs = [work_dir / f"{infra.layout.prefix}-w{n}.log" for n in range(2)]
        workers = [start_worker(infra.settings, log, name=f"w{n}") for n, log in enumerate(logs)]
        try:
            await asyncio.sleep(3)  # both consumers attached before the burst
            runs = [(await services.sources.request_sync(ADMIN, sid))[0]["id"] for sid in ids]
            finals = [await bus_watcher.wait_final(run, timeout=120) for run in runs]
            # What the worker processes ingested is found by this process's search: one index for
            # the install, owned here and written by the workers through the bus.
            hits = await services.memories.search(ADMIN, SearchRequest(query=f"source {SOURCES - 1} file 2", limit=50))
            assert {h.memory.source_id for h in hits} >= {ids[-1]}
        finally:
            for worker in workers:
                worker.send_signal(signal.SIGINT)
            for worker in workers:
                try:
                    worker.wait(30)
                except subprocess.TimeoutExpired:
                    worker.kill()
    assert all(f["stage"] == "Completed" for f in finals)
    for run in runs:
        completed = [e for e in bus_watcher.events if e["run_id"] == run and e["stage"] == "Completed"]
        assert len(completed) == 1
    completed_by = [
        {run for line in log.read_text().splitlines() if '"stage": "Completed"' in line for run in runs if run in line}
        for log in logs
    ]
    handled = completed_by  # a redelivered request that found its run finished is not "working on it"
    assert handled[0], "both replicas took part"
    assert handled[1], "both replicas took part"
    assert not handled[0] & handled[1], "no run was worked on twice"
    assert set(runs) == handled[0] | handled[1]
    chunks = await infra.pool.fetchval("SELECT count(*) FROM memories WHERE source_id = ANY($1)", ids)
    assert chunks == SOURCES * 3


async def test_a_due_source_is_started_once_however_many_replicas_tick(private_infra: Infra, work_dir: Path) -> None:
    infra = private_infra
    async with gateway_services(infra) as services:
        ids = await _folder_sources(infra, services.sources, work_dir, f"due-{infra.layout.prefix}", 3, files=1)
    await infra.pool.execute("UPDATE memory_sources SET enabled = false WHERE id = $1", ids[2])

    def replica() -> AutoFetch:
        return AutoFetch(infra.pool, infra.layout, infra.settings.sources)

    replicas = [replica() for _ in range(4)]

    started = await asyncio.gather(*(r.tick() for r in replicas))

    assert sorted(s for batch in started for s in batch) == sorted(ids[:2])
    runs = await infra.pool.fetch("SELECT source_id, reason FROM sync_runs ORDER BY source_id")
    assert [(r["source_id"], r["reason"]) for r in runs] == [(ids[0], "auto"), (ids[1], "auto")]
    await infra.pool.execute("UPDATE sync_runs SET finished_at = now(), stage = 'Completed'")
    assert await replica().tick() == []  # a restart: they just ran, nothing fires again
    await infra.pool.execute("UPDATE sync_runs SET created_at = now() - interval '2 hours'")
    assert sorted(await replica().tick()) == sorted(ids[:2])  # due again after the cadence
