"""One run held by two workers at once (its request was redelivered while the first still worked, as
when a busy worker's heartbeat comes late): the first to end the run ends it, once; the other stops at
its next stage instead of reopening the run or announcing a second Completed."""

from __future__ import annotations

import asyncio
import uuid
from pathlib import Path

from memgw.common.events import SyncRequested
from memgw.common.settings import SourceSettings
from memgw.common.sources import MemorySourceEntry, SourceKind
from memgw.sync_worker.main import sync_service
from memgw.sync_worker.readers.base import SourceItem
from memgw.sync_worker.readers.folder import FolderReader
from memgw.sync_worker.service import SyncService
from tests.conftest import System


class _HeldReader(FolderReader):
    """A folder reader that holds each worker after it listed, until the test lets it go on."""

    def __init__(self, settings: SourceSettings, listed: asyncio.Event, go_on: asyncio.Event):
        super().__init__(settings)
        self.listed, self.go_on = listed, go_on

    async def list_items(self, source: MemorySourceEntry) -> list[SourceItem]:
        items = await super().list_items(source)
        self.listed.set()
        await self.go_on.wait()
        return items


def _worker(system: System, listed: asyncio.Event, go_on: asyncio.Event) -> SyncService:
    reader = _HeldReader(system.infra.settings.sources, listed, go_on)
    return sync_service(system.infra, {SourceKind.FOLDER: reader})


async def test_the_second_worker_of_a_finished_run_stops_without_reopening_or_announcing_it(
    system: System, files_dir: Path
) -> None:
    uid = f"twice_{uuid.uuid4().hex[:8]}"
    key = await system.user(uid)
    for n in range(3):
        (files_dir / f"n{n}.md").write_text(f"# Note {n}\n\nwhat the twice-held run read, part {n}")
    sid = f"twice-{files_dir.name}"
    await system.folder_source(key, sid, files_dir)
    run_id = f"run_twice_{sid}"
    pool = system.infra.pool
    # The run row alone, with no request on the bus: only the two workers below work it.
    await pool.execute("INSERT INTO sync_runs (id, source_id, stage) VALUES ($1, $2, 'Requested')", run_id, sid)
    request = SyncRequested(run_id=run_id, source_id=sid, owner_user_id=uid)

    first_listed, second_listed, first_go, second_go = (asyncio.Event() for _ in range(4))
    first = asyncio.create_task(_worker(system, first_listed, first_go).handle(request))
    second = asyncio.create_task(_worker(system, second_listed, second_go).handle(request))
    await asyncio.wait_for(asyncio.gather(first_listed.wait(), second_listed.wait()), 60)
    first_go.set()
    await asyncio.wait_for(first, 120)  # the first worker ends the run ...
    second_go.set()
    await asyncio.wait_for(second, 120)  # ... and the second returns quietly (its request is acked)

    run = await pool.fetchrow("SELECT stage, finished_at, counts FROM sync_runs WHERE id = $1", run_id)
    assert run["stage"] == "Completed"
    assert run["finished_at"] is not None
    stages = [
        r["stage"]
        for r in await pool.fetch(
            "SELECT payload->>'stage' AS stage FROM outbox WHERE payload->>'run_id' = $1 ORDER BY id", run_id
        )
    ]
    assert stages.count("Completed") == 1, stages
    assert stages[-1] == "Completed", stages  # nothing announced after the run ended
    assert stages.count("Fetching") == 2, stages  # both workers did hold it
    chunks = await pool.fetchval("SELECT count(*) FROM memories WHERE source_id = $1", sid)
    assert chunks == 3
