"""Killing the sync-worker in the middle of a sync and starting it again completes the sync with no
duplicate chunk: JetStream redelivers the unacked request, deterministic chunk ids overwrite."""

from __future__ import annotations

import asyncio
import signal
import subprocess
from pathlib import Path

import pytest

from memgw.common.domain import Principal
from memgw.common.index.base import Match, Where
from memgw.common.runtime import Infra
from memgw.common.sources import MemorySourceEntry, SourceKind
from memgw.common.text import chunk_text
from memgw.gateway.identity import ensure_admin_key
from tests.conftest import StageWatcher
from tests.flows.conftest import gateway_services
from tests.workers import start_worker

FILES = 40
PARAGRAPH = "The gateway keeps every memory in Postgres and indexes it in Qdrant. 记忆先写入数据库，再建立索引。 "


@pytest.mark.slow
async def test_a_killed_worker_is_replaced_and_the_sync_completes_without_duplicates(
    bus_infra: Infra, bus_watcher: StageWatcher, files_dir: Path, work_dir: Path
) -> None:
    infra, watcher = bus_infra, bus_watcher
    for n in range(FILES):
        (files_dir / f"note-{n:03}.md").write_text(f"# Note {n}\n\n" + PARAGRAPH * 5)
    limits = infra.settings.chunk
    texts = [p.read_text() for p in sorted(files_dir.iterdir())]
    expected_chunks = sum(
        len(chunk_text(t, max_chars=limits.chunk_max_chars, max_tokens=limits.chunk_max_tokens)) for t in texts
    )
    admin = Principal(user_id="admin", is_admin=True, is_trusted=True)
    await ensure_admin_key(infra.pool, infra.settings.data.data_dir, None)
    source_id = f"crash-{files_dir.name}"
    async with gateway_services(infra) as services:
        await services.sources.add(
            admin,
            MemorySourceEntry(
                id=source_id, kind=SourceKind.FOLDER, owner_user_id="admin", fields={"path": str(files_dir)}
            ),
        )
        log = work_dir / f"{source_id}.log"
        first = start_worker(infra.settings, log)
        try:
            run, _ = await services.sources.request_sync(admin, source_id)
            run_id = run["id"]

            async def some_chunks_in() -> None:
                while not any(
                    e["run_id"] == run_id and e["stage"] == "Ingesting" and e["counts"]["chunks"] > 0
                    for e in watcher.events
                ):
                    watcher.changed.clear()
                    await watcher.changed.wait()

            await asyncio.wait_for(some_chunks_in(), 60)
            first.send_signal(signal.SIGKILL)
            first.wait(10)
        finally:
            if first.poll() is None:
                first.kill()
    assert not any(e["stage"] == "Completed" for e in watcher.events if e["run_id"] == run_id), "killed too late"
    partial = await infra.pool.fetchval("SELECT count(*) FROM memories WHERE source_id = $1", source_id)
    assert 0 < partial < expected_chunks

    second = start_worker(infra.settings, log)
    try:
        final = await watcher.wait_final(run_id, timeout=120)
    finally:
        second.send_signal(signal.SIGINT)
        try:
            second.wait(30)
        except subprocess.TimeoutExpired:
            second.kill()
            raise

    assert final["stage"] == "Completed", final
    rows = await infra.pool.fetch("SELECT id, source_ref, metadata FROM memories WHERE source_id = $1", source_id)
    assert len(rows) == expected_chunks
    keys = {(r["source_ref"], r["metadata"]["chunk_index"]) for r in rows}
    assert len(keys) == expected_chunks
    items = await infra.pool.fetchval("SELECT count(*) FROM source_items WHERE source_id = $1", source_id)
    assert items == FILES
    # The workers own no index: they wrote through this process, which owns the install's index.
    assert not (infra.settings.data.data_dir / "worker" / "qdrant-edge").exists()
    assert await infra.index.count(Where(must=(Match("source_id", source_id),))) == expected_chunks
