"""Does the HNSW build block searches? The embedded index builds on a copy in a child process; this
measures filtered query latency (dense and BM25) on the embedded shard before, during and after building the
graph over N points. Run: `uv run python bench/index_build.py [N]`."""

from __future__ import annotations

import asyncio
import random
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from harness import machine, percentile, publish

from memgw.common.index.base import IndexPoint, Match, Where
from memgw.common.index.edge import EdgeIndex

WORDS = ["记忆", "memory", "数据库", "deploy", "会议", "budget", "茶", "travel", "代码", "family", "决定", "prefers"]


async def queries(
    index: EdgeIndex, vectors: np.ndarray, rng: random.Random, until: asyncio.Event | None, count: int
) -> list[float]:
    times = []
    n = 0
    while (until is None and n < count) or (until is not None and not until.is_set()):
        vector = vectors[rng.randrange(len(vectors))]
        where = Where(must=(Match("user_id", f"u{rng.randrange(100):03}"),))
        start = time.perf_counter()
        await index.search(dense=vector.tolist(), where=where, limit=10)  # the two retrievers the product asks
        await index.search(text=" ".join(rng.sample(WORDS, 3)), where=where, limit=10)
        times.append((time.perf_counter() - start) * 1000)
        n += 1
        await asyncio.sleep(0)
    return times


async def main(n: int) -> str:
    rng = random.Random(3)
    vectors = np.random.default_rng(3).normal(size=(n, 384)).astype(np.float32)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    with tempfile.TemporaryDirectory() as tmp:
        index = EdgeIndex(Path(tmp) / "shard", dim=384)
        await index.ensure()
        for start in range(0, n, 5000):
            await index.upsert(
                [
                    IndexPoint(
                        f"m{i}",
                        vectors[i].tolist(),
                        " ".join(rng.sample(WORDS, 4)) + f" {i}",
                        {"user_id": f"u{i % 100:03}", "status": "active"},
                    )
                    for i in range(start, min(n, start + 5000))
                ]
            )
        before = await queries(index, vectors, rng, None, 200)
        done = asyncio.Event()
        build_start = time.perf_counter()
        build = asyncio.create_task(index.optimize())
        build.add_done_callback(lambda _: done.set())
        during = await queries(index, vectors, rng, done, 0)
        await build
        build_s = time.perf_counter() - build_start
        after = await queries(index, vectors, rng, None, 200)
        await index.close()
    phases = (("before the build", before), ("during the build", during), ("after the build", after))
    rows = "\n".join(
        f"| {name} | {len(t)} | {percentile(t, 50):.2f} | {percentile(t, 95):.2f} | {percentile(t, 99):.2f}"
        f" | {max(t):.1f} |"
        for name, t in phases
    )
    return f"""# Index build — do searches go on while the HNSW graph is built?

{machine()}- {n:,} points (384-d dense + BM25), filtered dense and BM25 queries (one user of 100), Qdrant Edge;
  `EdgeIndex.optimize` as the product runs it: the shard is copied, a child process builds the graph on the
  copy ({build_s:.1f} s), the copy is loaded, the writes made meanwhile are replayed onto it and it is swapped
  in, while a query loop kept asking the live shard. (Qdrant Edge holds the GIL while it optimises: built
  in-process, as before 2026-11-30, the first query of the build waited 47 s for it.)

| phase | queries | p50 ms | p95 ms | p99 ms | max ms |
|---|---|---|---|---|---|
{rows}
"""


if __name__ == "__main__":
    text = asyncio.run(main(int(sys.argv[1]) if len(sys.argv) > 1 else 100_000))
    publish(text, "index_build.md")
