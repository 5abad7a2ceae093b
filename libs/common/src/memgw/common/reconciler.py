"""Keeps the index in line with Postgres, the truth: at start, an index that lost points (deleted,
restored from an older copy, a new Qdrant collection) or holds them without their read key (written
by an older version) is filled in again, and memories without their keyword terms (``keyword_stats``,
the readers' word counts) get them; then, periodically, every change whose writer crashed
between its commit and its index write is indexed (``index_pending``).

Every process with an index runs it; it is idempotent, so several at once only repeat work."""

from __future__ import annotations

import asyncio

from memgw.common.logging import get_logger
from memgw.common.memories import MemoryStore

log = get_logger("memgw.index.reconciler")

# A change younger than this is still in its writer's hands (its index write follows its commit).
GRACE_S = 10.0


async def reconcile_forever(store: MemoryStore, *, every_s: float, grace_s: float = GRACE_S) -> None:
    try:
        gap = await store.index_gap()
        keyless = await store.index_keyless()
        if gap > 0 or keyless:
            log.warning("index.reconcile.filling_in", missing=max(gap, 0), keyless=keyless)
            log.info("index.reconcile.filled_in", points=await store.reindex(fresh=False))
        elif gap < 0:  # extra points are filtered out of answers by Postgres; a rebuild drops them
            log.warning("index.reconcile.extra_points", extra=-gap, hint="memgw reindex")
    except Exception as exc:  # an outage at start: the periodic pass below catches up later
        log.warning("index.reconcile.start_failed", error=str(exc))
    try:
        counted = await store.count_keyword_terms()
        if counted:
            log.info("index.reconcile.keyword_terms_counted", memories=counted)
    except Exception as exc:  # counted at the next start; meanwhile those memories weigh no word's rarity
        log.warning("index.reconcile.keyword_terms_failed", error=str(exc))
    while True:
        try:
            mended = await store.reconcile_index(older_than_s=grace_s)
            if mended:
                log.warning("index.reconcile.mended", memories=mended)
        except Exception as exc:  # Postgres or the index is down: the next pass tries again
            log.warning("index.reconcile.failed", error=str(exc))
        await asyncio.sleep(every_s)
