"""Memory on behalf of a principal: ACL checks, audit, storage, index. REST and MCP both call this.

Reads are filtered in the database (``acl.read_sql``) and in the index (``acl.read_where``); a
memory the principal may not read answers 404, as if it did not exist, and leaves a deny row.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

import asyncpg

from memgw.common import policy, sessions
from memgw.common.bus import BusLayout
from memgw.common.db.outbox import enqueue
from memgw.common.db.write_behind import WriteBehind
from memgw.common.domain import MemoryRecord, MemoryStatus, Principal, Visibility, new_id
from memgw.common.embedding.base import Embedder
from memgw.common.events import MemoryFeedbackGiven
from memgw.common.index.base import VectorIndex
from memgw.common.logging import get_logger
from memgw.common.memories import MemoryStore, NewMemory, reads, to_record
from memgw.common.namespaces import (
    GLOBAL_NAMESPACE,
    USER_KINDS,
    agent_namespace,
    session_namespace,
    user_namespace,
    workspace_namespace,
)
from memgw.common.openviking import OpenViking
from memgw.common.settings import RankingSettings
from memgw.common.skills import Skills
from memgw.common.skills.memory import ClassifyInput, ClassifyMemory
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
from memgw.gateway.search import Search, SearchParts
from memgw.gateway.search_order import SearchOrder
from memgw.gateway.server_timing import step

log = get_logger("memgw.gateway.memory")
MAX_SCAN = 5_000  # memories read to answer one filtered listing (the facades' scopes)


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
        self.marks = WriteBehind[str](store.mark_retrieved, name="retrieval-marks", delay_s=0.2)
        self.audited = audit.AllowedBehind(pool)
        self.search_parts = SearchParts(
            pool,
            store,
            embedder,
            index,
            ranking,
            skills,
            openviking,
            marks=self.marks,
            audit=self.audited,
            order=SearchOrder(),
        )

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

    async def search(self, p: Principal, body: SearchRequest) -> list[SearchHit]:
        """The memories ``p`` may read that best answer ``body`` (the steps: ``gateway.search``)."""
        await access.require_acting(self.pool, p, "memory_search", body.user_id, body.agent_id, body.workspace_id)
        return await Search(self.search_parts, p, body).run()

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
        """What the key may read, counted: per namespace and type, and memories made per day. An admin
        key counts every user's (counts only: what they say stays behind the read rule)."""
        everyone = access.allowed(p, policy.Action.COUNTS_READ, policy.CountsRef())
        groups, daily = await reads.counts(self.pool, None if everyone else p, days)
        await audit.record(self.pool, p, "memory_stats", target_type="memory")
        return {"by_namespace": [dict(r) for r in groups], "memories_per_day": [dict(r) for r in daily]}
