"""Qdrant Edge: the real Qdrant engine in-process, one shard on disk in the data dir.

Every shard call is blocking Rust code that holds the GIL from start to end (a query, an upsert, a
flush: a Python thread spinning beside one ran at 0-9% of its rate), so a thread lends it no
concurrency: the event loop waits for it wherever it runs. Searches, counts and writes run on the loop
itself, which saves the hop to a thread and back (a query on 300 points after a 20 ms pause: p50 1.20
against 1.60 ms); but a write that finds the write lock taken (a graph build holds it while it copies the
shard: seconds, with the GIL released) waits for it in a small thread pool, never on the loop.

Building the HNSW graph (``optimize``) holds the GIL: the whole process, its event loop included,
waits for the build (47 s at 100k points, bench/reports/index_build.md). So the graph is built on a
copy, in another process: writes pause while the live shard is flushed and its directory copied, a
child process (``build_graph``) optimises the copy while searches and writes go on against the live
shard (writes are also kept in a journal), then the built copy is loaded, the journal replayed onto
it, and it becomes the live shard. Which copy
is live is written in a pointer file next to it (``<name>.live``), replaced atomically, so a crash at
any step leaves the old shard in charge and the half-built copy is removed at the next start.
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import os
import shutil
import subprocess
import sys
import threading
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import IO, Any, TypeVar

import qdrant_edge as qe

from memgw.common.index import sparse
from memgw.common.index.base import (
    FLOAT_FIELDS,
    GRAPH_FIELDS,
    KEYWORD_FIELDS,
    SPARSE_FULL_SCAN,
    Condition,
    IndexHit,
    IndexPoint,
    IsEmpty,
    Match,
    MatchAny,
    Range,
    Where,
    best_of,
    one_of,
    point_id,
    split_by_tenant,
)
from memgw.common.logging import get_logger

log = get_logger("memgw.index.edge")
T = TypeVar("T")
_ID_ONLY = qe.PayloadSelector.Include(["memory_id"])


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


def _field_indexes() -> list[tuple[str, qe.KeywordIndexParams | qe.FloatIndexParams]]:
    keyword = [
        (name, qe.KeywordIndexParams(is_tenant=name == "user_id" or None, enable_hnsw=name in GRAPH_FIELDS))
        for name in KEYWORD_FIELDS
    ]
    return [*keyword, *((name, qe.FloatIndexParams(enable_hnsw=False)) for name in FLOAT_FIELDS)]


class IndexInUse(RuntimeError):
    """The embedded index belongs to another process."""


class EdgeIndex:
    """An embedded Qdrant Edge shard. It has one owner: a second process on the same data dir is
    refused at start with a clear message (a shared index needs a Qdrant server)."""

    def __init__(self, path: Path, *, dim: int, threads: int = 4):
        self._path = path
        self._pointer = path.with_name(path.name + ".live")
        # How the shard weighs BM25 words and encodes them, beside it: Qdrant refuses to open a shard with
        # another weighting than it was made with. No file: made with Qdrant's IDF, by a version before these
        # markers; "idf; ..." by one that could be told to (a reader's IDF is the query's now, sparse.py).
        self._weighting = f"plain; {sparse.ENCODING}"
        self._weighting_file = path.with_name(path.name + ".bm25")
        self._owner: IO[str] | None = None
        self._dim = dim
        self._pool = ThreadPoolExecutor(max_workers=threads, thread_name_prefix="qdrant-edge")
        self._build: asyncio.Future[None] | None = None
        self._builder: subprocess.Popen[str] | None = None
        self._shard: qe.EdgeShard | None = None
        self._live = 0  # the generation in use: 0 is ``path`` itself, n the copy ``path.n`` (see ``_pointer``)
        # Writes are applied one at a time, and while a copy is being built also kept for it.
        self._writing = threading.Lock()
        self._journal: list[qe.UpdateOperation] | None = None
        # How many calls are using each shard, so a replaced one is closed only once they are done.
        self._in_use: Counter[int] = Counter()
        self._released = threading.Condition()

    def _config(self) -> qe.EdgeConfig:
        return qe.EdgeConfig(
            vectors={"dense": qe.EdgeVectorParams(size=self._dim, distance=qe.Distance.Cosine)},
            sparse_vectors={
                "bm25": qe.EdgeSparseVectorParams(
                    full_scan_threshold=SPARSE_FULL_SCAN,
                )
            },
        )

    def _with_shard(self, fn: Callable[[qe.EdgeShard], T]) -> T:
        with self._released:
            shard = self.shard
            self._in_use[id(shard)] += 1
        try:
            return fn(shard)
        finally:
            with self._released:
                self._in_use[id(shard)] -= 1
                self._released.notify_all()

    async def _call(self, fn: Callable[[qe.EdgeShard], T]) -> T:
        return await asyncio.get_running_loop().run_in_executor(self._pool, self._with_shard, fn)

    def _read(self, fn: Callable[[qe.EdgeShard], T]) -> T:
        """A read, on the calling thread (the module's docstring says why)."""
        return self._with_shard(fn)

    def _apply(self, operation: qe.UpdateOperation) -> None:
        with self._writing:
            self._applied(operation)

    def _applied(self, operation: qe.UpdateOperation) -> None:
        """Apply a write; the caller holds ``_writing``."""
        self._with_shard(lambda shard: shard.update(operation))
        if self._journal is not None:
            self._journal.append(operation)

    async def _update(self, operation: qe.UpdateOperation) -> None:
        # On the loop when the write lock is free (always, but while a build copies the shard): the call
        # holds the GIL wherever it runs, and the hop to a thread and back is what a one-point write costs.
        if self._writing.acquire(blocking=False):
            try:
                self._applied(operation)
            finally:
                self._writing.release()
            return
        await asyncio.get_running_loop().run_in_executor(self._pool, self._apply, operation)

    @property
    def shard(self) -> qe.EdgeShard:
        if self._shard is None:
            raise RuntimeError("EdgeIndex.ensure() was not awaited")
        return self._shard

    def _generation(self, n: int) -> Path:
        return self._path if n == 0 else self._path.with_name(f"{self._path.name}.{n}")

    def _pointed_generation(self) -> int:
        with contextlib.suppress(FileNotFoundError, ValueError):
            return int(self._pointer.read_text().strip())
        return 0

    def _remove_other_generations(self, live: int) -> None:
        """A copy whose build did not finish, or a shard a finished build replaced."""
        for candidate in self._path.parent.glob(f"{self._path.name}*"):
            suffix = candidate.name[len(self._path.name) :]
            if candidate.is_dir() and candidate != self._generation(live) and (suffix == "" or suffix[1:].isdigit()):
                shutil.rmtree(candidate, ignore_errors=True)

    async def ensure(self) -> None:
        def open_shard() -> qe.EdgeShard:
            self._live = self._pointed_generation()
            self._remove_other_generations(self._live)
            path = self._generation(self._live)
            path.mkdir(parents=True, exist_ok=True)
            has_data = any(path.iterdir())
            made = self._weighting_file.read_text().strip() if self._weighting_file.exists() else "idf"
            if has_data and made != self._weighting:
                # The index is derived: made again, the reconciler fills it in from Postgres at start.
                log.warning("index.bm25_weighting_changed", was=made, now=self._weighting, shard=str(path))
                shutil.rmtree(path)
                path.mkdir()
                has_data = False
            # Loaded with the config of this version: a shard made before keeps its segments as they are
            # until its next graph build (or reindex) makes them again with it (SPARSE_FULL_SCAN).
            config = self._config()
            shard = qe.EdgeShard.load(str(path), config) if has_data else qe.EdgeShard.create(str(path), config)
            if made != self._weighting:  # no file reads as "idf", which no marker of this version is
                self._weighting_file.write_text(self._weighting)
            existing = shard.info().payload_schema
            for name, params in _field_indexes():
                have = existing.get(name)
                if have is None or have.params is None or bool(have.params.enable_hnsw) != params.enable_hnsw:
                    # A shard made before GRAPH_FIELDS: its indexes are made again (seconds; before a build).
                    if have is not None:
                        shard.update(qe.UpdateOperation.delete_field_index(name))
                    shard.update(qe.UpdateOperation.create_field_index(name, params))
            return shard

        if self._shard is None:
            self._path.parent.mkdir(parents=True, exist_ok=True)
            self._own()
            self._shard = await asyncio.get_running_loop().run_in_executor(self._pool, open_shard)

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
        await self._update(qe.UpdateOperation.upsert_points(edge_points))

    async def delete(self, memory_ids: Sequence[str]) -> None:
        if memory_ids:
            ids: list[Any] = [point_id(m) for m in memory_ids]
            await self._update(qe.UpdateOperation.delete_points(ids))

    async def set_payload(self, memory_ids: Sequence[str], payload: dict[str, Any]) -> None:
        if memory_ids:
            ids: list[Any] = [point_id(m) for m in memory_ids]
            await self._update(qe.UpdateOperation.set_payload(ids, payload))

    async def search(
        self,
        *,
        dense: Sequence[float] | None = None,
        text: str | None = None,
        weights: Mapping[int, float] | None = None,
        where: Where | None,
        limit: int,
        params: qe.SearchParams | None = None,
    ) -> list[IndexHit]:
        """``Index.search``; ``params`` (Qdrant's: an exact scan, ACORN, the beam) only for a bench that weighs
        them against the default."""
        one_of(dense, text)
        if dense is not None:
            query = qe.Query.Nearest(list(dense), using="dense")
        elif text:
            query = qe.Query.Nearest(sparse.as_edge(sparse.encode_query(text, weights)), using="bm25")
        else:
            return []
        batch = qe.QueryBatchRequest(
            [
                qe.QueryRequest(
                    limit=limit, query=query, filter=to_edge_filter(part), with_payload=_ID_ONLY, params=params
                )
                for part in split_by_tenant(where)
            ]
        )
        answers = self._read(lambda shard: shard.query_batch(batch))
        return best_of([[(str((p.payload or {})["memory_id"]), float(p.score)) for p in a] for a in answers], limit)

    async def count(self, where: Where | None = None) -> int:
        return self._read(lambda shard: shard.count(qe.CountRequest(filter=to_edge_filter(where), exact=True)))

    async def clear(self) -> None:
        await self._update(qe.UpdateOperation.delete_points_by_filter(qe.Filter()))

    async def graph_gap(self) -> tuple[int, int]:
        """(points, points the HNSW graph does not cover yet). Qdrant counts every indexed vector: each
        point's BM25 vector always is (an inverted index), its dense one once a graph holds it."""
        info = await self._call(lambda shard: shard.info())
        in_graph = max(0, info.indexed_vectors_count - info.points_count)
        return info.points_count, max(0, info.points_count - in_graph)

    async def optimize(self) -> None:
        """Build the graph on a copy and swap it in; searches and writes go on meanwhile. One build at a
        time: a call while one runs waits for that one (it covers what was there when it began)."""
        if self._build is not None:
            await asyncio.shield(self._build)
            return
        loop = asyncio.get_running_loop()
        done: asyncio.Future[None] = loop.create_future()
        self._build = done

        def settle(error: BaseException | None) -> None:
            self._build = None
            if error is None:
                done.set_result(None)
            else:
                done.set_exception(error)

        def build() -> None:
            error: BaseException | None = None
            try:
                self._build_on_copy()
            except BaseException as exc:  # told to the awaiting callers, on their loop
                error = exc
            with contextlib.suppress(RuntimeError):  # the loop is gone: nobody is waiting
                loop.call_soon_threadsafe(settle, error)

        # A daemon thread, not an executor's: a build of many minutes must not hold up the process's exit
        # (the half-built copy is removed at the next start).
        threading.Thread(target=build, name="qdrant-edge-graph", daemon=True).start()
        await asyncio.shield(done)

    def _build_graph(self, path: Path) -> None:
        """The build runs in a child process (``build_graph``): Qdrant Edge holds the GIL meanwhile."""
        self._builder = subprocess.Popen(
            [sys.executable, "-m", "memgw.common.index.build_graph", str(path)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
        )
        _, errors = self._builder.communicate()
        if self._builder.returncode != 0:
            raise RuntimeError(f"the graph build failed ({self._builder.returncode}): {errors.strip()[-500:]}")

    def _build_on_copy(self) -> None:
        live = self._live
        target = self._generation(live + 1)
        shutil.rmtree(target, ignore_errors=True)
        with self._writing:  # writes pause while the copy is taken, so it is one consistent state
            self._with_shard(lambda shard: shard.flush())
            shutil.copytree(self._generation(live), target)
            held = self._with_shard(lambda shard: shard.info().points_count)
            self._journal = []
        copy: qe.EdgeShard | None = None
        try:
            self._build_graph(target)
            copy = qe.EdgeShard.load(str(target))
            built = copy.info().points_count
            if built != held:  # never swap in a copy that lost points on its way
                raise RuntimeError(f"the graph build left {built} points of the {held} copied")
            with self._writing:
                if self._shard is None:
                    raise RuntimeError("the index was closed during the build")
                for operation in self._journal or []:
                    copy.update(operation)
                copy.flush()
                pointer = self._pointer.with_name(self._pointer.name + ".new")
                pointer.write_text(str(live + 1))
                os.replace(pointer, self._pointer)  # from here a restart opens the copy
                with self._released:
                    old, self._shard = self._shard, copy
                    self._live = live + 1
                self._journal = None
        except BaseException:
            self._journal = None
            if copy is not None:
                with contextlib.suppress(Exception):
                    copy.close()
            shutil.rmtree(target, ignore_errors=True)
            raise
        with self._released:  # calls that took the old shard before the swap finish on it
            self._released.wait_for(lambda: self._in_use[id(old)] == 0)
            del self._in_use[id(old)]
        old.close()
        shutil.rmtree(self._generation(live), ignore_errors=True)

    async def close(self) -> None:
        if self._builder is not None and self._builder.poll() is None:
            self._builder.kill()  # its half-built copy is dropped by the build, or at the next start
        if self._shard is not None:
            await self._call(lambda shard: shard.flush())
            with self._writing:  # a build finishing now finds the index closed and drops its copy
                shard, self._shard = self._shard, None
            await asyncio.get_running_loop().run_in_executor(self._pool, shard.close)
        self._pool.shutdown(wait=True)
        if self._owner is not None:
            fcntl.flock(self._owner, fcntl.LOCK_UN)
            self._owner.close()
            self._owner = None
