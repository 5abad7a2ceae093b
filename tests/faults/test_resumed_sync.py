"""A sync that dies part way (an embedder hiccup) and is resumed by the bus's redelivery reports the
whole run: what the first attempt ingested counts, once, and so does what it spent against the budget."""

from __future__ import annotations

import uuid
from pathlib import Path
from typing import Any

import pytest

from memgw.common.events import SyncRequested
from memgw.common.sources import SourceKind
from memgw.sync_worker.main import sync_service
from memgw.sync_worker.readers.folder import FolderReader
from tests.conftest import System

ITEMS = 5


class _FailsOnce:
    """The install's embedder, failing the ``at``-th call once (a timeout of a remote embedder, say)."""

    def __init__(self, inner: Any, at: int):
        self.inner, self.at, self.calls = inner, at, 0

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    async def embed_passages(self, texts: list[str]) -> list[list[float]]:
        self.calls += 1
        if self.calls == self.at:
            raise RuntimeError("the embedder hiccuped")
        return list(await self.inner.embed_passages(texts))


async def test_a_resumed_sync_counts_every_attempt_once(system: System, files_dir: Path) -> None:
    uid = f"resume_{uuid.uuid4().hex[:8]}"
    key = await system.user(uid)
    for n in range(ITEMS):
        (files_dir / f"n{n}.md").write_text(f"# Resumed note {n}\n\nwhat attempt one or two took in, part {n} {uid}")
    sid = f"resume-{files_dir.name}"
    await system.folder_source(key, sid, files_dir)
    run_id = f"run_resume_{sid}"
    pool = system.infra.pool
    await pool.execute("INSERT INTO sync_runs (id, source_id, stage) VALUES ($1, $2, 'Requested')", run_id, sid)
    request = SyncRequested(run_id=run_id, source_id=sid, owner_user_id=uid)

    worker = sync_service(system.infra, {SourceKind.FOLDER: FolderReader(system.infra.settings.sources)})
    worker.embedder = _FailsOnce(system.infra.embedder, at=3)  # items 1 and 2 go in, then it dies
    with pytest.raises(RuntimeError, match="hiccuped"):
        await worker.handle(request, gives_up=lambda _: False)  # not the last try: the bus redelivers
    first = await pool.fetchrow("SELECT stage, counts FROM sync_runs WHERE id = $1", run_id)
    assert first["stage"] != "Completed"
    assert first["counts"]["items_new"] == 2

    await worker.handle(request)  # the redelivery
    run = await pool.fetchrow("SELECT stage, counts FROM sync_runs WHERE id = $1", run_id)
    assert run["stage"] == "Completed"
    counts = run["counts"]
    assert (counts["items_seen"], counts["items_new"], counts["items_unchanged"]) == (ITEMS, ITEMS, 0), counts
    chunks = await pool.fetchval("SELECT count(*) FROM memories WHERE source_id = $1", sid)
    assert counts["chunks"] == chunks == ITEMS
    tokens = await pool.fetchval("SELECT sum((metadata->>'tokens')::int) FROM memories WHERE source_id = $1", sid)
    assert counts["tokens"] == tokens  # spent once, whichever attempt spent it
