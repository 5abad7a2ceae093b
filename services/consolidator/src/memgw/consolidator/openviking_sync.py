"""Accepted memories out to OpenViking as resources (seed 004 §G), when MEMGW_OPENVIKING_URL is set.

An active memory is written (again, at each new version); one that is archived, deleted, sent to
review or marked incorrect has its resource removed. Memories that came from OpenViking are never
written back, session episodes and source chunks never go. ``openviking_resources`` remembers what
was written where, so a catch-up at start mends whatever was missed while OpenViking was away.
"""

from __future__ import annotations

import asyncpg

from memgw.common.domain import MemoryRecord, MemoryStatus, MemoryType
from memgw.common.logging import get_logger
from memgw.common.memories import reads
from memgw.common.openviking import OpenViking, from_openviking

log = get_logger("memgw.consolidator.openviking")


def _wanted(record: MemoryRecord | None) -> bool:
    return (
        record is not None
        and record.status is MemoryStatus.ACTIVE
        and "incorrect" not in record.flags
        and record.memory_type != MemoryType.RESOURCE
        and not record.namespace.startswith("session/")
        and not from_openviking(record)
    )


class OpenVikingSync:
    def __init__(self, pool: asyncpg.Pool, client: OpenViking) -> None:
        self.pool, self.client = pool, client

    async def memory_changed(self, memory_id: str) -> str:
        """Bring OpenViking in line with the memory as Postgres has it now; say what was done."""
        record = await reads.record(self.pool, memory_id)
        known = await self.pool.fetchrow(
            "SELECT uri, version FROM openviking_resources WHERE memory_id = $1", memory_id
        )
        if record is None or not _wanted(record):
            if known is None:
                return "skipped"
            await self.client.remove(known["uri"])
            await self.pool.execute("DELETE FROM openviking_resources WHERE memory_id = $1", memory_id)
            return "removed"
        uri = self.client.resource_uri(record)
        if known is not None and known["uri"] == uri and known["version"] == record.version:
            return "unchanged"
        if known is not None and known["uri"] != uri:
            await self.client.remove(known["uri"])
        await self.client.put(record)
        await self.pool.execute(
            "INSERT INTO openviking_resources (memory_id, uri, version) VALUES ($1, $2, $3)"
            " ON CONFLICT (memory_id) DO UPDATE SET uri = EXCLUDED.uri, version = EXCLUDED.version, synced_at = now()",
            memory_id,
            uri,
            record.version,
        )
        return "written"

    async def catch_up(self) -> dict[str, int]:
        """Every memory whose resource is missing, stale or no longer wanted, mended once."""
        standing = await reads.versions_of_standing(self.pool, except_type="resource")
        known = {
            r["memory_id"]: r["version"]
            for r in await self.pool.fetch("SELECT memory_id, version FROM openviking_resources")
        }
        stale = {memory_id for memory_id, version in standing.items() if known.get(memory_id) != version}
        gone = set(known) - set(standing)  # no longer active (or no longer there): its resource goes
        done: dict[str, int] = {}
        for memory_id in sorted(stale | gone):
            what = await self.memory_changed(memory_id)
            done[what] = done.get(what, 0) + 1
        log.info("openviking.caught_up", **done)
        return done
