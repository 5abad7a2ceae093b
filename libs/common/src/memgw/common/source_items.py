"""The ``source_items`` table: what each source's syncs took in, item by item (its content hash, so an
unchanged item is skipped, and when it was synced). The sync-workers write it; the gateway counts it."""

from __future__ import annotations

import asyncpg

from memgw.common.db.pool import Conn, Executor


async def synced(db: Executor, source_id: str) -> list[asyncpg.Record]:
    """Every item of the source taken in so far: ``item_id``, ``content_hash``, ``synced_at``."""
    return list(
        await db.fetch("SELECT item_id, content_hash, synced_at FROM source_items WHERE source_id = $1", source_id)
    )


async def count(db: Executor, source_id: str) -> int:
    return int(await db.fetchval("SELECT count(*) FROM source_items WHERE source_id = $1", source_id))


async def keep(conn: Conn, source_id: str, item_id: str, digest: str, chunks: int) -> None:
    await conn.execute(
        "INSERT INTO source_items (source_id, item_id, content_hash, chunk_count) VALUES ($1, $2, $3, $4)"
        " ON CONFLICT (source_id, item_id) DO UPDATE SET content_hash = EXCLUDED.content_hash,"
        " chunk_count = EXCLUDED.chunk_count, synced_at = now()",
        source_id,
        item_id,
        digest,
        chunks,
    )


async def forget(conn: Conn, source_id: str, item_id: str) -> None:
    await conn.execute("DELETE FROM source_items WHERE source_id = $1 AND item_id = $2", source_id, item_id)
