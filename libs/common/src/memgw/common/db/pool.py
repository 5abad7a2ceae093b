"""The asyncpg pool: JSON codecs registered once, so jsonb columns read and write Python values."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import asyncpg
from asyncpg.pool import PoolConnectionProxy


async def _init_connection(conn: asyncpg.Connection) -> None:
    for typename in ("json", "jsonb"):
        await conn.set_type_codec(
            typename, encoder=lambda v: json.dumps(v, ensure_ascii=False), decoder=json.loads, schema="pg_catalog"
        )


# A statement that has not answered in this long is abandoned (a frozen or unreachable server must
# not hold a request, or a connection of the pool, forever); connecting gives up sooner.
STATEMENT_TIMEOUT_S = 30.0
CONNECT_TIMEOUT_S = 10.0


async def _session_left_clean(conn: asyncpg.Connection) -> None:
    """What a connection going back to the pool needs beyond asyncpg's own release (which rolls back
    an open transaction and drops its listeners): nothing. asyncpg's default is a round trip of
    ``RESET ALL; UNLISTEN *; CLOSE ALL; pg_advisory_unlock_all()`` that every pooled statement waited
    for, for session state this code never leaves behind: settings are ``SET LOCAL``, cursors live in
    transactions, the outbox relay unlistens before it lets its connection go, and the session-level
    advisory locks (migrations, the index owner's) are on connections of their own."""


# Waiting this long for a connection means Postgres is frozen or every connection is held by one:
# the caller gets TimeoutError (an outage: 503 with Retry-After) instead of waiting out the freeze.
ACQUIRE_TIMEOUT_S = 5.0


class BoundedPool(asyncpg.pool.Pool):
    """asyncpg's pool whose every acquire, its own ``fetch`` and ``execute`` included, is bounded."""

    def acquire(self, *, timeout: float | None = None) -> Any:
        return super().acquire(timeout=ACQUIRE_TIMEOUT_S if timeout is None else timeout)


async def create_pool(dsn: str, *, max_size: int = 10) -> asyncpg.Pool:
    pool = BoundedPool(
        dsn,
        connection_class=asyncpg.Connection,
        record_class=asyncpg.Record,
        min_size=1,
        max_size=max_size,
        max_queries=50_000,
        max_inactive_connection_lifetime=300.0,
        loop=None,
        init=_init_connection,
        reset=_session_left_clean,
        command_timeout=STATEMENT_TIMEOUT_S,
        timeout=CONNECT_TIMEOUT_S,
    )
    await pool
    return pool


def record_to_dict(record: asyncpg.Record | None) -> dict[str, Any] | None:
    return dict(record) if record is not None else None


# What a function that runs inside a caller's transaction accepts: a plain or a pooled connection.
Conn = asyncpg.Connection | PoolConnectionProxy
# Where a single statement may run: the pool itself or a connection.
Executor = asyncpg.Pool | Conn


async def close_pool(pool: asyncpg.Pool, *, grace_s: float = 5.0) -> None:
    """Close the pool, giving connections in use ``grace_s`` to come back; then drop them. A query
    stuck on a Postgres that died must not hold a shutdown (asyncpg's close waits for every one)."""
    try:
        await asyncio.wait_for(pool.close(), grace_s)
    except TimeoutError:
        pool.terminate()
