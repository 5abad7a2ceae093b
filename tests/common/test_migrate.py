from __future__ import annotations

import asyncio
import uuid

import asyncpg

from memgw.common.db.migrate import _migrations, migrate_dsn
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
