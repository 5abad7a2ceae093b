"""Versioned SQL migrations, applied at start-up under an advisory lock.

Files ``migrations/NNNN_name.sql`` run in order, each in its own transaction. The advisory lock makes
several replicas starting at once safe: one migrates, the others wait and then find nothing to do.
"""

from __future__ import annotations

from importlib import resources

import asyncpg

from memgw.common.logging import get_logger

log = get_logger("memgw.db.migrate")
_LOCK_KEY = 0x6D656D67  # "memg"


def _migrations() -> list[tuple[int, str, str]]:
    folder = resources.files("memgw.common.db").joinpath("migrations")
    found = []
    for entry in folder.iterdir():
        if entry.name.endswith(".sql"):
            number, _, name = entry.name.partition("_")
            found.append((int(number), name.removesuffix(".sql"), entry.read_text(encoding="utf-8")))
    return sorted(found)


async def migrate(conn: asyncpg.Connection) -> list[int]:
    """Apply what is missing; return the versions applied now."""
    applied_now: list[int] = []
    await conn.execute("SELECT pg_advisory_lock($1)", _LOCK_KEY)
    try:
        await conn.execute(
            "CREATE TABLE IF NOT EXISTS schema_migrations ("
            " version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())"
        )
        done = {r["version"] for r in await conn.fetch("SELECT version FROM schema_migrations")}
        for version, name, sql in _migrations():
            if version in done:
                continue
            async with conn.transaction():
                await conn.execute(sql)
                await conn.execute("INSERT INTO schema_migrations (version, name) VALUES ($1, $2)", version, name)
            log.info("db.migration.applied", version=version, name=name)
            applied_now.append(version)
    finally:
        await conn.execute("SELECT pg_advisory_unlock($1)", _LOCK_KEY)
    return applied_now


async def migrate_dsn(dsn: str) -> list[int]:
    conn = await asyncpg.connect(dsn)
    try:
        return await migrate(conn)
    finally:
        await conn.close()
