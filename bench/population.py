"""Many memories fast, for benchmarks at scale: realistic texts (LoCoMo dialogue turns, and chunks of
several turns for note-sized memories) with precomputed vectors (each distinct text embedded once by
the real model, each memory a slightly perturbed copy), written with COPY into Postgres and upserted
into the index the way the product indexes a row (``index_point``)."""

from __future__ import annotations

import hashlib
import json
import random
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import numpy as np
from harness import Running

from memgw.common.domain import content_hash
from memgw.common.embedding.base import Embedder
from memgw.common.index import sparse
from memgw.common.memories import index_point, vector_bytes

DATA = Path(__file__).resolve().parents[2] / "shared" / "eval" / "locomo-dev.json"
CACHE = Path(__file__).resolve().parent / ".cache"
COLUMNS = (
    "id user_id namespace memory_type content tags flags importance confidence visibility source status"
    " evidence_count version content_hash embedding embedding_model created_at updated_at keyword_terms"
).split()


@dataclass
class Corpus:
    texts: list[str]
    vectors: np.ndarray
    questions: list[str]


def _turns() -> tuple[list[str], list[str]]:
    samples = json.loads(DATA.read_text())
    turns: list[str] = []
    for sample in samples:
        conversation = sample["conversation"]
        s = 1
        while f"session_{s}" in conversation:
            turns += [f"{t['speaker']}: {t['text']}" for t in conversation[f"session_{s}"]]
            s += 1
    questions = [qa["question"] for sample in samples for qa in sample["qa"]]
    return turns, questions


def sample_texts(distinct: int, rng: random.Random) -> tuple[list[str], list[str]]:
    """(``distinct`` texts, the slice's questions): four in five texts one dialogue turn (~100 chars),
    one in five a run of 3-10 turns (a note's chunk, ~300-1,200 chars)."""
    turns, questions = _turns()
    texts = []
    for _ in range(distinct):
        start = rng.randrange(len(turns))
        size = 1 if rng.random() < 0.8 else rng.randint(3, 10)
        texts.append("\n".join(turns[start : start + size])[:1200])
    return texts, questions


async def corpus(embedder: Embedder, distinct: int, rng: random.Random) -> Corpus:
    """``sample_texts``, each embedded once (kept in bench/.cache for the next run)."""
    texts, questions = sample_texts(distinct, rng)
    key = hashlib.sha256(json.dumps([embedder.name, texts]).encode()).hexdigest()[:16]
    cached = CACHE / f"corpus-{key}.npy"
    if cached.exists():
        vectors = np.load(cached)
    else:
        vectors = np.asarray(await embedder.embed_passages(texts), dtype=np.float32)
        CACHE.mkdir(exist_ok=True)
        np.save(cached, vectors)
    return Corpus(texts, vectors, questions)


def batches(
    c: Corpus, total: int, users: int, size: int = 20_000, *, owners: Sequence[str] = (), tag: str = "s"
) -> Iterator[list[dict[str, Any]]]:
    """``total`` memories in turn to ``users`` users u000, u001, ... (or to ``owners``), ids ``mem_<tag>…``."""
    noise = np.random.default_rng(7)
    now = datetime.now(UTC)
    for start in range(0, total, size):
        count = min(size, total - start)
        picks = np.arange(start, start + count) % len(c.texts)
        vectors = c.vectors[picks] + noise.normal(0, 0.02, (count, c.vectors.shape[1])).astype(np.float32)
        vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
        rows = []
        for k in range(count):
            n = start + k
            user = owners[n % len(owners)] if owners else f"u{n % users:03}"
            text = f"{c.texts[picks[k]]} #{n}"  # every memory its own text, as real ones are
            rows.append(
                {
                    "id": f"mem_{tag}{n:08}",
                    "user_id": user,
                    "agent_id": None,
                    "workspace_id": None,
                    "session_id": None,
                    "source_id": None,
                    "source_scope": None,
                    "namespace": f"user/{user}/long_term",
                    "memory_type": "fact",
                    "content": text,
                    "keyword_terms": sparse.document_terms(text),  # counted for its readers' IDF, as the store does
                    "tags": [],
                    "flags": [],
                    "importance": 0.5,
                    "confidence": 0.8,
                    "visibility": "private",
                    "source": "bench",
                    "status": "active",
                    "evidence_count": 1,
                    "version": 1,
                    "content_hash": content_hash(text),
                    "embedding": vector_bytes(vectors[k]),
                    "embedding_model": "bench",
                    "created_at": now - timedelta(seconds=total - n),
                    "updated_at": now,
                    "expires_at": None,
                }
            )
        yield rows


async def load(system: Running, rows_batches: Iterator[list[dict[str, Any]]]) -> tuple[float, float]:
    """Write every batch to Postgres (COPY) and the index; return (Postgres s, index s). The index is
    brought in line here, so the marks the insert trigger left for it are cleared batch by batch (left
    for the end, the reconciler took them for crashed writes and indexed the load a second time)."""
    pg_s = index_s = 0.0
    for rows in rows_batches:
        started = time.perf_counter()
        async with system.infra.pool.acquire() as conn:
            await conn.copy_records_to_table(
                "memories", records=[tuple(r[c] for c in COLUMNS) for r in rows], columns=COLUMNS
            )
        pg_s += time.perf_counter() - started
        started = time.perf_counter()
        await system.infra.index.upsert([index_point(r) for r in rows])
        await system.infra.pool.execute("TRUNCATE index_pending")
        index_s += time.perf_counter() - started
    await system.infra.pool.execute("ANALYZE memories")  # as autovacuum would soon: plans for the new size
    return pg_s, index_s
