from __future__ import annotations

import asyncio
import uuid

import asyncpg
import numpy as np
import pytest

from memgw.common.db import migrate as migrate_module
from memgw.common.db.migrate import _migrations, migrate, migrate_dsn
from memgw.common.memories import vector_bytes, vector_of
from tests.infrastructure import create_database, drop_database


async def test_replicas_migrating_at_once_apply_each_migration_exactly_once(pg_admin_url: str) -> None:
    name = f"memgw_mig_{uuid.uuid4().hex[:8]}"
    url = await create_database(pg_admin_url, name)
    try:
        results = await asyncio.gather(*(migrate_dsn(url) for _ in range(4)))
        applied = sorted(v for result in results for v in result)
        assert applied == [version for version, _, _ in _migrations()]
        conn = await asyncpg.connect(url)
        try:
            rows = await conn.fetch("SELECT version FROM schema_migrations ORDER BY version")
            assert [r["version"] for r in rows] == applied
            assert await conn.fetchval("SELECT to_regclass('memories') IS NOT NULL")
        finally:
            await conn.close()
        assert await migrate_dsn(url) == []
    finally:
        await drop_database(pg_admin_url, name)


async def test_embeddings_stored_before_migration_12_come_back_the_same_as_bytes_and_stay_watched(
    pg_admin_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    name = f"memgw_mig_{uuid.uuid4().hex[:8]}"
    url = await create_database(pg_admin_url, name)
    every = _migrations()
    try:
        monkeypatch.setattr(migrate_module, "_migrations", lambda: [m for m in every if m[0] < 12])
        await migrate_dsn(url)
        vector = np.random.default_rng(5).standard_normal(384).astype(np.float32)
        conn = await asyncpg.connect(url)
        try:
            await _insert_memory(conn, "x", vector.tolist())
            await conn.execute("DELETE FROM index_pending")
            monkeypatch.setattr(migrate_module, "_migrations", lambda: [m for m in every if m[0] <= 12])
            assert await migrate(conn) == [12]
            stored = await conn.fetchval("SELECT embedding FROM memories WHERE id = 'm1'")
            assert np.array_equal(vector_of(stored), vector)  # bit for bit
            await conn.execute("UPDATE memories SET embedding = $1 WHERE id = 'm1'", vector_bytes(-vector))
            assert await conn.fetchval("SELECT count(*) FROM index_pending WHERE memory_id = 'm1'") == 1
        finally:
            await conn.close()
    finally:
        await drop_database(pg_admin_url, name)


async def test_a_memory_row_keeps_its_embedding_beside_its_content(pg_admin_url: str) -> None:
    """A search re-reads every hit's row with its embedding: stored out of line, each hit would cost a
    second lookup in the TOAST table."""
    name = f"memgw_mig_{uuid.uuid4().hex[:8]}"
    url = await create_database(pg_admin_url, name)
    try:
        await migrate_dsn(url)
        vector = np.random.default_rng(7).standard_normal(384).astype(np.float32)
        conn = await asyncpg.connect(url)
        try:
            # 600 characters that do not compress: with the embedding, over Postgres's 2 kB default
            content = "".join(np.random.default_rng(8).choice(list("abcdefghijklmnopqrstuvwxyz "), 600))
            await _insert_memory(conn, content, vector_bytes(vector))
            toast = await conn.fetchval("SELECT reltoastrelid::regclass::text FROM pg_class WHERE relname = 'memories'")
            assert await conn.fetchval(f"SELECT count(*) FROM {toast}") == 0
            assert np.array_equal(vector_of(await conn.fetchval("SELECT embedding FROM memories")), vector)
        finally:
            await conn.close()
    finally:
        await drop_database(pg_admin_url, name)


async def _insert_memory(conn: asyncpg.Connection, content: str, embedding: object) -> None:
    """Memory m1 of user u, with only the columns every version of the table requires."""
    await conn.execute(
        "INSERT INTO memories (id, user_id, namespace, memory_type, content, visibility, content_hash, embedding,"
        " embedding_model) VALUES ('m1', 'u', 'user/u/long_term', 'fact', $1, 'private', 'h', $2, 'm')",
        content,
        embedding,
    )
