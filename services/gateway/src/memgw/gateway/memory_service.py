"""Memory on behalf of a principal: ACL checks, audit, storage, index. REST and MCP both call this.

Reads are filtered in the database (``acl.read_sql``) and in the index (``acl.read_where``); a
memory the principal may not read answers 404, as if it did not exist, and leaves a deny row.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from dataclasses import replace
from datetime import UTC, datetime
from typing import Any, cast

import asyncpg
import numpy as np

from memgw.common import policy, sessions
from memgw.common.acl import listing, read_where
from memgw.common.bus import BusLayout
from memgw.common.db.outbox import enqueue
from memgw.common.db.write_behind import WriteBehind
from memgw.common.domain import MemoryRecord, MemoryStatus, Principal, Visibility, new_id
from memgw.common.embedding.base import Embedder
from memgw.common.events import MemoryFeedbackGiven
from memgw.common.index.base import IndexHit, Match, MatchAny, VectorIndex, Where
from memgw.common.logging import get_logger
from memgw.common.memories import MemoryStore, NewMemory, reads, to_record, vectors_of
from memgw.common.namespaces import (
    GLOBAL_NAMESPACE,
    USER_KINDS,
    agent_namespace,
    session_namespace,
    user_namespace,
    workspace_namespace,
)
from memgw.common.openviking import OpenViking, OpenVikingError
from memgw.common.settings import RankingSettings
from memgw.common.skills import Skills
from memgw.common.skills.memory import ClassifyInput, ClassifyMemory
from memgw.common.skills.retrieval import (
    Hit,
    RankedContext,
    RankFacts,
    RetrieveContext,
    RetrieveInput,
    RetrieveOutput,
    expansion_terms,
)
from memgw.common.viking import namespace_uri
from memgw.gateway import access, audit
from memgw.gateway.errors import ApiError, BadRequest, Conflict, NotFound
from memgw.gateway.pagination import Page, keyset_page, window_clauses
from memgw.gateway.schemas import (
    MAX_PAGE,
    BatchItemResult,
    FeedbackRequest,
    MemoryCreate,
    MemoryListQuery,
    MemoryPatch,
    MemoryVersion,
    SearchHit,
    SearchRequest,
)
from memgw.gateway.search_order import Order, SearchOrder
from memgw.gateway.server_timing import note, step

log = get_logger("memgw.gateway.memory")
MAX_SCAN = 5_000  # memories read to answer one filtered listing (the facades' scopes)


def _rank_facts(row: Any, embedding: np.ndarray) -> RankFacts:
    # Built from our own rows, whose columns already have these types: not validated again (a search
    # hands over ~100 of them, each with a 384-float embedding: the array storage reads, not a list of it).
    return RankFacts.model_construct(
        id=row["id"],
        importance=row["importance"],
        confidence=row["confidence"],
        evidence_count=row["evidence_count"],
        source=row["source"],
        flags=[*row["flags"], *row["personal_feedback"]],
        touched_at=row["last_retrieved_at"] or row["updated_at"],
        content_hash=row["content_hash"],
        embedding=cast(list[float], embedding),
        session=f"{row['user_id']}/{row['session_id']}" if row["session_id"] else None,
    )


def _hits(found: list[IndexHit]) -> list[Hit]:
    # Built, not model_construct-ed: for a model of two plain fields pydantic's validating constructor is
    # the faster of the two.
    return [Hit(id=h.memory_id, score=h.score) for h in found]


def _owners(row: Any) -> policy.MemoryRef:
    return policy.MemoryRef(row["user_id"], row["agent_id"], row["visibility"], row["workspace_id"])


async def _locked_at(conn: Any, memory_id: str, expected: int | None) -> None:
    """Lock the row; when the caller named the version it read, it must still be that one (a
    write in between is a 409). Without one, a concurrent change (feedback, the consolidator
    lifting importance) does not fail the request."""
    current = await reads.locked_version(conn, memory_id)
    if current is None:
        raise NotFound(f"no memory {memory_id!r}")
    if expected is not None and current != expected:
        raise Conflict(f"memory {memory_id} changed meanwhile (now version {current}): read it again and retry")


class Memories:
    """Memory on behalf of a principal; REST and MCP both call this."""

    def __init__(
        self,
        *,
        pool: asyncpg.Pool,
        store: MemoryStore,
        embedder: Embedder,
        index: VectorIndex,
        layout: BusLayout,
        ranking: RankingSettings,
        skills: Skills,
        openviking: OpenViking | None = None,
    ) -> None:
        self.pool, self.store, self.embedder, self.index = pool, store, embedder, index
        self.layout, self.ranking, self.skills = layout, ranking, skills
        self.openviking = openviking  # one more retriever, when configured
        # When each memory was last found (decay counts from it), written off the search's path: the
        # ids found within 0.2 s go in one UPDATE, so popular memories are not row-locked by every
        # search that finds them. A crash loses that window's: those memories look 0.2 s older, no more.
        self.marks = WriteBehind[str](store.mark_retrieved, name="retrieval-marks", delay_s=0.2)
        self.order = SearchOrder()  # of a search's embedding and lists, when the embedding is on our cores

    async def deny(self, p: Principal, action: str, reason: str, target: str | None = None) -> ApiError:
        return await audit.refused(self.pool, p, action, reason, target_type="memory", target_id=target)

    async def deny_as(self, p: Principal, action: str, reason: str, target: str, answer: ApiError) -> ApiError:
        return await audit.refused(self.pool, p, action, reason, target_type="memory", target_id=target, answer=answer)

    async def _load_visible(self, p: Principal, memory_id: str, action: str) -> Any:
        row = await reads.opened(self.pool, p, memory_id)
        if row is None:
            hidden = NotFound(f"no memory {memory_id!r}")
            if await reads.exists(self.pool, memory_id):
                raise await self.deny_as(p, action, "not readable by this key", memory_id, hidden)
            raise hidden
        return row

    async def briefs(self, p: Principal, memory_ids: list[str]) -> list[dict[str, Any]]:
        """Id, namespace, type, content and summary of those of these memories ``p`` may read, in
        the order given (what it may not read is left out, as in a listing)."""
        return await reads.briefs(self.pool, p, memory_ids)

    async def _prepared(self, p: Principal, body: MemoryCreate) -> NewMemory:
        """The record ``body`` asks for, checked (acting for, classified, allowed, its namespace one
        its kind may go to); not yet embedded. Refusals are audited and raised as ApiError."""
        await access.require_acting(self.pool, p, "memory_upsert", body.user_id, body.agent_id, body.workspace_id)
        user_id = body.user_id or p.user_id
        agent_id = body.agent_id or p.agent_id
        asked = ClassifyInput(
            content=body.content,
            user_id=user_id,
            agent_id=agent_id,
            workspace_id=body.workspace_id,
            memory_type=body.memory_type,
            visibility=body.visibility,
        )
        try:
            kind = await self.skills.run(ClassifyMemory, asked)
        except ValueError as exc:  # a visibility its owners cannot carry (workspace-shared, no workspace)
            raise BadRequest(str(exc)) from exc
        owners = policy.MemoryRef(user_id, agent_id, kind.visibility.value, body.workspace_id)
        await access.require(
            self.pool,
            p,
            policy.Action.MEMORY_WRITE,
            owners,
            target_type="memory",
            target_id=None,
            operation="memory_upsert",
        )
        allowed = kind.namespaces
        if body.namespace and body.namespace not in allowed:
            raise await self.deny(
                p,
                "memory_upsert",
                f"namespace {body.namespace} is not where {kind.visibility} {kind.memory_type} memory goes"
                f" ({' or '.join(allowed)})",
            )
        return NewMemory(
            id=new_id("mem"),
            user_id=user_id,
            agent_id=agent_id,
            workspace_id=body.workspace_id,
            session_id=body.session_id,
            namespace=body.namespace or allowed[0],
            memory_type=kind.memory_type,
            content=body.content,
            summary=body.summary,
            tags=body.tags,
            importance=body.importance,
            confidence=body.confidence,
            visibility=kind.visibility.value,
            source=body.source,
            source_ref=body.source_ref,
            metadata=body.metadata,
            embedding=(),
            embedding_model=self.embedder.name,
            expires_at=body.expires_at,
        )

    async def _in_context(self, news: list[NewMemory]) -> list[str]:
        """What each is embedded as: a memory of a session is read with the end of the one before it
        in that session (the turn it answers: "Yes, in May!" means nothing alone), up to
        ``rank_context_chars``; its content stays as written. Only one of the same namespace counts:
        what an agent-only memory says never shapes how a memory others may read is found."""
        limit = self.ranking.rank_context_chars
        keys = list({(n.user_id, n.session_id, n.namespace) for n in news if limit and n.session_id})
        before = await reads.last_in_sessions(self.pool, keys)  # of every session the batch writes to
        texts = []
        for new in news:
            if not (limit and new.session_id):
                texts.append(new.content)
                continue
            key = (new.user_id, new.session_id, new.namespace)
            previous = before.get(key, "")[-limit:]
            texts.append(f"{previous}\n{new.content}" if previous else new.content)
            before[key] = new.content
        return texts

    async def _embedded(self, news: list[NewMemory]) -> None:
        """Embed in one batch per owner (stored embeddings of the same text reused within that owner's
        memories only, and each owner's batch in its own lane)."""
        by_owner: dict[str, list[tuple[NewMemory, str]]] = {}
        with step("context"):
            texts = await self._in_context(news)
        for new, text in zip(news, texts, strict=True):
            by_owner.setdefault(new.user_id, []).append((new, text))
        for owner, group in by_owner.items():
            with step("embed"):
                vectors = await self.store.embed_passages([t for _, t in group], self.embedder, tenant=owner)
            for (new, _), vector in zip(group, vectors, strict=True):
                new.embedding = vector

    async def _stored(self, p: Principal, news: list[NewMemory]) -> list[MemoryRecord]:
        """One transaction for all of them, then the index."""
        with step("store"):
            async with self.pool.acquire() as conn, conn.transaction():
                records = await self.store.insert_many(conn, news, actor=p.user_id)
                targets = [(record.id, new.namespace) for record, new in zip(records, news, strict=True)]
                await audit.record_each(conn, p, "memory_upsert", target_type="memory", targets=targets)
        with step("index"):
            await self.store.sync_index(upserted=[r.id for r in records])
        return records

    async def create(self, p: Principal, body: MemoryCreate) -> MemoryRecord:
        with step("check"):
            new = await self._prepared(p, body)
        await self._embedded([new])
        [record] = await self._stored(p, [new])
        return record

    async def create_many(self, p: Principal, bodies: list[MemoryCreate]) -> list[BatchItemResult]:
        """Each record checked on its own (a refused one is answered with its status and reason, the
        others still go), the accepted embedded in one batch and written in one transaction."""
        results: list[BatchItemResult | None] = [None] * len(bodies)
        accepted: list[tuple[int, NewMemory]] = []
        for n, body in enumerate(bodies):
            try:
                accepted.append((n, await self._prepared(p, body)))
            except ApiError as exc:
                results[n] = BatchItemResult(index=n, status=exc.status_code, error=exc.detail)
        news = [new for _, new in accepted]
        if news:
            await self._embedded(news)
            for (n, _), record in zip(accepted, await self._stored(p, news), strict=True):
                results[n] = BatchItemResult(
                    index=n,
                    status=201,
                    id=record.id,
                    namespace=record.namespace,
                    version=record.version,
                    uri=record.uri,
                )
        return [r for r in results if r is not None]

    async def get(self, p: Principal, memory_id: str) -> MemoryRecord:
        row = await self._load_visible(p, memory_id, "memory_get")
        await audit.record(
            self.pool, p, "memory_get", target_type="memory", target_id=memory_id, namespace=row["namespace"]
        )
        return to_record(row)

    async def _writable(self, p: Principal, memory_id: str, action: str, expected: int | None) -> Any:
        row = await self._load_visible(p, memory_id, action)
        await access.require(
            self.pool,
            p,
            policy.Action.MEMORY_WRITE,
            _owners(row),
            target_type="memory",
            target_id=memory_id,
            operation=action,
        )
        if expected is not None and expected != row["version"]:
            raise Conflict(
                f"memory {memory_id} is at version {row['version']}, not {expected}: read it again and retry"
            )
        return row

    async def update(
        self, p: Principal, memory_id: str, patch: MemoryPatch, if_match: int | None = None
    ) -> MemoryRecord:
        """``if_match`` (the If-Match header) wins over the body's ``version``."""
        expected = if_match if if_match is not None else patch.version
        row = await self._writable(p, memory_id, "memory_update", expected)
        changes: dict[str, Any] = patch.model_dump(exclude_unset=True, exclude={"version"})
        if not changes:
            raise BadRequest("nothing to change: send at least one field")
        if "status" in changes:
            changes["status"] = MemoryStatus(changes["status"]).value
        if changes.get("content") == row["content"]:
            del changes["content"]  # the same text: nothing to embed again
        if not changes:
            return to_record(row)  # every field sent holds its value already: nothing to write
        if "content" in changes:
            [changes["embedding"]] = await self.store.embed_passages(
                [changes["content"]], self.embedder, tenant=row["user_id"]
            )
            changes["embedding_model"] = self.embedder.name
        async with self.pool.acquire() as conn, conn.transaction():
            await _locked_at(conn, memory_id, expected)
            record = await self.store.update(conn, memory_id, changes, actor=p.user_id)
            await audit.record(
                conn, p, "memory_update", target_type="memory", target_id=memory_id, namespace=record.namespace
            )
        await self.store.sync_index(upserted=[memory_id])
        return record

    async def delete(self, p: Principal, memory_id: str, if_match: int | None = None) -> None:
        row = await self._writable(p, memory_id, "memory_delete", if_match)
        async with self.pool.acquire() as conn, conn.transaction():
            await _locked_at(conn, memory_id, if_match)
            await self.store.delete(conn, memory_id, actor=p.user_id)
            await audit.record(
                conn, p, "memory_delete", target_type="memory", target_id=memory_id, namespace=row["namespace"]
            )
        await self.store.sync_index(deleted=[memory_id])

    async def history(self, p: Principal, memory_id: str) -> list[MemoryVersion]:
        await self._load_visible(p, memory_id, "memory_history")
        rows = await reads.versions(self.pool, memory_id)
        await audit.record(self.pool, p, "memory_history", target_type="memory", target_id=memory_id)
        return [MemoryVersion.model_validate(dict(r)) for r in rows]

    async def list_memories(self, p: Principal, q: MemoryListQuery) -> Page[MemoryRecord]:
        statuses = tuple(q.status) if q.status else (MemoryStatus.ACTIVE,)
        asked = {"namespace": q.namespace, "memory_type": q.memory_type, "tags": q.tags}
        rows = await reads.page(
            self.pool,
            p,
            statuses,
            filters=[(column, value) for column, value in asked.items() if value],
            window=lambda params: window_clauses(params, q.since, q.until, q.cursor, alias="m"),
            limit=q.limit + 1,
        )
        await audit.record(self.pool, p, "memory_list", target_type="memory", namespace=q.namespace)
        return keyset_page([to_record(r) for r in rows], q.limit, lambda m: (m.created_at, m.id))

    async def scan(
        self, p: Principal, keep: Callable[[MemoryRecord], bool], *, wanted: int, most: int = MAX_SCAN
    ) -> tuple[list[MemoryRecord], bool]:
        """What the listing shows ``p`` (newest first) that ``keep`` keeps, read a page at a time until
        ``wanted`` are found or ``most`` were read; and whether every readable memory was read."""
        found: list[MemoryRecord] = []
        cursor, scanned = None, 0
        while len(found) < wanted and scanned < most:
            batch = await self.list_memories(p, MemoryListQuery(cursor=cursor, limit=MAX_PAGE))
            scanned += len(batch.items)
            found += [m for m in batch.items if keep(m)]
            cursor = batch.next_cursor
            if cursor is None:
                return found, True
        return found, False

    async def _readable(self, p: Principal, ids: list[str], statuses: tuple[MemoryStatus, ...]) -> dict[str, Any]:
        """The rows of those of ``ids`` the asker may read (the index applied the ACL already; Postgres,
        the truth, re-checks every hit), each with the asker's own judgements of it."""
        return await reads.for_ranking(self.pool, p, ids, statuses)

    async def _neighbours(self, anchors: list[RankedContext]) -> list[Hit]:
        """The memories just before and just after each anchor in its session and namespace, each scored
        as its anchor, in the anchors' order (what the asker may read of them is decided after, as for
        every candidate)."""
        rows = await reads.session_neighbours(self.pool, [a.id for a in anchors])
        taken = {a.id for a in anchors}
        around: dict[str, Hit] = {}
        for r in rows:
            if r["id"] not in taken and r["id"] not in around:
                around[r["id"]] = Hit.model_construct(id=r["id"], score=anchors[r["ord"] - 1].score)
        return list(around.values())

    async def _rank(self, lists: RetrieveInput, rows: dict[str, Any]) -> RetrieveOutput:
        # What the asker judged incorrect stays out of the asker's results (and only theirs).
        candidates = [r for r in rows.values() if "incorrect" not in r["personal_feedback"]]
        embeddings = vectors_of([r["embedding"] for r in candidates])
        facts = [_rank_facts(r, e) for r, e in zip(candidates, embeddings, strict=True)]
        return await self.skills.run(RetrieveContext, lists.model_copy(update={"facts": facts}))

    async def search(self, p: Principal, body: SearchRequest) -> list[SearchHit]:
        await access.require_acting(self.pool, p, "memory_search", body.user_id, body.agent_id, body.workspace_id)
        statuses = tuple(body.statuses) or (MemoryStatus.ACTIVE,)
        where = read_where(p, listing(statuses))
        if body.namespaces:
            where = Where(must=(where, MatchAny("namespace", tuple(body.namespaces))))
        if body.workspace_id:  # one the key may read (required above): only its memories
            where = Where(must=(where, Match("workspace_id", body.workspace_id)))
        depth = max(self.ranking.rank_depth, body.limit * 3)

        async def embedded() -> list[float] | None:
            if body.mode == "sparse":
                return None
            with step("embed"):
                return await self.embedder.embed_query(body.query, scope=p.user_id)

        async def listed(name: str, **query: Any) -> list[IndexHit]:
            if all(v is None for v in query.values()):
                return []
            with step(name):
                return await self.index.search(where=where, limit=depth, **query)

        async def weighed(text: str) -> dict[int, float]:
            with step("idf"):  # how rare each word is among what the asker may read, and nothing else
                return await self.store.keyword_weights(p, text)

        async def by_words(text: str | None, weights: Awaitable[dict[int, float]] | None = None) -> list[IndexHit]:
            if text is None:
                return []
            return await listed("bm25", text=text, weights=await (weights or weighed(text)))

        async def lists() -> tuple[list[IndexHit], list[IndexHit]]:
            keywords = None if body.mode == "dense" else body.query

            async def dense_list() -> list[IndexHit]:
                return await listed("dense", dense=await embedded())

            # An embedding elsewhere leaves the keyword list to run meanwhile; one on this machine's cores
            # takes the order that has cost less here lately (``search_order``).
            chosen = self.embedder.shares_cores and body.mode == "hybrid"
            order = self.order.pick() if chosen else Order.BESIDE
            note("order", order)
            start = time.perf_counter()
            # The words' weights are read from Postgres while the query is embedded, in either order.
            weights = asyncio.ensure_future(weighed(keywords)) if keywords is not None else None
            try:
                dense = listed("dense", dense=await embedded()) if order is Order.ALONE else dense_list()
            except BaseException:
                if weights is not None:  # not left running unawaited (its failure would be logged as lost)
                    weights.cancel()
                raise
            found = await asyncio.gather(dense, by_words(keywords, weights))
            if chosen:
                self.order.took(order, time.perf_counter() - start)
            return found

        async def viking() -> list[Hit]:
            if self.openviking is None or body.mode != "hybrid":
                return []
            try:  # optional: a slow or failing OpenViking leaves its list out, never the search
                found = await self.openviking.find(body.query, depth)
            except OpenVikingError as exc:
                log.warning("search.openviking_failed", error=str(exc)[:300])
                return []
            return [Hit(id=memory_id, score=score) for memory_id, score in found]

        (dense_hits, bm25_hits), viking_hits = await asyncio.gather(lists(), viking())
        first = RetrieveInput(
            query=body.query,
            dense=_hits(dense_hits),
            bm25=_hits(bm25_hits),
            openviking=viking_hits,  # ids only: they pass the same ACL in Postgres as the index's do
            facts=[],
            now=datetime.now(UTC),
            limit=body.limit,
        )
        # Every hit of every list, in one round trip after both. Re-checking the keyword hits early, beside
        # the embedding, saves nothing: with the embedder on these cores the early query takes CPU from it,
        # and with a remote one the round trip after remains.
        with step("recheck"):
            by_id = await reads.for_ranking(
                self.pool, p, [h.id for h in (*first.bm25, *first.dense, *first.openviking)], statuses
            )
        with step("rank"):
            ranked = await self._rank(first, by_id)
        terms = self.ranking.rank_feedback_terms
        if terms and body.mode == "hybrid" and ranked.ranked:
            # A second keyword round, seeded by the first round's best (pseudo-relevance feedback).
            seeds = [by_id[r.id]["content"] for r in ranked.ranked[: self.ranking.rank_feedback_seeds]]
            extra = expansion_terms(body.query, seeds, terms)
            with step("feedback"):
                if extra:
                    first.feedback = _hits(await by_words(f"{body.query} {' '.join(extra)}"))
                    by_id |= await reads.for_ranking(
                        self.pool, p, [h.id for h in first.feedback if h.id not in by_id], statuses
                    )
                    ranked = await self._rank(first, by_id)
        anchors = self.ranking.rank_neighbour_anchors
        if anchors and ranked.ranked:
            # The turns around a strong hit, in its session: the question it answers, what came of it.
            with step("neighbours"):
                around = await self._neighbours(ranked.ranked[:anchors])
                if around:
                    first.neighbours = around
                    by_id |= await reads.for_ranking(
                        self.pool, p, [h.id for h in around if h.id not in by_id], statuses
                    )
                    ranked = await self._rank(first, by_id)
        results = [
            SearchHit(
                memory=to_record(by_id[r.id]),
                score=r.score,
                duplicates=r.duplicates,
                explain=r.components if body.explain else None,
            )
            for r in ranked.ranked
        ]
        found = [r.memory.id for r in results]
        self.marks.note(found)
        with step("audit"):
            await audit.record(
                self.pool,
                p,
                "memory_search",
                target_type="memory",
                target_id=",".join(found)[:2000] or None,
                reason=f"{len(results)} hits",
            )
        return results

    async def feedback(self, p: Principal, memory_id: str, body: FeedbackRequest) -> str:
        """Record a judgement; return whose it is. From someone who may write the memory it changes the
        shared record (incorrect leaves default retrieval at once; the consolidator archives, merges or
        lifts importance). From a reader who may not, it is the reader's own signal: it shapes their own
        ranking and, for incorrect or outdated, opens a review for the memory's owner."""
        await access.require_acting(self.pool, p, "memory_feedback", body.user_id, None, None)
        row = await self._load_visible(p, memory_id, "memory_feedback")
        shared = policy.decide(p, policy.Action.MEMORY_WRITE, _owners(row))
        if body.target_memory_id:
            target = await self._load_visible(p, body.target_memory_id, "memory_feedback")
            if shared.allowed and body.feedback == "duplicate":  # a merge changes the target's record too
                await access.require(
                    self.pool,
                    p,
                    policy.Action.MEMORY_WRITE,
                    _owners(target),
                    target_type="memory",
                    target_id=body.target_memory_id,
                    operation="memory_feedback",
                )
        async with self.pool.acquire() as conn, conn.transaction():
            await self.store.keep_feedback(
                conn,
                memory_id,
                p,
                body.feedback,
                comment=body.comment,
                target_memory_id=body.target_memory_id,
                personal=not shared.allowed,
            )
            if shared.allowed and body.feedback != "duplicate" and body.feedback not in row["flags"]:
                await self.store.update(
                    conn, memory_id, {"flags": [*row["flags"], body.feedback]}, actor=p.user_id, change="status"
                )
            await enqueue(
                conn,
                self.layout,
                MemoryFeedbackGiven(
                    memory_id=memory_id,
                    user_id=row["user_id"],
                    feedback=body.feedback,
                    comment=body.comment,
                    target_memory_id=body.target_memory_id,
                    given_by=p.user_id,
                    given_by_agent=p.agent_id,
                    personal=not shared.allowed,
                ),
            )
            scope = "shared record" if shared.allowed else f"personal signal ({shared.reason})"
            await audit.record(
                conn,
                p,
                "memory_feedback",
                target_type="memory",
                target_id=memory_id,
                reason=f"{body.feedback}: {scope}",
            )
        if shared.allowed:
            await self.store.sync_index(upserted=[memory_id])
        return "record" if shared.allowed else "personal"

    async def namespaces(self, p: Principal) -> list[dict[str, Any]]:
        """What the principal may read and write, in the seed's shape plus read/write flags."""
        session_ids = await sessions.recent_ids(self.pool, p.user_id)

        def entry(namespace: str, owners: policy.MemoryRef) -> dict[str, Any]:
            writable = policy.decide(p, policy.Action.MEMORY_WRITE, owners).allowed
            return {
                "namespace": namespace,
                "uri": namespace_uri(namespace),
                "visibility": owners.visibility,
                "read": True,
                "write": writable,
            }

        mine = policy.MemoryRef(p.user_id, p.agent_id, Visibility.PRIVATE.value, None)
        out = [entry(user_namespace(p.user_id, kind), mine) for kind in USER_KINDS]
        if p.agent_id:
            out.append(entry(agent_namespace(p.agent_id), replace(mine, visibility=Visibility.AGENT_ONLY.value)))
        for ws in sorted(p.workspace_ids):
            shared = replace(mine, visibility=Visibility.WORKSPACE_SHARED.value, workspace_id=ws)
            out.append(entry(workspace_namespace(ws), shared))
        # a session's episodes are its user's (the policy's session rule); shown in the seed's shape
        out += [
            {
                "namespace": session_namespace(sid),
                "uri": namespace_uri(session_namespace(sid)),
                "visibility": "session",
                "read": True,
                "write": True,
            }
            for sid in session_ids
        ]
        out.append(entry(GLOBAL_NAMESPACE, replace(mine, visibility=Visibility.GLOBAL.value)))
        return out

    async def stats(self, p: Principal, days: int = 30) -> dict[str, Any]:
        """What the key may read, counted: per namespace and type, and memories made per day."""
        groups, daily = await reads.counts(self.pool, p, days)
        await audit.record(self.pool, p, "memory_stats", target_type="memory")
        return {"by_namespace": [dict(r) for r in groups], "memories_per_day": [dict(r) for r in daily]}
