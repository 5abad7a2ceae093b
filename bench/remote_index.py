"""What reaching the embedded index through its owner costs (several processes on one machine,
`memgw.common.index.shared`): the same Qdrant Edge shard searched and written directly and through
a RemoteIndex over NATS, side by side in one run. 10,000 points of 384 dims over 100 users; searches
by meaning and by words with a user filter, the way the gateway asks; upserts in batches of 100.
Run: `uv run python bench/remote_index.py` (NATS from MEMGW_NATS_URL, else an embedded one)."""

from __future__ import annotations

import asyncio
import os
import random
import sys
import tempfile
import time
import uuid
from pathlib import Path

import nats
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from harness import machine, percentile, publish

from memgw.common.bus import BusLayout
from memgw.common.index.base import IndexPoint, Match, VectorIndex, Where
from memgw.common.index.edge import EdgeIndex
from memgw.common.index.shared import RemoteIndex, serve_index
from memgw.launcher.embedded.nats import EmbeddedNats

POINTS, DIM, USERS, QUERIES = 10_000, 384, 100, 400
WORDS = ["项目", "deploy", "数据库", "meeting", "旅行", "budget", "代码评审", "tea", "会议纪要", "family"]


def _points(rng: np.random.Generator, start: int, count: int) -> list[IndexPoint]:
    vectors = rng.normal(size=(count, DIM)).astype(np.float32)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    return [
        IndexPoint(
            memory_id=f"m{start + n}",
            dense=vectors[n].tolist(),
            text=" ".join(WORDS[(start + n + k) % len(WORDS)] for k in range(8)) + f" #{start + n}",
            payload={"user_id": f"u{(start + n) % USERS}", "status": "active"},
        )
        for n in range(count)
    ]


async def _searches(index: VectorIndex, rng: np.random.Generator) -> list[float]:
    times = []
    for n in range(QUERIES):
        where = Where(must=(Match("user_id", f"u{n % USERS}"), Match("status", "active")))
        started = time.perf_counter()
        if n % 2:
            await index.search(text=f"{WORDS[n % len(WORDS)]} meeting", where=where, limit=40)
        else:
            query = rng.normal(size=DIM).astype(np.float32)
            await index.search(dense=(query / np.linalg.norm(query)).tolist(), where=where, limit=40)
        times.append((time.perf_counter() - started) * 1000)
    return times


class _AlwaysOwner:
    """One owner for the whole run: what is measured is the wire, not the lease (checked in memory)."""

    epoch = 1

    def learned_of(self, epoch: int) -> None:
        pass

    async def confirmed(self) -> bool:
        return True


async def _upserts(index: VectorIndex, rng: np.random.Generator, start: int) -> float:
    batches = [_points(rng, start + b * 100, 100) for b in range(20)]
    began = time.perf_counter()
    for batch in batches:
        await index.upsert(batch)
    return 2000 / (time.perf_counter() - began)


async def main() -> str:
    with tempfile.TemporaryDirectory(prefix="memgw-remote-") as tmp:
        embedded = None
        url = os.environ.get("MEMGW_NATS_URL")
        if not url:
            embedded = EmbeddedNats(Path(tmp))
            url = await embedded.start()
        owner_nc, caller_nc = await nats.connect(url), await nats.connect(url)
        shard = EdgeIndex(Path(tmp) / "shard", dim=DIM)
        await shard.ensure()
        layout = BusLayout("bench" + uuid.uuid4().hex[:6])
        serving = await serve_index(owner_nc, layout, shard, _AlwaysOwner())
        remote = RemoteIndex(caller_nc, layout)
        rng = np.random.default_rng(3)
        for start in range(0, POINTS, 1000):
            await shard.upsert(_points(rng, start, 1000))
        results = {}
        for name, index in (("direct", shard), ("remote", remote), ("direct again", shard), ("remote again", remote)):
            await _searches(index, np.random.default_rng(5))  # warm
            times = await _searches(index, np.random.default_rng(9))
            results[name] = (times, await _upserts(index, rng, 100_000 + len(results) * 10_000))
        await serving.unsubscribe()
        await shard.close()
        await owner_nc.close()
        await caller_nc.close()
        if embedded:
            embedded.stop()
    lines = [
        "# Remote index: the embedded shard reached through its owner",
        "",
        machine(),
        f"- {POINTS} points, {DIM} dims, {USERS} users; {QUERIES} searches (half by meaning, half by words,"
        " user filter, limit 40); upserts: 20 batches of 100 points; each side run twice, interleaved",
        "",
        "| path | search p50 ms | p95 | p99 | upserts/s |",
        "|---|---:|---:|---:|---:|",
    ]
    for name, (times, rate) in results.items():
        lines.append(
            f"| {name} | {percentile(times, 50):.2f} | {percentile(times, 95):.2f} | {percentile(times, 99):.2f}"
            f" | {rate:,.0f} |"
        )
    direct = results["direct"][0] + results["direct again"][0]
    remote_times = results["remote"][0] + results["remote again"][0]
    lines += [
        "",
        f"- **added by the hop: p50 {percentile(remote_times, 50) - percentile(direct, 50):+.2f} ms,"
        f" p99 {percentile(remote_times, 99) - percentile(direct, 99):+.2f} ms per index search**"
        " (a gateway search makes two: by meaning and by words)",
    ]
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    random.seed(0)
    report = asyncio.run(main())
    publish(report, "remote_index.md")
