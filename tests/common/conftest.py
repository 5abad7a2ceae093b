"""Fixtures of the library's own tests."""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator

import asyncpg
import pytest_asyncio

from memgw.common.db.migrate import migrate_dsn
from memgw.common.db.pool import create_pool
from tests.infrastructure import create_database, drop_database


@pytest_asyncio.fixture
async def own_pool(pg_admin_url: str) -> AsyncIterator[asyncpg.Pool]:
    """A migrated database of its own: no other test (nor another relay of the run) sees its rows."""
    name = f"memgw_own_{uuid.uuid4().hex[:8]}"
    url = await create_database(pg_admin_url, name)
    await migrate_dsn(url)
    pool = await create_pool(url)
    yield pool
    await pool.close()
    await drop_database(pg_admin_url, name)
