"""Sync runs (table ``sync_runs``): the one place they are started, advanced and read.

A run is started under the one-run-per-source unique index, in one transaction with the
SyncRequested that asks a worker to do it and the Requested stage people watch; whoever starts it
(a person through the gateway, or auto-fetch in a worker) starts it the same way, and when two try
at once one of them gets the run that is in flight.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from memgw.common.bus import BusLayout
from memgw.common.db.outbox import enqueue
from memgw.common.db.pool import Conn, Executor
from memgw.common.domain import new_id
from memgw.common.events import MemorySyncStageChanged, SyncCounts, SyncRequested, SyncStage

RUN_COLUMNS = "id, source_id, reason, stage, counts, detail, more_pending, created_at, updated_at, finished_at"


@dataclass(frozen=True)
class SourceOwners:
    """What a run's events carry about their source (who may see them)."""

    id: str
    owner_user_id: str
    workspace_id: str | None


async def start(
    conn: Conn,
    layout: BusLayout,
    source: SourceOwners,
    *,
    reason: str,
    stale_after_s: float,
    message_id: str | None = None,
    detail: str | None = None,
) -> tuple[dict[str, Any], bool]:
    """Start a run of ``source`` in the caller's transaction, or return the one in flight:
    (run, started now). ``message_id`` deduplicates the request on the bus (auto-fetch's time slot).
    A run in flight that has not moved for ``stale_after_s`` (its worker died, or its message was
    dead-lettered while the database was away) is ended Failed first, so the source is never wedged."""
    await _abandon_stale(conn, layout, source, stale_after_s)
    run_id = new_id("run")
    row = await conn.fetchrow(
        "INSERT INTO sync_runs (id, source_id, reason, stage) VALUES ($1, $2, $3, $4)"
        f" ON CONFLICT (source_id) WHERE finished_at IS NULL DO NOTHING RETURNING {RUN_COLUMNS}",
        run_id,
        source.id,
        reason,
        SyncStage.REQUESTED.value,
    )
    if row is None:
        active = await conn.fetchrow(
            f"SELECT {RUN_COLUMNS} FROM sync_runs WHERE source_id = $1 AND finished_at IS NULL", source.id
        )
        assert active is not None
        return dict(active), False
    request = SyncRequested(
        id=message_id or run_id, run_id=run_id, source_id=source.id, owner_user_id=source.owner_user_id, reason=reason
    )
    await enqueue(conn, layout, request)
    await enqueue(conn, layout, _stage_event(source, run_id, SyncStage.REQUESTED, SyncCounts(), detail=detail))
    return dict(row), True


async def _abandon_stale(conn: Conn, layout: BusLayout, source: SourceOwners, stale_after_s: float) -> None:
    stale = await conn.fetchrow(
        f"SELECT {RUN_COLUMNS} FROM sync_runs WHERE source_id = $1 AND finished_at IS NULL"
        " AND updated_at < now() - make_interval(secs => $2) FOR UPDATE",
        source.id,
        stale_after_s,
    )
    if stale is not None:
        detail = f"abandoned: no progress for {int(stale_after_s)} s (the worker stopped or the work was lost)"
        await advance(conn, layout, source, stale["id"], SyncStage.FAILED, SyncCounts(**stale["counts"]), detail=detail)


async def advance(
    conn: Conn,
    layout: BusLayout,
    source: SourceOwners,
    run_id: str,
    stage: SyncStage,
    counts: SyncCounts,
    *,
    detail: str | None = None,
    failed_items: list[str] | None = None,
    more_pending: bool = False,
) -> bool:
    """Move a run to ``stage`` (final stages finish it) and announce it, in the caller's transaction.

    False, with nothing written or announced, when the run has already ended: a finished run is never
    reopened nor finished twice. Two workers can hold the same run (a request redelivered while its
    first worker still works, or a run abandoned as stale); the first to end it wins, the other learns
    here that it should stop."""
    moved = await conn.fetchval(
        "UPDATE sync_runs SET stage = $2, counts = $3, detail = $4, more_pending = $5, updated_at = now(),"
        " finished_at = CASE WHEN $6 THEN now() ELSE NULL END WHERE id = $1 AND finished_at IS NULL RETURNING true",
        run_id,
        stage.value,
        counts.model_dump(),
        detail,
        more_pending,
        stage.is_final,
    )
    if not moved:
        return False
    event = _stage_event(
        source, run_id, stage, counts, detail=detail, failed_items=failed_items, more_pending=more_pending
    )
    await enqueue(conn, layout, event)
    return True


async def keep_counts(conn: Conn, run_id: str, counts: SyncCounts) -> None:
    """Write a run's counts with the work they count, in the caller's transaction: a run resumed after
    a crash goes on from them (what it ingested, spent and deleted), not from zero."""
    await conn.execute(
        "UPDATE sync_runs SET counts = $2, updated_at = now() WHERE id = $1 AND finished_at IS NULL",
        run_id,
        counts.model_dump(),
    )


def resumed_counts(saved: dict[str, Any] | None) -> SyncCounts:
    """What a run's earlier attempts did and this one will not do again: items ingested or deleted,
    chunks, tokens and cost. What each attempt sees afresh (items seen, unchanged, failed) starts at 0."""
    afresh = {"items_seen": 0, "items_unchanged": 0, "items_failed": 0}
    return SyncCounts(**(saved or {})).model_copy(update=afresh)


def _stage_event(
    source: SourceOwners,
    run_id: str,
    stage: SyncStage,
    counts: SyncCounts,
    *,
    detail: str | None,
    failed_items: list[str] | None = None,
    more_pending: bool = False,
) -> MemorySyncStageChanged:
    """The stage event people watch; it names the source's owners, so the relay knows who may see it."""
    return MemorySyncStageChanged(
        run_id=run_id,
        connection_id=source.id,
        owner_user_id=source.owner_user_id,
        workspace_id=source.workspace_id,
        stage=stage,
        counts=counts.model_copy(),
        detail=detail,
        failed_items=(failed_items or [])[:50],
        more_pending=more_pending,
    )


async def get(db: Executor, source_id: str, run_id: str) -> dict[str, Any] | None:
    row = await db.fetchrow(f"SELECT {RUN_COLUMNS} FROM sync_runs WHERE id = $1 AND source_id = $2", run_id, source_id)
    return dict(row) if row else None


async def in_flight(db: Executor, source_id: str) -> dict[str, Any] | None:
    row = await db.fetchrow(
        "SELECT id, stage, detail FROM sync_runs WHERE source_id = $1 AND finished_at IS NULL", source_id
    )
    return dict(row) if row else None


async def last_finished_counts(db: Executor, source_id: str) -> dict[str, Any] | None:
    counts = await db.fetchval(
        "SELECT counts FROM sync_runs WHERE source_id = $1 AND finished_at IS NOT NULL"
        " ORDER BY finished_at DESC LIMIT 1",
        source_id,
    )
    return dict(counts) if counts is not None else None


async def per_day(db: Executor, source_ids: list[str], days: int = 30) -> list[dict[str, Any]]:
    """Runs of these sources per day over the last ``days``, by how they ended."""
    rows = await db.fetch(
        "SELECT date_trunc('day', created_at)::date AS day,"
        " count(*) FILTER (WHERE stage = 'Completed') AS completed,"
        " count(*) FILTER (WHERE stage = 'Failed') AS failed, count(*) AS runs"
        " FROM sync_runs WHERE source_id = ANY($1) AND created_at > now() - make_interval(days => $2)"
        " GROUP BY 1 ORDER BY 1",
        source_ids,
        days,
    )
    return [dict(r) for r in rows]


async def of_run(db: Executor, run_id: str) -> dict[str, Any] | None:
    """What a worker needs of a run it was asked to do: its source, whether it finished, what it counted
    so far and when it was made."""
    row = await db.fetchrow(
        "SELECT source_id, finished_at, counts AS run_counts, created_at AS run_created_at"
        " FROM sync_runs WHERE id = $1",
        run_id,
    )
    return dict(row) if row else None


async def busy_or_recent(db: Executor, cadence_s: dict[str, float]) -> set[str]:
    """Which of these sources (id → seconds between automatic runs) have a run in flight, or one made
    within their cadence."""
    if not cadence_s:
        return set()
    rows = await db.fetch(
        "SELECT DISTINCT r.source_id FROM sync_runs r"
        " JOIN unnest($1::text[], $2::float8[]) AS c(id, secs) ON c.id = r.source_id"
        " WHERE r.finished_at IS NULL OR r.created_at > now() - make_interval(secs => c.secs)",
        list(cadence_s),
        list(cadence_s.values()),
    )
    return {r["source_id"] for r in rows}
