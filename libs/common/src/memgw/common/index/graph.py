"""When the embedded shard builds its HNSW graph: decided by the index's owner, on its own.

Without a graph a query scores every point its filter lets through: a user's own search the points
the tenant payload index finds for that user (fast up to a few hundred thousand points in all; at a
million a graph took 5 ms off the p50, 27 ms before BM25 scored a tenant's points alone, bench/
reports/scale.md), a search across users (an admin's, a wide workspace's) every point outside the
graph. A build costs a copy of the whole shard (``edge.py``), so building after every few thousand
new points would copy a large shard over and over. Hence two conditions, both needed: the points
outside the graph reach ``MEMGW_INDEX_GRAPH_MIN_NEW`` (below it a scan is cheap, and a graph made
tenant-filtered searches slower in bench/reports/index_build.md), and they are at least
``MEMGW_INDEX_GRAPH_SHARE`` of the shard (so the copying costs at most 1/share points per new point,
and an unfiltered scan never covers more than that share of the shard between builds).
"""

from __future__ import annotations

import asyncio

from memgw.common.index.edge import EdgeIndex
from memgw.common.logging import get_logger

log = get_logger("memgw.index.graph")


def graph_due(points: int, outside: int, *, min_new: int, share: float) -> bool:
    """Whether the points outside the graph are worth a build now."""
    return outside >= min_new and outside >= share * points


async def keep_graph_forever(index: EdgeIndex, *, every_s: float, min_new: int, share: float) -> None:
    while True:
        await asyncio.sleep(every_s)
        try:
            points, outside = await index.graph_gap()
            if graph_due(points, outside, min_new=min_new, share=share):
                log.info("index.graph.building", points=points, outside_graph=outside)
                started = asyncio.get_running_loop().time()
                await index.optimize()
                log.info("index.graph.built", points=points, seconds=round(asyncio.get_running_loop().time() - started))
        except Exception as exc:  # a failed build leaves the live shard as it was; the next pass tries again
            log.warning("index.graph.failed", error=str(exc)[:300])
