"""The ``memory_sources`` table: the sources people registered. The gateway adds, changes and removes
them; the sync-workers read them to sync. Its SQL is here. Credentials arrive and leave sealed
(``memgw.common.credentials``): this module never sees them open."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import asyncpg

from memgw.common.db.pool import Conn, Executor

_COLUMNS = (
    "id, kind, label, enabled, owner_user_id, workspace_id, fields, max_tokens_per_sync,"
    " max_cost_per_sync_usd, sync_depth_days, version, secrets"
)
# What add and change write, in this order (id, kind and owner are written once, on add).
WRITTEN = (
    "label",
    "enabled",
    "workspace_id",
    "fields",
    "max_tokens_per_sync",
    "max_cost_per_sync_usd",
    "sync_depth_days",
    "secrets",
)


async def get(db: Executor, source_id: str, *, lock: bool = False) -> asyncpg.Record | None:
    """The source; with ``lock``, its row locked until the caller's transaction ends."""
    return await db.fetchrow(
        f"SELECT {_COLUMNS} FROM memory_sources WHERE id = $1{' FOR UPDATE' if lock else ''}", source_id
    )


async def exists(db: Executor, source_id: str) -> bool:
    return bool(await db.fetchval("SELECT 1 FROM memory_sources WHERE id = $1", source_id))


async def of(db: Executor, owner_user_id: str | None, workspace_ids: Sequence[str] = ()) -> list[asyncpg.Record]:
    """The sources of an owner and of these workspaces, by id; every source when ``owner_user_id`` is
    None (the admin's listing)."""
    if owner_user_id is None:
        return list(await db.fetch(f"SELECT {_COLUMNS} FROM memory_sources ORDER BY id"))
    return list(
        await db.fetch(
            f"SELECT {_COLUMNS} FROM memory_sources WHERE owner_user_id = $1 OR workspace_id = ANY($2::text[])"
            " ORDER BY id",
            owner_user_id,
            list(workspace_ids),
        )
    )


async def enabled_of_kinds(db: Executor, kinds: Sequence[str]) -> list[asyncpg.Record]:
    """The enabled sources of these kinds (what auto-fetch may start)."""
    return list(
        await db.fetch(
            "SELECT id, kind, owner_user_id, workspace_id FROM memory_sources WHERE enabled AND kind = ANY($1::text[])",
            list(kinds),
        )
    )


async def add(conn: Conn, source_id: str, kind: str, owner_user_id: str, written: Sequence[Any]) -> None:
    """A new source; ``written`` holds the values of ``WRITTEN``, in order."""
    await conn.execute(
        f"INSERT INTO memory_sources (id, kind, owner_user_id, {', '.join(WRITTEN)})"
        f" VALUES ($1, $2, $3, {', '.join(f'${n}' for n in range(4, 4 + len(WRITTEN)))})",
        source_id,
        kind,
        owner_user_id,
        *written,
    )


async def change(conn: Conn, source_id: str, written: Sequence[Any]) -> None:
    """The source's ``WRITTEN`` columns set anew, its version counted up."""
    sets = ", ".join(f"{column} = ${n}" for n, column in enumerate(WRITTEN, start=2))
    await conn.execute(
        f"UPDATE memory_sources SET {sets}, version = version + 1, updated_at = now() WHERE id = $1",
        source_id,
        *written,
    )


async def remove(conn: Conn, source_id: str) -> None:
    await conn.execute("DELETE FROM memory_sources WHERE id = $1", source_id)
