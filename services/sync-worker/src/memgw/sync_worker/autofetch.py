"""Auto-fetch: enabled sources are synced again on a cadence per kind (0 = manual only).

Every tick each replica looks for due sources (no run in flight, the last one started longer ago
than the cadence). Starting a run inserts the run row under the one-run-per-source unique index,
so when several replicas find the same due source only one of them starts it; the request also
carries a ``Nats-Msg-Id`` of the source and time slot, so JetStream drops any duplicate. "Due" is
read from the database, so a restart does not fire again syncs that just ran.
"""

from __future__ import annotations

import asyncio
import time

import asyncpg

from memgw.common import runs, source_registry
from memgw.common.bus import BusLayout
from memgw.common.logging import get_logger
from memgw.common.settings import SourceSettings

log = get_logger("memgw.autofetch")


class AutoFetch:
    def __init__(self, pool: asyncpg.Pool, layout: BusLayout, settings: SourceSettings):
        self.pool, self.layout, self.settings = pool, layout, settings

    async def run(self) -> None:
        while True:
            try:
                started = await self.tick()
                if started:
                    log.info("autofetch.started", sources=started)
            except Exception as exc:  # a failed tick is retried at the next one
                log.warning("autofetch.tick_failed", error=str(exc))
            await asyncio.sleep(self.settings.autofetch_tick_s)

    async def tick(self) -> list[str]:
        """Start a run for every due source; return their ids."""
        cadences = {k: v for k, v in self.settings.autofetch_cadence_s.items() if v > 0}
        if not cadences:
            return []
        enabled = await source_registry.enabled_of_kinds(self.pool, list(cadences))
        waiting = await runs.busy_or_recent(self.pool, {s["id"]: float(cadences[s["kind"]]) for s in enabled})
        due = [s for s in enabled if s["id"] not in waiting]
        started = []
        for source in due:
            slot = int(time.time() // cadences[source["kind"]])
            owners = runs.SourceOwners(source["id"], source["owner_user_id"], source["workspace_id"])
            async with self.pool.acquire() as conn, conn.transaction():
                _, created = await runs.start(
                    conn,
                    self.layout,
                    owners,
                    reason="auto",
                    stale_after_s=self.settings.sync_run_stale_s,
                    message_id=f"auto-{source['id']}-{slot}",
                    detail="auto-fetch",
                )
            if not created:
                continue  # another replica (or a person) started it a moment ago
            started.append(source["id"])
        return started
