"""The consolidator (the EverMemOS role): session episodes into long-term memory, dedup and merge,
contradictions to human review, feedback, decay and pruning, profile evolution."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime

from memgw.common.logging import get_logger
from memgw.common.openviking import openviking_for
from memgw.common.runtime import Infra, ServiceParts
from memgw.consolidator.maintenance import Maintenance
from memgw.consolidator.openviking_sync import OpenVikingSync
from memgw.consolidator.router import create_router
from memgw.consolidator.service import Consolidator

log = get_logger("memgw.consolidator")


def consolidator_for(infra: Infra) -> Consolidator:
    return Consolidator(
        pool=infra.pool,
        store=infra.store,
        index=infra.index,
        embedder=infra.embedder,
        layout=infra.layout,
        settings=infra.settings.consolidation,
        skills=infra.skills,
    )


def maintenance_for(infra: Infra) -> Maintenance:
    return Maintenance(pool=infra.pool, store=infra.store, settings=infra.settings.consolidation, skills=infra.skills)


def build(infra: Infra) -> ServiceParts:
    settings = infra.settings.consolidation
    maintenance = maintenance_for(infra)

    async def schedule() -> None:
        while True:
            try:
                plan = await maintenance.run(datetime.now(UTC))
                log.info(
                    "maintenance.done",
                    decayed=len(plan.decayed),
                    archived=len(plan.archived),
                    deleted=len(plan.deleted),
                    purged_episodes=plan.purged_episodes,
                    empty_keyword_counts=plan.empty_keyword_counts,
                )
            except Exception as exc:  # the next round retries
                log.warning("maintenance.failed", error=str(exc))
            await asyncio.sleep(settings.maintenance_interval_s)

    background = [schedule]
    consolidator = consolidator_for(infra)
    cleanup = [consolidator.close]
    client = openviking_for(infra.settings.openviking)
    sync = OpenVikingSync(infra.pool, client) if client is not None else None
    if client is not None and sync is not None:

        async def catch_up() -> None:
            try:
                await sync.catch_up()
            except Exception as exc:  # each memory's next change mends it; the next start catches up again
                log.warning("openviking.catch_up_failed", error=str(exc)[:300])

        background.append(catch_up)
        cleanup.append(client.close)
    return ServiceParts(
        name="consolidator",
        router=create_router(
            infra.layout,
            infra.broker,
            consolidator,
            sync,
            commit_workers=infra.settings.consolidation.commit_workers,
        ),
        background=background,
        cleanup=cleanup,
    )
