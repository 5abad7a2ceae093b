"""Memory writes and searches on behalf of a principal: ACL checks, audit, storage, index."""

from __future__ import annotations

from memgw.common.acl import ReadScope, SqlParams, read_sql, read_where
from memgw.common.domain import MemoryRecord, MemoryStatus, Principal, Visibility, new_id
from memgw.common.index.base import MatchAny, Where
from memgw.common.memories import RECORD_COLUMNS, NewMemory, to_record
from memgw.common.namespaces import derive_namespace
from memgw.common.runtime import Infra
from memgw.gateway import audit
from memgw.gateway.errors import BadRequest, Forbidden
from memgw.gateway.schemas import MemoryCreate, SearchHit, SearchRequest


async def _deny(infra: Infra, p: Principal, action: str, reason: str, target: str | None = None) -> Forbidden:
    await audit.record(infra.pool, p, action, decision="deny", reason=reason, target_type="memory", target_id=target)
    return Forbidden(reason)


async def check_acts_for(
    infra: Infra, p: Principal, action: str, user_id: str | None, agent_id: str | None, workspace_id: str | None
) -> None:
    """A body may name only the principal's own user and agent, and a workspace it belongs to."""
    if user_id and user_id != p.user_id and not p.is_admin:
        raise await _deny(infra, p, action, f"key of user {p.user_id} may not act for user {user_id}")
    if agent_id and p.agent_id and agent_id != p.agent_id:
        raise await _deny(infra, p, action, f"key of agent {p.agent_id} may not act for agent {agent_id}")
    if workspace_id and workspace_id not in p.workspace_ids and not p.is_admin:
        raise await _deny(infra, p, action, f"not a member of workspace {workspace_id} (or agent not allowed)")


async def create(infra: Infra, p: Principal, body: MemoryCreate) -> MemoryRecord:
    await check_acts_for(infra, p, "memory_upsert", body.user_id, body.agent_id, body.workspace_id)
    user_id = body.user_id or p.user_id
    agent_id = body.agent_id or p.agent_id
    if body.visibility is Visibility.GLOBAL and not p.is_trusted:
        raise await _deny(infra, p, "memory_upsert", "only trusted writers may write global memory")
    try:
        derived = derive_namespace(
            memory_type=body.memory_type,
            visibility=body.visibility,
            user_id=user_id,
            agent_id=agent_id,
            workspace_id=body.workspace_id,
        )
    except ValueError as exc:
        raise BadRequest(str(exc)) from exc
    if body.namespace and body.namespace != derived:
        raise await _deny(
            infra, p, "memory_upsert", f"namespace {body.namespace} does not match {body.visibility} memory ({derived})"
        )
    [vector] = await infra.embedder.embed_passages([body.content])
    new = NewMemory(
        id=new_id("mem"),
        user_id=user_id,
        agent_id=agent_id,
        workspace_id=body.workspace_id,
        session_id=body.session_id,
        namespace=derived,
        memory_type=body.memory_type,
        content=body.content,
        summary=body.summary,
        tags=body.tags,
        importance=body.importance,
        confidence=body.confidence,
        visibility=body.visibility.value,
        source=body.source,
        source_ref=body.source_ref,
        metadata=body.metadata,
        embedding=vector,
        embedding_model=infra.embedder.name,
    )
    async with infra.pool.acquire() as conn, conn.transaction():
        record = await infra.store.insert(conn, new, actor=p.user_id)
        await audit.record(conn, p, "memory_upsert", target_type="memory", target_id=record.id, namespace=derived)
    await infra.store.sync_index(upserted=[record.id])
    return record


async def search(infra: Infra, p: Principal, body: SearchRequest) -> list[SearchHit]:
    await check_acts_for(infra, p, "memory_search", body.user_id, body.agent_id, body.workspace_id)
    scope = ReadScope(statuses=tuple(body.statuses) or (MemoryStatus.ACTIVE,))
    where = read_where(p, scope)
    if body.namespaces:
        where = Where(must=(where, MatchAny("namespace", tuple(body.namespaces))))
    vector = await infra.embedder.embed_query(body.query) if body.mode != "sparse" else None
    hits = await infra.index.search(
        dense=vector, text=body.query if body.mode != "dense" else None, where=where, limit=body.limit, mode=body.mode
    )
    if not hits:
        await audit.record(infra.pool, p, "memory_search", target_type="query", reason="no hits")
        return []
    # The index filter already applied the ACL; Postgres re-checks every hit (truth, not index).
    params = SqlParams()
    ids = params.add([h.memory_id for h in hits])
    rows = await infra.pool.fetch(
        f"SELECT {RECORD_COLUMNS} FROM memories m WHERE m.id = ANY({ids}) AND {read_sql(p, params, scope)}",
        *params.values,
    )
    by_id = {r["id"]: to_record(r) for r in rows}
    results = [SearchHit(memory=by_id[h.memory_id], score=h.score) for h in hits if h.memory_id in by_id]
    await audit.record(
        infra.pool, p, "memory_search", target_type="memory", target_id=",".join(r.memory.id for r in results)[:2000]
    )
    return results
