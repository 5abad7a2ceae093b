"""Qdrant Edge: the real Qdrant engine in-process, one shard on disk in the data dir.

Every shard call is blocking Rust code, so it runs in a small thread pool, never on the event loop;
the HNSW build (``optimize``) gets a thread of its own and is skipped while one is already running.
Measured (bench/index_build.py): queries wait while ``optimize`` runs (45 s at 100k points), so it is
only called by ``memgw reindex``; without the graph, tenant-filtered hybrid queries over 100k points
already answer in ~1.5 ms (payload index on user_id), far below the query-embedding time.
"""

from __future__ import annotations

import asyncio
import fcntl
import os
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import IO, Any, TypeVar

import qdrant_edge as qe

from memgw.common.index import sparse
from memgw.common.index.base import (
    FLOAT_FIELDS,
    KEYWORD_FIELDS,
    Condition,
    IndexHit,
    IndexPoint,
    IsEmpty,
    Match,
    MatchAny,
    Range,
    Where,
    one_of,
    point_id,
)

T = TypeVar("T")


def _condition(c: Condition) -> Any:
    if isinstance(c, Match):
        return qe.FieldCondition(key=c.key, match=qe.MatchValue(c.value))
    if isinstance(c, MatchAny):
        return qe.FieldCondition(key=c.key, match=qe.MatchAny(list(c.values)))
    if isinstance(c, Range):
        return qe.FieldCondition(key=c.key, range=qe.RangeFloat(gt=c.gt, gte=c.gte, lt=c.lt, lte=c.lte))
    if isinstance(c, IsEmpty):
        return qe.IsEmptyCondition(key=c.key)
    return to_edge_filter(c)


def to_edge_filter(where: Where | None) -> qe.Filter | None:
    if where is None:
        return None
    return qe.Filter(
        must=[_condition(c) for c in where.must] or None,
        should=[_condition(c) for c in where.should] or None,
        must_not=[_condition(c) for c in where.must_not] or None,
    )


class IndexInUse(RuntimeError):
    """The embedded index belongs to another process."""


class EdgeIndex:
    """An embedded Qdrant Edge shard. It has one owner: a second process on the same data dir is
    refused at start with a clear message (a shared index needs a Qdrant server)."""

    def __init__(self, path: Path, *, dim: int, threads: int = 4):
        self._path = path
        self._owner: IO[str] | None = None
        self._dim = dim
        self._pool = ThreadPoolExecutor(max_workers=threads, thread_name_prefix="qdrant-edge")
        self._optimizing = threading.Lock()
        self._shard: qe.EdgeShard | None = None

    def _config(self) -> qe.EdgeConfig:
        return qe.EdgeConfig(
            vectors={"dense": qe.EdgeVectorParams(size=self._dim, distance=qe.Distance.Cosine)},
            sparse_vectors={"bm25": qe.EdgeSparseVectorParams(modifier=qe.Modifier.Idf)},
        )

    async def _call(self, fn: Callable[[], T]) -> T:
        return await asyncio.get_running_loop().run_in_executor(self._pool, fn)

    @property
    def shard(self) -> qe.EdgeShard:
        if self._shard is None:
            raise RuntimeError("EdgeIndex.ensure() was not awaited")
        return self._shard

    async def ensure(self) -> None:
        def open_shard() -> qe.EdgeShard:
            has_data = self._path.exists() and any(self._path.iterdir())
            shard = (
                qe.EdgeShard.load(str(self._path)) if has_data else qe.EdgeShard.create(str(self._path), self._config())
            )
            existing = set(shard.info().payload_schema)
            for name in KEYWORD_FIELDS:
                if name not in existing:
                    params = (
                        qe.KeywordIndexParams(is_tenant=True) if name == "user_id" else qe.PayloadSchemaType.Keyword
                    )
                    shard.update(qe.UpdateOperation.create_field_index(name, params))
            for name in FLOAT_FIELDS:
                if name not in existing:
                    shard.update(qe.UpdateOperation.create_field_index(name, qe.PayloadSchemaType.Float))
            return shard

        if self._shard is None:
            self._path.mkdir(parents=True, exist_ok=True)
            self._own()
            self._shard = await self._call(open_shard)

    def _own(self) -> None:
        if self._owner is not None:
            return
        handle = self._path.with_name(self._path.name + ".lock").open("a+")
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError as exc:
            handle.seek(0)
            holder = handle.read().strip() or "another process"
            handle.close()
            raise IndexInUse(
                f"the embedded index at {self._path} is in use by process {holder}. Run one process per data"
                " dir (`memgw up` runs every service in one), or give every process the same Qdrant server"
                " with MEMGW_QDRANT_URL"
            ) from exc
        handle.seek(0)
        handle.truncate()
        handle.write(str(os.getpid()))
        handle.flush()
        self._owner = handle

    async def upsert(self, points: Sequence[IndexPoint]) -> None:
        if not points:
            return
        edge_points = [
            qe.Point(
                p.id,
                {"dense": list(p.dense), "bm25": sparse.as_edge(sparse.encode_document(p.text))},
                {**p.payload, "memory_id": p.memory_id},
            )
            for p in points
        ]
        await self._call(lambda: self.shard.update(qe.UpdateOperation.upsert_points(edge_points)))

    async def delete(self, memory_ids: Sequence[str]) -> None:
        if memory_ids:
            ids: list[Any] = [point_id(m) for m in memory_ids]
            await self._call(lambda: self.shard.update(qe.UpdateOperation.delete_points(ids)))

    async def set_payload(self, memory_ids: Sequence[str], payload: dict[str, Any]) -> None:
        if memory_ids:
            ids: list[Any] = [point_id(m) for m in memory_ids]
            await self._call(lambda: self.shard.update(qe.UpdateOperation.set_payload(ids, payload)))

    async def search(
        self,
        *,
        dense: Sequence[float] | None = None,
        text: str | None = None,
        where: Where | None,
        limit: int,
    ) -> list[IndexHit]:
        one_of(dense, text)
        if dense is not None:
            query = qe.Query.Nearest(list(dense), using="dense")
        elif text:
            query = qe.Query.Nearest(sparse.as_edge(sparse.encode_query(text)), using="bm25")
        else:
            return []
        request = qe.QueryRequest(limit=limit, query=query, filter=to_edge_filter(where), with_payload=True)
        points = await self._call(lambda: self.shard.query(request))
        return [IndexHit(str((p.payload or {})["memory_id"]), float(p.score), dict(p.payload or {})) for p in points]

    async def count(self, where: Where | None = None) -> int:
        return await self._call(lambda: self.shard.count(qe.CountRequest(filter=to_edge_filter(where), exact=True)))

    async def clear(self) -> None:
        await self._call(lambda: self.shard.update(qe.UpdateOperation.delete_points_by_filter(qe.Filter())))

    async def optimize(self) -> None:
        def run() -> None:
            if not self._optimizing.acquire(blocking=False):
                return  # one build at a time; the running one covers what is there
            try:
                self.shard.optimize()
            finally:
                self._optimizing.release()

        await asyncio.get_running_loop().run_in_executor(None, run)

    async def close(self) -> None:
        if self._shard is not None:
            shard, self._shard = self._shard, None
            await self._call(shard.flush)
            await self._call(shard.close)
        self._pool.shutdown(wait=True)
        if self._owner is not None:
            fcntl.flock(self._owner, fcntl.LOCK_UN)
            self._owner.close()
            self._owner = None
