"""What the readers' word counts cost (``keyword_stats``, migrations 0013 and 0018): a write with the trigger that
counts its terms against the same write without it, alternated in one run, one memory and 100 at a time, each in
its own transaction as the store writes them (memory and version; no event, which would set the consolidator to
work on the cores being measured, and costs the same either way); a search's marks of what it found (an UPDATE of
a column the counts do not read, 50 memories) with the update trigger and without it; and the read a search makes
beside its
query's embedding (``MemoryStore.keyword_weights``, the slice's questions) at the size given. Realistic texts
(``population``), one user's memories among many users'. Run: `uv run python bench/keyword_stats.py [USERS]`
(20 users of 2,000 memories: ~2 min); writes `keyword_stats.md`."""

from __future__ import annotations

import asyncio
import random
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from harness import machine, percentile, publish, running_system
from population import Corpus, batches, load, sample_texts

from memgw.common.domain import Principal
from memgw.common.memories import NewMemory

PER_USER = 2_000
TRIGGER = "memories_keyword_stats_inserted"
ON_UPDATE = "memories_keyword_stats_updated"
MARKED = 50


def _new(n: int, user: str, text: str, dim: int) -> NewMemory:
    return NewMemory(
        id=f"kw_{n:07}",
        user_id=user,
        namespace=f"user/{user}/long_term",
        memory_type="fact",
        content=f"{text} #{n}",
        visibility="private",
        embedding=np.zeros(dim, dtype=np.float32),
        embedding_model="bench",
    )


async def main(users: int) -> str:
    rng = random.Random(11)
    texts, questions = sample_texts(4_000, rng)
    async with running_system() as system:
        dim = system.infra.embedder.dim
        corpus = Corpus(texts, np.asarray(rng_vectors(len(texts), dim)), questions)
        started = time.perf_counter()
        pg_s, _ = await load(system, batches(corpus, users * PER_USER, users, size=10_000))
        load_s = time.perf_counter() - started
        store, pool = system.infra.store, system.infra.pool
        stats_rows = await pool.fetchval("SELECT count(*) FROM keyword_stats")

        async def write(count: int, n: int) -> float:
            news = [_new(n + k, "u000", texts[(n + k) % len(texts)], dim) for k in range(count)]
            t0 = time.perf_counter()
            async with pool.acquire() as conn, conn.transaction():
                await store.insert_many(conn, news, actor="u000", announce=False)
            return (time.perf_counter() - t0) * 1000

        async def counted(on: bool, trigger: str = TRIGGER) -> None:
            await pool.execute(f"ALTER TABLE memories {'ENABLE' if on else 'DISABLE'} TRIGGER {trigger}")

        async def marked(r: int) -> float:
            t0 = time.perf_counter()
            await store.mark_retrieved(own[(r * MARKED) % (len(own) - MARKED) :][:MARKED])
            return (time.perf_counter() - t0) * 1000

        timings: dict[tuple[int, bool], list[float]] = {}
        n = 0
        for count, rounds in ((1, 300), (100, 20)):
            for r in range(rounds):
                for on in (r % 2 == 0, r % 2 == 1):  # each first in every other round
                    await counted(on)
                    timings.setdefault((count, on), []).append(await write(count, n))
                    n += count
        await counted(True)
        own = [r["id"] for r in await pool.fetch("SELECT id FROM memories WHERE user_id = 'u000' ORDER BY id")]
        marks: dict[bool, list[float]] = {True: [], False: []}
        for r in range(200):
            for on in (r % 2 == 0, r % 2 == 1):
                await counted(on, ON_UPDATE)
                marks[on].append(await marked(r))
        await counted(True, ON_UPDATE)

        me = Principal(user_id="u000")
        reads = []
        for q in questions[:300]:
            t0 = time.perf_counter()
            await store.keyword_weights(me, q)
            reads.append((time.perf_counter() - t0) * 1000)

    def row(count: int) -> str:
        return _row(f"{count} a transaction", timings[(count, True)], timings[(count, False)])

    return f"""# The readers' word counts: their cost on writes and searches

{machine()}- {users} users of {PER_USER:,} memories ({users * PER_USER:,} in all), loaded with COPY in {pg_s:.0f} s (the
  trigger counting every row; {load_s:.0f} s with the index), {stats_rows:,} counts (way, source, term) after it.
- writes: `MemoryStore.insert_many` in its own transaction (memory, version row; no event), one user's, with the
  counting trigger and without it, alternated (each first in every other round): 300 rounds of one memory,
  20 of 100.

| write | without the trigger p50 / p99 ms | with it p50 / p99 ms | cost at p50 |
|---|---|---|---|
{row(1)}
{row(100)}

A search's marks of what it found (`MemoryStore.mark_retrieved`: an UPDATE of a column the counts do not read,
written behind the searches every 0.2 s), with the update trigger and without it, alternated, 200 rounds. The
trigger counts out and in again only the rows whose counted columns changed (migration 0018):

| update | without the trigger p50 / p99 ms | with it p50 / p99 ms | cost at p50 |
|---|---|---|---|
{_row(f"{MARKED} memories marked", marks[True], marks[False])}

A search's read of its words' counts (`MemoryStore.keyword_weights`, the reader's ways, one indexed query),
300 of the slice's questions, by a user of {PER_USER:,} memories: p50 {percentile(reads, 50):.2f} ms, p99
{percentile(reads, 99):.2f} ms. It runs beside the query's embedding (the keyword list waits for it, the
dense list does not), so in a hybrid search it adds to the keyword side only.
"""


def _row(name: str, on: list[float], off: list[float]) -> str:
    """A table row: ``off`` and ``on`` (without and with the trigger) at p50 / p99, and the cost at p50."""
    p50_on, p50_off = percentile(on, 50), percentile(off, 50)
    without, counted = f"{p50_off:.2f} / {percentile(off, 99):.2f}", f"{p50_on:.2f} / {percentile(on, 99):.2f}"
    return f"| {name} | {without} | {counted} | + {p50_on - p50_off:.2f} ms ({p50_on / p50_off:.2f} ×) |"


def rng_vectors(n: int, dim: int) -> np.ndarray:
    """Unit vectors: what is measured here never reads them."""
    v = np.random.default_rng(3).standard_normal((n, dim)).astype(np.float32)
    return v / np.linalg.norm(v, axis=1, keepdims=True)


if __name__ == "__main__":
    publish(asyncio.run(main(int(sys.argv[1]) if len(sys.argv) > 1 else 20)), "keyword_stats.md")
