"""The read filter at the index level: the full rules checked point by point (the filter searches used
before read keys, kept here as it was at 47a882d) against the reader's read keys (``acl.read_where``),
on one embedded shard, the same queries alternated between the two, twice; without and with the HNSW
graph. Users of 10,000 memories each (the size where the per-point checks cost), realistic texts,
random unit vectors (the filter, not the ranking, is measured). Run:
`uv run python bench/read_keys.py [USERS] [--no-graph]` (20 users: ~4 min; 100 users, no graph: ~10 min);
writes `read_keys_<memories>k.md`."""

from __future__ import annotations

import asyncio
import random
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from harness import machine, percentile, publish
from population import Corpus, batches, sample_texts

from memgw.common.acl import read_where, visibility_where
from memgw.common.domain import Principal
from memgw.common.index.base import IsEmpty, Match, MatchAny, Range, Where
from memgw.common.index.edge import EdgeIndex
from memgw.common.memories import index_point

PER_USER = 10_000
QUERIES = 300


def rules_where(p: Principal) -> Where:
    """The default read filter before read keys: every rule a condition of its own."""
    return Where(
        must=(
            visibility_where(p),
            MatchAny("status", ("active",)),
            Where(should=(IsEmpty("expires_ts"), Range("expires_ts", gt=datetime.now(UTC).timestamp()))),
        ),
        must_not=(Match("flags", "incorrect"),),
    )


async def main(users: int, graph: bool) -> str:
    texts, questions = sample_texts(2000, random.Random(1))
    vectors = np.random.default_rng(1).normal(size=(2000, 384)).astype(np.float32)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    queries = np.random.default_rng(2).normal(size=(QUERIES, 384)).astype(np.float32)
    index = EdgeIndex(Path(tempfile.mkdtemp(prefix="memgw-read-keys-")) / "shard", dim=384)
    await index.ensure()
    started = time.perf_counter()
    for rows in batches(Corpus(texts, vectors, questions), users * PER_USER, users):
        for i in range(0, len(rows), 2000):
            await index.upsert([index_point(r) for r in rows[i : i + 2000]])
    load_s = time.perf_counter() - started
    lines, build_s = [], 0.0
    for phase in ("no graph", "graph") if graph else ("no graph",):
        if phase == "graph":
            started = time.perf_counter()
            await index.optimize()
            build_s = time.perf_counter() - started
        lat: dict[tuple[str, str], list[float]] = {}
        for _ in range(2):
            for name, where_of in (("rules", rules_where), ("read keys", read_where)):
                for kind in ("bm25", "dense"):
                    for n, question in enumerate(questions[:QUERIES]):
                        where = where_of(Principal(user_id=f"u{n % users:03}"))
                        t = time.perf_counter()
                        if kind == "bm25":
                            await index.search(text=question, where=where, limit=60)
                        else:
                            await index.search(dense=queries[n].tolist(), where=where, limit=60)
                        lat.setdefault((kind, name), []).append((time.perf_counter() - t) * 1000)
        cells = [
            f"{percentile(lat[(k, n)], 50):.1f} / {percentile(lat[(k, n)], 99):.1f}"
            for k in ("bm25", "dense")
            for n in ("rules", "read keys")
        ]
        lines.append(f"| {phase} | " + " | ".join(cells) + " |")
    await index.close()
    table = "\n".join(lines)
    return f"""# Read filter at the index level — rules point by point vs read keys

{machine()}- {users * PER_USER:,} memories, {users} users of {PER_USER:,}; loaded in {load_s:.0f} s{
        f", graph built in {build_s:.0f} s" if graph else ""
    }. {QUERIES} LoCoMo questions (BM25) and random
  vectors (dense), a user each, limit 60; each filter asked every query twice, alternated. p50 / p99 ms.

| phase | BM25, rules | BM25, read keys | dense, rules | dense, read keys |
|---|---|---|---|---|
{table}
"""


if __name__ == "__main__":
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    users = int(args[0]) if args else 20
    text = asyncio.run(main(users, "--no-graph" not in sys.argv))
    publish(text, f"read_keys_{users * PER_USER // 1000}k.md")
