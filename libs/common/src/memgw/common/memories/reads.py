"""Every read of ``memories`` and ``memory_versions`` that a service makes, as one query each.

The read rules come from ``memgw.common.acl`` (a reader's scope); what a service does with the rows is
its own. Each function takes an ``Executor``: a pool, or the connection of the caller's transaction
when the read must see (or lock) what that transaction sees.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from datetime import datetime
from typing import Any

import asyncpg

from memgw.common.acl import OPENED, ReadScope, SqlParams, listing, read_sql
from memgw.common.db.pool import Conn, Executor
from memgw.common.domain import MemoryRecord, MemoryStatus, Principal
from memgw.common.memories.store import RECORD_COLUMNS, to_record

Row = asyncpg.Record
SessionKey = tuple[str, str | None, str]  # user, session, namespace


# ---- one memory, by its id, whoever asks (the caller has decided it may)


async def row(db: Executor, memory_id: str) -> Row | None:
    return await db.fetchrow(f"SELECT {RECORD_COLUMNS} FROM memories WHERE id = $1", memory_id)


async def record(db: Executor, memory_id: str) -> MemoryRecord | None:
    found = await row(db, memory_id)
    return to_record(found) if found is not None else None


async def full_row(db: Executor, memory_id: str) -> Row | None:
    """Every column, the embedding included."""
    return await db.fetchrow("SELECT * FROM memories WHERE id = $1", memory_id)


async def exists(db: Executor, memory_id: str) -> bool:
    return bool(await db.fetchval("SELECT 1 FROM memories WHERE id = $1", memory_id))


async def locked_version(conn: Conn, memory_id: str) -> int | None:
    """The memory's version, its row locked until the caller's transaction ends."""
    version = await conn.fetchval("SELECT version FROM memories WHERE id = $1 FOR UPDATE", memory_id)
    return int(version) if version is not None else None


async def versions(db: Executor, memory_id: str) -> list[Row]:
    return list(
        await db.fetch(
            "SELECT version, change, changed_by, created_at, snapshot FROM memory_versions"
            " WHERE memory_id = $1 ORDER BY version DESC",
            memory_id,
        )
    )


async def records(db: Executor, memory_ids: Collection[str], status: MemoryStatus) -> list[MemoryRecord]:
    """Those of these memories in ``status``, the most important first."""
    rows = await db.fetch(
        f"SELECT {RECORD_COLUMNS} FROM memories WHERE id = ANY($1) AND status = $2"
        " ORDER BY importance DESC, updated_at DESC",
        sorted(memory_ids),
        status.value,
    )
    return [to_record(r) for r in rows]


# ---- what a reader may read


async def opened(db: Executor, p: Principal, memory_id: str) -> Row | None:
    """The memory, when ``p`` may open it (``acl.OPENED``)."""
    params = SqlParams()
    mid = params.add(memory_id)
    return await db.fetchrow(
        f"SELECT {RECORD_COLUMNS} FROM memories m WHERE m.id = {mid} AND {read_sql(p, params, OPENED)}",
        *params.values,
    )


async def briefs(db: Executor, p: Principal, memory_ids: Sequence[str]) -> list[dict[str, Any]]:
    """Id, namespace, type, content and summary of those of these memories ``p`` may open, in the
    order given (what it may not is left out, as in a listing)."""
    params = SqlParams()
    ids = params.add(list(memory_ids))
    rows = await db.fetch(
        "SELECT m.id, m.namespace, m.memory_type, m.content, m.summary FROM memories m"
        f" WHERE m.id = ANY({ids}) AND {read_sql(p, params, OPENED)}",
        *params.values,
    )
    by_id = {r["id"]: dict(r) for r in rows}
    return [by_id[i] for i in memory_ids if i in by_id]


async def readable(db: Executor, p: Principal, memory_ids: Sequence[str], scope: ReadScope) -> set[str]:
    """Which of these memories ``p`` may read in ``scope``."""
    params = SqlParams()
    ids = params.add(list(memory_ids))
    rows = await db.fetch(
        f"SELECT m.id FROM memories m WHERE m.id = ANY({ids}) AND {read_sql(p, params, scope)}", *params.values
    )
    return {r["id"] for r in rows}


async def page(
    db: Executor,
    p: Principal,
    statuses: tuple[MemoryStatus, ...],
    *,
    filters: Sequence[tuple[str, object]],
    window: Any,
    limit: int,
) -> list[Row]:
    """One page of what ``p`` may list, newest first. ``filters`` are (column, value) equalities, a
    list value a containment; ``window`` renders the keyset window's clauses (since, until, cursor)."""
    params = SqlParams()
    clauses = [read_sql(p, params, listing(statuses))]
    for column, value in filters:
        op = "@>" if isinstance(value, list) else "="
        clauses.append(f"m.{column} {op} {params.add(value)}")
    clauses += window(params)
    return list(
        await db.fetch(
            f"SELECT {RECORD_COLUMNS} FROM memories m WHERE {' AND '.join(clauses)}"
            f" ORDER BY m.created_at DESC, m.id DESC LIMIT {params.add(limit)}",
            *params.values,
        )
    )


async def for_ranking(
    db: Executor, p: Principal, memory_ids: Sequence[str], statuses: tuple[MemoryStatus, ...]
) -> dict[str, Row]:
    """The rows of those of these hits ``p`` may read (Postgres, the truth, re-checks every one), each
    with ``p``'s own judgements of it (``personal_feedback``) and its embedding."""
    if not memory_ids:
        return {}
    params = SqlParams()
    wanted = params.add(list(dict.fromkeys(memory_ids)))
    asker = params.add(p.user_id)
    rows = await db.fetch(
        f"SELECT {RECORD_COLUMNS}, content_hash, embedding, last_retrieved_at,"
        f" ARRAY(SELECT DISTINCT f.feedback FROM memory_feedback f WHERE f.memory_id = m.id"
        f"  AND f.user_id = {asker} AND f.personal) AS personal_feedback"
        f" FROM memories m WHERE m.id = ANY({wanted}) AND {read_sql(p, params, listing(statuses))}",
        *params.values,
    )
    return {r["id"]: r for r in rows}


async def counts(db: Executor, p: Principal | None, days: int) -> tuple[list[Row], list[Row]]:
    """What ``p`` may read (None: every user's, for an operator the policy lets count them), counted per
    namespace and type, and made per day over ``days``."""
    params = SqlParams()
    readable_ = _countable(p, params)
    groups = await db.fetch(
        f"SELECT m.namespace, m.memory_type, count(*) AS count FROM memories m WHERE {readable_}"
        " GROUP BY 1, 2 ORDER BY 3 DESC LIMIT 500",
        *params.values,
    )
    params = SqlParams()
    readable_ = _countable(p, params)
    since = params.add(days)
    daily = await db.fetch(
        f"SELECT date_trunc('day', m.created_at)::date AS day, count(*) AS count FROM memories m"
        f" WHERE {readable_} AND m.created_at > now() - make_interval(days => {since}) GROUP BY 1 ORDER BY 1",
        *params.values,
    )
    return list(groups), list(daily)


def _countable(p: Principal | None, params: SqlParams) -> str:
    """The active memories ``p`` may read; every user's when ``p`` is None."""
    if p is None:
        return f"m.status = {params.add(MemoryStatus.ACTIVE.value)}"
    return read_sql(p, params, listing((MemoryStatus.ACTIVE,)))


# ---- sessions


async def last_in_sessions(db: Executor, keys: Sequence[SessionKey]) -> dict[SessionKey, str]:
    """The content of the newest memory of each (user, session, namespace), in one round trip."""
    if not keys:
        return {}
    rows = await db.fetch(
        "SELECT k.u, k.s, k.n, last.content FROM unnest($1::text[], $2::text[], $3::text[]) AS k(u, s, n)"
        " CROSS JOIN LATERAL (SELECT m.content FROM memories m WHERE m.user_id = k.u AND m.session_id = k.s"
        "  AND m.namespace = k.n ORDER BY m.created_at DESC, m.id DESC LIMIT 1) last",
        *(list(column) for column in zip(*keys, strict=True)),
    )
    return {(r["u"], r["s"], r["n"]): r["content"] for r in rows}


async def session_neighbours(db: Executor, anchor_ids: Sequence[str]) -> list[Row]:
    """For each anchor (``ord``, from 1), the memories just before and just after it in its session and
    namespace: who may read them is for the caller to decide."""
    return list(
        await db.fetch(
            "SELECT a.ord, x.id FROM unnest($1::text[]) WITH ORDINALITY AS a(id, ord)"
            " JOIN memories m ON m.id = a.id AND m.session_id IS NOT NULL"
            " CROSS JOIN LATERAL ("
            "  (SELECT b.id FROM memories b WHERE b.user_id = m.user_id AND b.session_id = m.session_id"
            "   AND b.namespace = m.namespace AND b.created_at < m.created_at ORDER BY b.created_at DESC LIMIT 1)"
            "  UNION ALL"
            "  (SELECT b.id FROM memories b WHERE b.user_id = m.user_id AND b.session_id = m.session_id"
            "   AND b.namespace = m.namespace AND b.created_at > m.created_at ORDER BY b.created_at LIMIT 1)"
            " ) x ORDER BY a.ord",
            list(anchor_ids),
        )
    )


# ---- one owner's memories (the consolidator, the vault)


async def related(
    db: Executor,
    user_id: str,
    namespaces: Sequence[str],
    statuses: Sequence[str],
    memory_ids: Sequence[str],
    words: Sequence[str],
) -> list[Row]:
    """An owner's memories in these namespaces and statuses that are among ``memory_ids`` or contain
    one of ``words``: the newest 100, with their embeddings."""
    return list(
        await db.fetch(
            f"SELECT {RECORD_COLUMNS}, embedding, embedding_model FROM memories"
            " WHERE user_id = $1 AND namespace = ANY($2) AND status = ANY($3)"
            " AND (id = ANY($4) OR EXISTS (SELECT 1 FROM unnest($5::text[]) t WHERE strpos(lower(content), t) > 0))"
            " ORDER BY updated_at DESC LIMIT 100",
            user_id,
            list(namespaces),
            list(statuses),
            list(memory_ids),
            list(words),
        )
    )


async def same_text(db: Executor, namespace: str, text_hash: str) -> Row | None:
    """An active memory or candidate in ``namespace`` with exactly this content."""
    return await db.fetchrow(
        f"SELECT {RECORD_COLUMNS} FROM memories WHERE namespace = $1 AND content_hash = $2"
        " AND status IN ('active', 'candidate') LIMIT 1",
        namespace,
        text_hash,
    )


async def evidenced(db: Executor, user_id: str, min_evidence: int) -> list[Row]:
    """An owner's active preferences and facts said at least ``min_evidence`` times, oldest first."""
    return list(
        await db.fetch(
            "SELECT id, memory_type, content, evidence_count, metadata FROM memories WHERE user_id = $1"
            " AND status = 'active' AND memory_type IN ('preference', 'fact') AND evidence_count >= $2"
            " ORDER BY updated_at, id",
            user_id,
            min_evidence,
        )
    )


async def vault_ids(
    db: Executor, user_id: str, workspace_ids: Sequence[str], statuses: Sequence[MemoryStatus]
) -> set[str]:
    """What a user's vault may hold: their own memories and their workspaces' shared ones, in these
    statuses (source chunks never)."""
    rows = await db.fetch(
        "SELECT m.id FROM memories m WHERE m.source_id IS NULL AND m.status = ANY($2)"
        " AND (m.user_id = $1 OR (m.visibility = 'workspace-shared' AND m.workspace_id = ANY($3)))",
        user_id,
        [s.value for s in statuses],
        list(workspace_ids),
    )
    return {r["id"] for r in rows}


async def workspace_ids_of(db: Executor, workspace_id: str, statuses: Sequence[MemoryStatus]) -> list[str]:
    """A workspace's memories in these statuses (source chunks never)."""
    rows = await db.fetch(
        "SELECT id FROM memories WHERE workspace_id = $1 AND source_id IS NULL AND status = ANY($2)",
        workspace_id,
        [s.value for s in statuses],
    )
    return [r["id"] for r in rows]


# ---- maintenance


async def decaying(db: Executor, exempt_types: Sequence[str], user_id: str | None) -> list[Row]:
    """Active memories that decay (not pinned, not of an exempt type, not a profile's), each with how
    many readers called the shared record useful and outdated (a reader's personal feedback weighs in
    their own results only)."""
    return list(
        await db.fetch(
            f"SELECT {RECORD_COLUMNS}, last_retrieved_at,"
            " (SELECT count(*) FROM memory_feedback f WHERE f.memory_id = m.id AND NOT f.personal"
            "  AND f.feedback = 'useful') AS useful,"
            " (SELECT count(*) FROM memory_feedback f WHERE f.memory_id = m.id AND NOT f.personal"
            "  AND f.feedback = 'outdated') AS outdated"
            " FROM memories m WHERE status = 'active'"
            " AND NOT ('pinned' = ANY(tags)) AND memory_type <> ALL($1::text[]) AND namespace NOT LIKE 'user/%/profile'"
            " AND ($2::text IS NULL OR user_id = $2)",
            list(exempt_types),
            user_id,
        )
    )


async def archived_before(db: Executor, when: datetime, user_id: str | None, spared: Sequence[str]) -> list[Row]:
    return list(
        await db.fetch(
            "SELECT id, user_id, namespace FROM memories WHERE status = 'archived' AND updated_at < $1"
            " AND ($2::text IS NULL OR user_id = $2) AND NOT (id = ANY($3::text[]))",
            when,
            user_id,
            list(spared),
        )
    )


async def expired_candidates(db: Executor, now: datetime, user_id: str | None) -> list[Row]:
    return list(
        await db.fetch(
            "SELECT id, user_id, namespace FROM memories WHERE status = 'candidate' AND expires_at <= $1"
            " AND ($2::text IS NULL OR user_id = $2)",
            now,
            user_id,
        )
    )


async def versions_of_standing(db: Executor, *, except_type: str) -> dict[str, int]:
    """Every active memory's version, but those of ``except_type``."""
    rows = await db.fetch("SELECT id, version FROM memories WHERE status = 'active' AND memory_type <> $1", except_type)
    return {r["id"]: r["version"] for r in rows}


async def source_totals(db: Executor, source_id: str) -> tuple[int, datetime | None]:
    """How many chunks a source has, and when the last one changed."""
    found = await db.fetchrow(
        "SELECT count(*) AS n, max(updated_at) AS last FROM memories WHERE source_id = $1", source_id
    )
    return (int(found["n"]), found["last"]) if found is not None else (0, None)
