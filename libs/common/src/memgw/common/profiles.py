"""The ``profiles`` and ``profile_versions`` tables: a user's evolved profile (seed 004 §B), drawn by
the consolidator's maintenance from well-evidenced memories, read by the gateway and the vault."""

from __future__ import annotations

from datetime import datetime
from typing import Any

import asyncpg

from memgw.common.db.pool import Conn, Executor


async def profile_of(db: Executor, user_id: str) -> asyncpg.Record | None:
    return await db.fetchrow("SELECT * FROM profiles WHERE user_id = $1", user_id)


async def draw(
    conn: Conn,
    user_id: str,
    *,
    preferences: dict[str, str],
    sources: dict[str, str],
    facts: list[str],
    style: list[str],
    from_memory_ids: list[str],
) -> asyncpg.Record:
    """The user's profile drawn anew, its version counted up and kept in ``profile_versions``, in the
    caller's transaction."""
    row = await conn.fetchrow(
        "INSERT INTO profiles (user_id, preferences, preference_sources, stable_facts, working_style,"
        " updated_from_memory_ids) VALUES ($1, $2, $3, $4, $5, $6)"
        " ON CONFLICT (user_id) DO UPDATE SET preferences = EXCLUDED.preferences,"
        " preference_sources = EXCLUDED.preference_sources, stable_facts = EXCLUDED.stable_facts,"
        " working_style = EXCLUDED.working_style, updated_from_memory_ids = EXCLUDED.updated_from_memory_ids,"
        " version = profiles.version + 1, updated_at = now() RETURNING *",
        user_id,
        preferences,
        sources,
        facts,
        style,
        from_memory_ids,
    )
    assert row is not None
    snapshot: dict[str, Any] = {k: (v.isoformat() if isinstance(v, datetime) else v) for k, v in dict(row).items()}
    await conn.execute(
        "INSERT INTO profile_versions (user_id, version, snapshot) VALUES ($1, $2, $3)",
        user_id,
        row["version"],
        snapshot,
    )
    return row
