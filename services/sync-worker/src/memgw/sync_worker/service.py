"""One sync run: list → read → chunk → embed → ingest, announcing each stage.

Stages Requested → Fetching → Stored → Ingesting → Completed | Failed go out as
MemorySyncStageChanged through the outbox, in the same transaction as the run row they describe.
Each item is ingested in its own transaction together with its content hash, so a crash loses at
most the item in hand, and a redelivered request skips what is already in (same hash) and
overwrites the rest in place (deterministic chunk ids): never a duplicate chunk.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

import asyncpg

from memgw.common import policy, runs, source_items, source_registry
from memgw.common.bus import BusLayout
from memgw.common.credentials import CredentialBox, CredentialsUnreadable
from memgw.common.domain import MemoryType, Visibility, content_hash, source_chunk_id, source_chunk_key
from memgw.common.embedding.base import Embedder
from memgw.common.events import (
    SourceItemsAnswer,
    SourceItemsRequested,
    SyncCounts,
    SyncRequested,
    SyncStage,
)
from memgw.common.logging import get_logger
from memgw.common.memories import MemoryStore, NewMemory
from memgw.common.namespaces import derive_namespace
from memgw.common.principals import principal_of
from memgw.common.settings import ChunkSettings, SourceSettings
from memgw.common.sources import MemorySourceEntry, SourceKind, entry_from_row
from memgw.common.text import chunk_text
from memgw.sync_worker.readers.base import ItemError, SourceContent, SourceError, SourceReader

log = get_logger("memgw.sync")
PROGRESS_EVERY_S = 0.5


class RunEnded(Exception):
    """The run was ended elsewhere while this worker held it: another worker finished it (its request
    was redelivered) or it was abandoned as stale. This worker stops; what it ingested is in place."""


class _Run:
    """The state of one run and how it is announced."""

    def __init__(
        self,
        pool: asyncpg.Pool,
        layout: BusLayout,
        run_id: str,
        source: MemorySourceEntry,
        counts: SyncCounts,
        started_at: datetime,
    ):
        self.pool, self.layout = pool, layout
        self.run_id = run_id
        self.source = source
        self.counts = counts  # from the run's earlier attempts, if it is resumed
        self.started_at = started_at
        self.failed: list[str] = []
        self.more_pending = False
        self._last_progress = 0.0

    async def stage(self, stage: SyncStage, detail: str | None = None) -> None:
        owners = runs.SourceOwners(self.source.id, self.source.owner_user_id, self.source.workspace_id)
        async with self.pool.acquire() as conn, conn.transaction():
            moved = await runs.advance(
                conn,
                self.layout,
                owners,
                self.run_id,
                stage,
                self.counts,
                detail=detail,
                failed_items=self.failed,
                more_pending=self.more_pending,
            )
        if not moved:
            raise RunEnded(self.run_id)
        log.info("sync.stage", run_id=self.run_id, source_id=self.source.id, stage=stage.value, detail=detail)

    async def progress(self, detail: str) -> None:
        now = time.monotonic()
        if now - self._last_progress >= PROGRESS_EVERY_S:
            self._last_progress = now
            await self.stage(SyncStage.INGESTING, detail)

    def fail_item(self, item_id: str, reason: str) -> None:
        self.counts.items_failed += 1
        self.failed.append(f"{item_id}: {reason}")
        log.warning("sync.item.failed", run_id=self.run_id, item=item_id, reason=reason)


class SyncService:
    def __init__(
        self,
        *,
        pool: asyncpg.Pool,
        store: MemoryStore,
        embedder: Embedder,
        layout: BusLayout,
        credentials: CredentialBox,
        chunking: ChunkSettings,
        readers: dict[SourceKind, SourceReader],
        prices: SourceSettings | None = None,
    ):
        self.pool, self.store, self.embedder, self.layout = pool, store, embedder, layout
        self.credentials, self.chunking = credentials, chunking
        self.readers = readers
        self.prices = prices or SourceSettings()

    async def preview(self, request: SourceItemsRequested) -> SourceItemsAnswer:
        """List a source's items, or read one, for a person looking (no run, nothing stored)."""
        row = await source_registry.get(self.pool, request.source_id)
        if row is None:
            return SourceItemsAnswer(ok=False, error=f"no source {request.source_id!r}")
        try:
            source = entry_from_row(row, self.credentials)
        except CredentialsUnreadable as exc:
            return SourceItemsAnswer(ok=False, error=str(exc))
        reader = self.readers.get(source.kind)
        if reader is None:
            return SourceItemsAnswer(ok=False, error=f"no reader for {source.kind} sources")
        try:
            items = await reader.list_items(source)
            if request.item_id is None:
                return SourceItemsAnswer(ok=True, items=[dataclasses.asdict(i) for i in items])
            readable = {i.id for i in items if i.error is None}
            if request.item_id not in readable:  # only what a sync would read (the glob, ...)
                return SourceItemsAnswer(ok=False, error=f"{request.item_id}: not an item of this source")
            content = _clean(await reader.read_item(source, request.item_id))
            return SourceItemsAnswer(ok=True, content=dataclasses.asdict(content))
        except (SourceError, ItemError) as exc:
            return SourceItemsAnswer(ok=False, error=str(exc))
        except Exception as exc:  # a person is waiting for an answer: never leave them to a timeout
            log.exception("sync.preview.failed", source_id=source.id)
            return SourceItemsAnswer(ok=False, error=f"the source could not be read: {type(exc).__name__}")

    async def _refusal(self, source: MemorySourceEntry) -> str | None:
        """Why the source may not be synced now: a workspace source whose owner has left writes no more
        into the workspace (the owner's rights are read again at every run)."""
        if source.workspace_id is None:
            return None
        owner = await principal_of(self.pool, source.owner_user_id, None)
        if owner is None:
            return f"owner {source.owner_user_id} is gone or disabled"
        ref = policy.PlacementRef(source.workspace_id, source.owner_user_id, source.workspace_id in owner.workspace_ids)
        decision = policy.decide(owner, policy.Action.SOURCE_PLACE, ref)
        return None if decision.allowed else decision.reason

    async def _load(self, run_id: str) -> tuple[dict[str, Any], MemorySourceEntry] | None:
        run = await runs.of_run(self.pool, run_id)
        source = await source_registry.get(self.pool, run["source_id"]) if run is not None else None
        if run is None or source is None:
            return None
        return run, entry_from_row(source, self.credentials)

    async def handle(self, request: SyncRequested, *, gives_up: Callable[[Exception], bool] = lambda _: True) -> None:
        try:
            await self._handle(request, gives_up)
        except RunEnded:
            log.info("sync.run.ended_elsewhere", run_id=request.run_id)  # the request is done: acked

    async def _handle(self, request: SyncRequested, gives_up: Callable[[Exception], bool]) -> None:
        loaded = await self._load(request.run_id)
        if loaded is None:
            log.info("sync.run.gone", run_id=request.run_id)  # source removed meanwhile
            return
        row, source = loaded
        if row["finished_at"] is not None:
            log.info("sync.run.already_finished", run_id=request.run_id)  # a redelivery after completion
            return
        counts = runs.resumed_counts(row["run_counts"])
        run = _Run(self.pool, self.layout, request.run_id, source, counts, row["run_created_at"])
        reader = self.readers.get(source.kind)
        if reader is None:
            await run.stage(SyncStage.FAILED, f"no reader for {source.kind} sources in this worker")
            return
        try:
            refusal = await self._refusal(source)
            if refusal is not None:
                raise SourceError(f"refused: {refusal}")
            await self._sync(run, reader)
        except (SourceError, CredentialsUnreadable) as exc:
            await run.stage(SyncStage.FAILED, str(exc))
        except RunEnded:
            raise  # not a failure of this run: it is over
        except Exception as exc:
            # Unexpected (a database or embedder hiccup): the bus retries, and the run resumes
            # where it stopped; only the last try (``bus.last_try``) marks the run Failed, so it
            # never hangs.
            if gives_up(exc):
                await run.stage(SyncStage.FAILED, f"internal error: {exc}")
            raise

    async def _sync(self, run: _Run, reader: SourceReader) -> None:
        source = run.source
        await run.stage(SyncStage.FETCHING)
        items = await reader.list_items(source)
        if source.sync_depth_days:
            since = datetime.now(UTC) - timedelta(days=source.sync_depth_days)
            items = [i for i in items if i.updated_at is None or i.updated_at >= since]
        run.counts.items_seen = len(items)
        for bad in [i for i in items if i.error is not None]:
            run.fail_item(bad.id, bad.error or "unreadable")
        items = [i for i in items if i.error is None]
        rows = await source_items.synced(self.pool, source.id)
        known = {r["item_id"]: r["content_hash"] for r in rows}
        # Ingested by an earlier attempt of this run (resumed after a crash): counted then, not again.
        ours = {r["item_id"] for r in rows if r["synced_at"] >= run.started_at}
        fetched: list[tuple[SourceContent, str, bool]] = []
        for item in items:
            try:
                content = _clean(await reader.read_item(source, item.id))
            except ItemError as exc:
                run.fail_item(item.id, str(exc))
                continue
            digest = content_hash(content.text)
            if known.get(item.id) == digest and item.id in ours:
                continue
            if known.get(item.id) == digest:
                run.counts.items_unchanged += 1
            else:
                fetched.append((content, digest, item.id in known))
        await self._remove_deleted(run, set(known) - {i.id for i in items})
        await run.stage(SyncStage.STORED, f"{len(fetched)} items to ingest")

        await run.stage(SyncStage.INGESTING)
        for content, digest, existed in fetched:
            try:
                if not await self._ingest_item(run, content, digest, existed):
                    run.more_pending = True
                    break
            except asyncpg.DataError as exc:  # this item holds what the store refuses: it alone fails
                run.fail_item(content.item_id, f"refused by the store: {str(exc).splitlines()[0]}")
                continue
            except ItemError as exc:  # larger than the whole budget: it alone fails, the rest goes on
                run.fail_item(content.item_id, str(exc))
                continue
            await run.progress(f"ingested {content.item_id}")
        detail = "budget reached; more items pending" if run.more_pending else None
        if run.failed and not detail:
            detail = f"{len(run.failed)} items failed: " + "; ".join(run.failed[:5])
        await run.stage(SyncStage.COMPLETED, detail)

    async def _remove_deleted(self, run: _Run, gone: set[str]) -> None:
        deleted: list[str] = []
        for item_id in sorted(gone):
            async with self.pool.acquire() as conn, conn.transaction():
                deleted += await self.store.delete_where_source_item(
                    conn, run.source.id, source_chunk_key(run.source.id, item_id)
                )
                await source_items.forget(conn, run.source.id, item_id)
                counted = run.counts.model_copy(update={"items_deleted": run.counts.items_deleted + 1})
                await runs.keep_counts(conn, run.run_id, counted)
            run.counts = counted
        await self.store.sync_index(deleted=deleted)

    def _cost(self, source: MemorySourceEntry, tokens: int) -> float:
        """What ingesting one item of ``tokens`` costs: the upstream's price per item read and embedding."""
        return self.prices.price_per_item(source.kind.value) + tokens / 1000 * self.prices.sync_cost_per_1k_tokens_usd

    def _cost_budget(self, source: MemorySourceEntry) -> float | None:
        """The source's own budget, else for a kind that costs money the default one: a paid sync
        never runs unbounded because nobody set a number."""
        if source.max_cost_per_sync_usd is not None:
            return source.max_cost_per_sync_usd
        return self.prices.sync_default_max_cost_usd if self.prices.price_per_item(source.kind.value) else None

    def _within_budget(self, run: _Run, tokens: int, *, alone: bool = False) -> bool:
        """Whether ``tokens`` more fit the run's budget (``alone``: an otherwise empty run's)."""
        s = run.source
        spent_tokens, spent_usd = (0, 0.0) if alone else (run.counts.tokens, run.counts.cost_usd)
        if s.max_tokens_per_sync is not None and spent_tokens + tokens > s.max_tokens_per_sync:
            return False
        budget = self._cost_budget(s)
        # Sums of float prices drift in the last digits: a budget of 1.0 buys 200 items at 0.005.
        return budget is None or spent_usd + self._cost(s, tokens) <= budget + 1e-9

    async def _ingest_item(self, run: _Run, content: SourceContent, digest: str, existed: bool) -> bool:
        """Ingest one item (``existed``: a new version of one ingested before); False when the budget
        leaves no room for it. The item and the run's counts of it are written in one transaction."""
        source = run.source
        settings = self.chunking
        chunks = chunk_text(content.text, max_chars=settings.chunk_max_chars, max_tokens=settings.chunk_max_tokens)
        kept = [c for c in chunks if not self.store.refuses(c.text)]  # the store redacts what it keeps
        run.counts.chunks_refused += len(chunks) - len(kept)
        chunks = kept
        tokens = sum(c.tokens for c in chunks)
        if not self._within_budget(run, tokens, alone=True):  # no run will ever take it: say so, every run
            raise ItemError(
                f"needs {tokens} tokens, more than one sync of this source may spend"
                f" (max_tokens_per_sync {source.max_tokens_per_sync}, max_cost_per_sync_usd"
                f" {self._cost_budget(source)}): raise the budget to take it in"
            )
        if not self._within_budget(run, tokens):
            return False
        vectors = await self.store.embed_passages([c.text for c in chunks], self.embedder, tenant=source.owner_user_id)
        key = source_chunk_key(source.id, content.item_id)
        # An item keeps the visibility of where it came from: its agent's (a conversation held
        # through an agent), else the source's workspace, else its owner's.
        if content.agent_id:
            visibility, workspace_id = Visibility.AGENT_ONLY, None
        elif source.workspace_id:
            visibility, workspace_id = Visibility.WORKSPACE_SHARED, source.workspace_id
        else:
            visibility, workspace_id = Visibility.PRIVATE, None
        namespace = derive_namespace(
            memory_type=MemoryType.RESOURCE,
            visibility=visibility,
            user_id=source.owner_user_id,
            agent_id=content.agent_id,
            workspace_id=workspace_id,
        )
        ids = [source_chunk_id(source.id, content.item_id, c.index) for c in chunks]
        news = [
            NewMemory(
                id=chunk_id,
                user_id=source.owner_user_id,
                agent_id=content.agent_id,
                workspace_id=workspace_id,
                namespace=namespace,
                memory_type=MemoryType.RESOURCE.value,
                content=chunk.text,
                visibility=visibility.value,
                embedding=vector,
                embedding_model=self.embedder.name,
                summary=content.title,
                tags=["memory_sources", source.kind.value],
                source="memory_source",
                source_ref=key,
                source_id=source.id,
                source_scope=content.scope,
                metadata={
                    "item_id": content.item_id,
                    "title": content.title,
                    "chunk_index": chunk.index,
                    "heading": chunk.heading,
                    "tokens": chunk.tokens,
                },
            )
            for chunk, vector, chunk_id in zip(chunks, vectors, ids, strict=True)
        ]
        c = run.counts
        kind = "items_changed" if existed else "items_new"
        counted = c.model_copy(
            update={
                kind: getattr(c, kind) + 1,
                "chunks": c.chunks + len(chunks),
                "tokens": c.tokens + tokens,
                "cost_usd": c.cost_usd + self._cost(source, tokens),
            }
        )
        async with self.pool.acquire() as conn, conn.transaction():
            await self.store.insert_many(conn, news, actor=f"source:{source.id}", announce=False)
            stale = await self.store.delete_where_source_item(conn, source.id, key, keep_ids=ids)
            await source_items.keep(conn, source.id, content.item_id, digest, len(chunks))
            await runs.keep_counts(conn, run.run_id, counted)
        run.counts = counted
        await self.store.sync_index(upserted=ids, deleted=stale)
        return True


def _clean(content: SourceContent) -> SourceContent:
    """Upstream text as the store takes it: NUL characters (which no text column holds) removed."""
    if "\x00" not in content.text and "\x00" not in content.title:
        return content
    return dataclasses.replace(content, text=content.text.replace("\x00", ""), title=content.title.replace("\x00", ""))
