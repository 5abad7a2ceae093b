"""Fairness: tenant A's search latency while tenant B writes maximum-size memories, side by side with
A's latency on an idle system, in one run. Run: `uv run python bench/fairness.py [SEARCHES]`.

B writes memories at the content limit (8,192 estimated tokens, each a different text so nothing is
reused) back to back, from 4 concurrent writers; A searches one query at a time, each a new question
(nothing from the query cache). The target is A's p99 under load ≤ 2 × A's idle p99.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import sys
import time
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from harness import Running, machine, percentile, publish, running_system

WRITERS = 4
WORDS = ["memory", "gateway", "记忆", "网关", "tenant", "fairness", "embedding", "租户", "检索", "search"]


def big_memory(rng: random.Random) -> str:
    """About 7,000 estimated tokens (Chinese: a token a character), under the 8,192 limit, never the
    same text twice."""
    return "".join(rng.choice("记忆网关租户公平检索嵌入向量长文本") for _ in range(7_000)) + f" {rng.random()}"


async def searches(system: Running, key: str, count: int, rng: random.Random) -> list[float]:
    took = []
    for n in range(count):
        query = f"{rng.choice(WORDS)} {rng.choice(WORDS)} question {n} {uuid.uuid4().hex[:6]}"
        start = time.perf_counter()
        answer = await system.client.post("/v1/memory/search", json={"query": query}, headers=system.auth(key))
        took.append((time.perf_counter() - start) * 1000)
        assert answer.status_code == 200, answer.text
    return took


async def writer(system: Running, key: str, rng: random.Random, written: list[float], stop: asyncio.Event) -> None:
    while not stop.is_set():
        start = time.perf_counter()
        answer = await system.client.post("/v1/memory", json={"content": big_memory(rng)}, headers=system.auth(key))
        assert answer.status_code == 201, answer.text[:200]
        written.append((time.perf_counter() - start) * 1000)


async def main(count: int) -> None:
    rng = random.Random(11)
    async with running_system() as system:
        a = await system.user_key("tenant_a")
        b = await system.user_key("tenant_b")
        for n in range(20):  # something for A to find
            await system.client.post(
                "/v1/memory", json={"content": f"A's note {n}: {rng.choice(WORDS)}"}, headers=system.auth(a)
            )
        await searches(system, a, 10, rng)  # warm up
        idle = await searches(system, a, count, rng)
        stop = asyncio.Event()
        written: list[float] = []
        tasks = [asyncio.create_task(writer(system, b, random.Random(w), written, stop)) for w in range(WRITERS)]
        await asyncio.sleep(2.0)  # the writers are under way
        loaded = await searches(system, a, count, rng)
        stop.set()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task
    rows = [
        ("idle", idle),
        (f"while B writes ({WRITERS} writers, max-size memories)", loaded),
    ]
    ratio = percentile(loaded, 99) / percentile(idle, 99)
    lines = [
        "# Fairness: one tenant's search while another writes maximum-size memories",
        "",
        machine(),
        f"{count} searches by tenant A in each phase, one at a time, each a new question.",
        f"Tenant B wrote {len(written)} memories of ~7,000 tokens meanwhile"
        f" (p50 {percentile(written, 50):.0f} ms each).",
        "",
        "| phase | p50 ms | p95 ms | p99 ms | max ms |",
        "|---|---|---|---|---|",
    ]
    for name, values in rows:
        lines.append(
            f"| {name} | {percentile(values, 50):.1f} | {percentile(values, 95):.1f} | {percentile(values, 99):.1f}"
            f" | {max(values):.1f} |"
        )
    lines += ["", f"**p99 under load / p99 idle = {ratio:.2f}** (target ≤ 2)."]
    report = "\n".join(lines) + "\n"
    publish(report, "fairness.md")


if __name__ == "__main__":
    asyncio.run(main(int(sys.argv[1]) if len(sys.argv) > 1 else 200))
