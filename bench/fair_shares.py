"""Fair shares between keys (issue "Trust C", N6): tenant B's single writes and searches, idle and while
tenant A floods, side by side in one run. Run: `uv run python bench/fair_shares.py [report-name.md]`.

Two floods, each from one key over many connections at once:
- batch writes: A posts batches of 100 memories from 8 connections, back to back;
- tiny searches: A asks one-word searches from 32 connections, back to back (most answered 429 once
  A's slots and queue are full: what A is refused is counted, not retried).
B meanwhile writes or searches one request at a time. The ratio of B's p50 and p99 under each flood to
the idle ones is what a flood costs another tenant.
"""

from __future__ import annotations

import asyncio
import contextlib
import sys
import time
import uuid
from collections import Counter
from collections.abc import Awaitable, Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from harness import machine, percentile, publish, running_system

ROUNDS = 60


async def timed(call: Callable[[], Awaitable[object]], rounds: int) -> list[float]:
    took = []
    for _ in range(rounds):
        start = time.perf_counter()
        await call()
        took.append((time.perf_counter() - start) * 1000)
    return took


async def flood(call: Callable[[], Awaitable[int]], connections: int, stop: asyncio.Event, seen: Counter[int]) -> None:
    async def one() -> None:
        while not stop.is_set():
            seen[await call()] += 1

    await asyncio.gather(*(one() for _ in range(connections)))


async def main(name: str | None) -> None:
    async with running_system() as system:
        a, b = await system.user_key(f"a_{uuid.uuid4().hex[:6]}"), await system.user_key(f"b_{uuid.uuid4().hex[:6]}")

        async def b_writes() -> None:
            text = f"B's note {uuid.uuid4().hex}"
            (await system.client.post("/v1/memory", json={"content": text}, headers=system.auth(b))).raise_for_status()

        async def b_searches() -> None:
            query = {"query": f"note {uuid.uuid4().hex[:6]}"}
            (await system.client.post("/v1/memory/search", json=query, headers=system.auth(b))).raise_for_status()

        async def a_batch() -> int:
            body = {"memories": [{"content": f"A's bulk item {uuid.uuid4().hex}"} for _ in range(100)]}
            return (await system.client.post("/v1/memory/batch", json=body, headers=system.auth(a))).status_code

        async def a_search() -> int:
            query = {"query": f"x{uuid.uuid4().hex[:4]}"}
            return (await system.client.post("/v1/memory/search", json=query, headers=system.auth(a))).status_code

        await timed(b_writes, 10)  # warm up
        await timed(b_searches, 10)
        rows = []
        for what, b_call, a_call, connections in (
            ("B's single write", b_writes, a_batch, 8),
            ("B's search", b_searches, a_search, 32),
        ):
            idle = await timed(b_call, ROUNDS)
            stop, seen = asyncio.Event(), Counter[int]()
            flooding = asyncio.create_task(flood(a_call, connections, stop, seen))
            await asyncio.sleep(2.0)
            loaded = await timed(b_call, ROUNDS)
            stop.set()
            with contextlib.suppress(asyncio.CancelledError):
                await flooding
            rows.append((what, idle, loaded, connections, seen))
    lines = [
        "# Fair shares: one tenant's requests while another key floods",
        "",
        machine(),
        f"{ROUNDS} requests by tenant B in each phase, one at a time. Limits: the defaults (docs/settings.md).",
        "",
        "| B's request | A's flood | idle p50 / p99 ms | flooded p50 / p99 ms | p50 ratio | p99 ratio | A's answers |",
        "|---|---|---|---|---|---|---|",
    ]
    for what, idle, loaded, connections, seen in rows:
        flood_name = "batches of 100" if "write" in what else "one-word searches"
        lines.append(
            f"| {what} | {flood_name} from {connections} connections"
            f" | {percentile(idle, 50):.1f} / {percentile(idle, 99):.1f}"
            f" | {percentile(loaded, 50):.1f} / {percentile(loaded, 99):.1f}"
            f" | {percentile(loaded, 50) / percentile(idle, 50):.2f}"
            f" | {percentile(loaded, 99) / percentile(idle, 99):.2f}"
            f" | {dict(sorted(seen.items()))} |"
        )
    publish("\n".join(lines) + "\n", name)


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1] if len(sys.argv) > 1 else None))
