"""Memory-source registration and sync requests under the gateway's ACL."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import asyncpg

from memgw.common.db.outbox import enqueue
from memgw.common.domain import Principal, new_id
from memgw.common.events import MemorySyncStageChanged, SyncRequested, SyncStage
from memgw.common.paths import PathOutsideRoot, allowed_root
from memgw.common.runtime import Infra
from memgw.common.sources import MemorySourceEntry, SourceKind, SourceValidationError, validate_source
from memgw.gateway import audit
from memgw.gateway.errors import BadRequest, Conflict, Forbidden, NotFound

SOURCE_COLUMNS = (
    "id, kind, label, enabled, owner_user_id, workspace_id, fields, max_tokens_per_sync, max_cost_per_sync_usd,"
    " sync_depth_days, version"
)
RUN_COLUMNS = "id, source_id, reason, stage, counts, detail, more_pending, created_at, updated_at, finished_at"


def _entry(row: asyncpg.Record) -> MemorySourceEntry:
    return MemorySourceEntry.model_validate(dict(row))


async def add(infra: Infra, p: Principal, entry: MemorySourceEntry) -> MemorySourceEntry:
    if entry.owner_user_id != p.user_id and not p.is_admin:
        await audit.record(
            infra.pool,
            p,
            "source_add",
            decision="deny",
            reason="owner is another user",
            target_type="source",
            target_id=entry.id,
        )
        raise Forbidden(f"key of user {p.user_id} may not add sources for {entry.owner_user_id}")
    try:
        validate_source(entry)
        if entry.kind is SourceKind.FOLDER:
            allowed_root(Path(str(entry.fields["path"])), infra.settings.sources.folder_roots)
    except (SourceValidationError, PathOutsideRoot, FileNotFoundError) as exc:
        raise BadRequest(str(exc)) from exc
    try:
        async with infra.pool.acquire() as conn, conn.transaction():
            row = await conn.fetchrow(
                "INSERT INTO memory_sources (id, kind, label, enabled, owner_user_id, workspace_id, fields,"
                " max_tokens_per_sync, max_cost_per_sync_usd, sync_depth_days)"
                f" VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10) RETURNING {SOURCE_COLUMNS}",
                entry.id,
                entry.kind.value,
                entry.label,
                entry.enabled,
                entry.owner_user_id,
                entry.workspace_id,
                entry.fields,
                entry.max_tokens_per_sync,
                entry.max_cost_per_sync_usd,
                entry.sync_depth_days,
            )
            await audit.record(conn, p, "source_add", target_type="source", target_id=entry.id)
    except asyncpg.UniqueViolationError as exc:
        raise Conflict(f"a source with id {entry.id!r} exists already") from exc
    assert row is not None
    return _entry(row)


async def get(infra: Infra, p: Principal, source_id: str) -> MemorySourceEntry:
    row = await infra.pool.fetchrow(f"SELECT {SOURCE_COLUMNS} FROM memory_sources WHERE id = $1", source_id)
    if row is None or not (p.is_admin or row["owner_user_id"] == p.user_id or row["workspace_id"] in p.workspace_ids):
        if row is not None:
            await audit.record(
                infra.pool,
                p,
                "source_get",
                decision="deny",
                reason="not the owner",
                target_type="source",
                target_id=source_id,
            )
        raise NotFound(f"no source {source_id!r}")
    return _entry(row)


async def request_sync(
    infra: Infra, p: Principal, source_id: str, reason: str = "manual"
) -> tuple[dict[str, Any], bool]:
    """Queue a run, or return the one in flight. Returns (run, created)."""
    source = await get(infra, p, source_id)
    if not source.enabled:
        raise Conflict(f"source {source_id!r} is disabled; enable it before syncing")
    run_id = new_id("run")
    async with infra.pool.acquire() as conn, conn.transaction():
        row = await conn.fetchrow(
            "INSERT INTO sync_runs (id, source_id, reason, stage) VALUES ($1, $2, $3, $4)"
            f" ON CONFLICT (source_id) WHERE finished_at IS NULL DO NOTHING RETURNING {RUN_COLUMNS}",
            run_id,
            source_id,
            reason,
            SyncStage.REQUESTED.value,
        )
        if row is None:
            active = await conn.fetchrow(
                f"SELECT {RUN_COLUMNS} FROM sync_runs WHERE source_id = $1 AND finished_at IS NULL", source_id
            )
            assert active is not None
            return dict(active), False
        await enqueue(
            conn,
            infra.layout,
            SyncRequested(
                id=run_id,
                run_id=run_id,
                source_id=source_id,
                owner_user_id=source.owner_user_id,
                reason="manual",
            ),
        )
        await enqueue(
            conn,
            infra.layout,
            MemorySyncStageChanged(
                run_id=run_id,
                connection_id=source_id,
                owner_user_id=source.owner_user_id,
                workspace_id=source.workspace_id,
                stage=SyncStage.REQUESTED,
            ),
        )
        await audit.record(conn, p, "source_sync", target_type="source", target_id=source_id)
    return dict(row), True


async def get_run(infra: Infra, p: Principal, source_id: str, run_id: str) -> dict[str, Any]:
    await get(infra, p, source_id)
    row = await infra.pool.fetchrow(
        f"SELECT {RUN_COLUMNS} FROM sync_runs WHERE id = $1 AND source_id = $2", run_id, source_id
    )
    if row is None:
        raise NotFound(f"no run {run_id!r} for source {source_id!r}")
    return dict(row)
