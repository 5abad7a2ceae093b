"""Sessions and their episodes (tables ``sessions``, ``episodes``): short-lived, never long-term by
themselves. The gateway opens sessions, appends and lists episodes and commits them; the
consolidator reads a committed session's episodes and purges what expired; the Conversation source
reads committed transcripts. All their SQL is here.

A session id is its user's (the key is the user and the id): every function names both, so one user's
session "chat-1" is never another's, and no one can hold an id another user will need."""

from __future__ import annotations

from datetime import datetime
from typing import Any

import asyncpg

from memgw.common.db.pool import Conn, Executor
from memgw.common.domain import new_id
from memgw.common.namespaces import session_namespace

SESSION_COLUMNS = "id, user_id, agent_id, workspace_id, status, created_at, expires_at, committed_at"
EPISODE_COLUMNS = (
    "id, user_id, agent_id, workspace_id, session_id, namespace, content, summary, tags, events, created_at, expires_at"
)


async def get(db: Executor, user_id: str, session_id: str) -> asyncpg.Record | None:
    row: asyncpg.Record | None = await db.fetchrow(
        f"SELECT {SESSION_COLUMNS} FROM sessions WHERE user_id = $1 AND id = $2", user_id, session_id
    )
    return row


async def create(
    db: Executor, session_id: str, *, user_id: str, agent_id: str | None, workspace_id: str | None, expires_at: datetime
) -> asyncpg.Record:
    """Raises asyncpg.UniqueViolationError when the user has a session of that id already."""
    row = await db.fetchrow(
        "INSERT INTO sessions (id, user_id, agent_id, workspace_id, expires_at) VALUES ($1, $2, $3, $4, $5)"
        f" RETURNING {SESSION_COLUMNS}",
        session_id,
        user_id,
        agent_id,
        workspace_id,
        expires_at,
    )
    assert row is not None
    return row


async def append_episode(
    db: Executor, session: asyncpg.Record, *, agent_id: str | None, **fields: Any
) -> asyncpg.Record:
    """An episode of ``session`` (content, summary, events, tags), living as long as the session."""
    row = await db.fetchrow(
        "INSERT INTO episodes (id, user_id, agent_id, workspace_id, session_id, namespace, content, summary,"
        f" events, tags, expires_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) RETURNING {EPISODE_COLUMNS}",
        new_id("epi"),
        session["user_id"],
        session["agent_id"] or agent_id,
        session["workspace_id"],
        session["id"],
        session_namespace(session["id"]),
        fields["content"],
        fields.get("summary", ""),
        fields.get("events", []),
        fields.get("tags", []),
        session["expires_at"],
    )
    assert row is not None
    return row


async def live_episodes(
    db: Executor, user_id: str, session_id: str, limit: int = 1000, *, since: datetime | None = None
) -> list[asyncpg.Record]:
    """The session's episodes that have not expired (made after ``since``, when given), oldest first."""
    rows: list[asyncpg.Record] = await db.fetch(
        f"SELECT {EPISODE_COLUMNS} FROM episodes WHERE user_id = $4 AND session_id = $1 AND expires_at > now()"
        " AND ($3::timestamptz IS NULL OR created_at > $3) ORDER BY created_at, id LIMIT $2",
        session_id,
        limit,
        since,
        user_id,
    )
    return rows


async def fill_summaries(db: Executor, summaries: dict[str, str]) -> int:
    """Give episodes that have none the summary the summarize step wrote (an agent's own is kept)."""
    if not summaries:
        return 0
    done = await db.fetch(
        "UPDATE episodes e SET summary = s.summary FROM unnest($1::text[], $2::text[]) AS s(id, summary)"
        " WHERE e.id = s.id AND e.summary = '' RETURNING e.id",
        list(summaries),
        list(summaries.values()),
    )
    return len(done)


async def live_episode_count(db: Executor, user_id: str, session_id: str, *, since: datetime | None = None) -> int:
    return int(
        await db.fetchval(
            "SELECT count(*) FROM episodes WHERE user_id = $3 AND session_id = $1 AND expires_at > now()"
            " AND ($2::timestamptz IS NULL OR created_at > $2)",
            session_id,
            since,
            user_id,
        )
    )


async def has_event(db: Executor, user_id: str, session_id: str, event: dict[str, Any]) -> bool:
    """Whether an episode of the session carries this event already (a client's message id: a
    message sent twice is one episode)."""
    return bool(
        await db.fetchval(
            "SELECT 1 FROM episodes WHERE user_id = $3 AND session_id = $1 AND events @> $2::jsonb LIMIT 1",
            session_id,
            [event],
            user_id,
        )
    )


async def live_of(db: Executor, user_id: str, limit: int = 1000) -> list[asyncpg.Record]:
    """A user's live sessions, newest first."""
    rows: list[asyncpg.Record] = await db.fetch(
        f"SELECT {SESSION_COLUMNS} FROM sessions WHERE user_id = $1 AND expires_at > now()"
        " ORDER BY created_at DESC LIMIT $2",
        user_id,
        limit,
    )
    return rows


async def episodes_in(
    db: Executor, user_id: str, session_ids: list[str], *, limit: int = 100, offset: int = 0
) -> tuple[list[asyncpg.Record], int]:
    """The live episodes of these sessions of the user, newest first, a page at a time; and how many."""
    where = "user_id = $1 AND session_id = ANY($2) AND expires_at > now()"
    rows = await db.fetch(
        f"SELECT {EPISODE_COLUMNS} FROM episodes WHERE {where} ORDER BY created_at DESC, id LIMIT $3 OFFSET $4",
        user_id,
        session_ids,
        limit,
        offset,
    )
    total = await db.fetchval(f"SELECT count(*) FROM episodes WHERE {where}", user_id, session_ids)
    return list(rows), int(total)


async def committed_at_locked(conn: Conn, user_id: str, session_id: str) -> datetime | None:
    """When the session was last committed, with its row locked until the caller's transaction ends
    (two commits at once: the second sees the first's)."""
    found: datetime | None = await conn.fetchval(
        "SELECT committed_at FROM sessions WHERE user_id = $1 AND id = $2 FOR UPDATE", user_id, session_id
    )
    return found


async def mark_committed(conn: Conn, user_id: str, session_id: str) -> None:
    await conn.execute(
        "UPDATE sessions SET committed_at = now(), status = 'committed' WHERE user_id = $1 AND id = $2",
        user_id,
        session_id,
    )


async def recent_ids(db: Executor, user_id: str, limit: int = 50) -> list[str]:
    rows = await db.fetch(
        "SELECT id FROM sessions WHERE user_id = $1 AND expires_at > now() ORDER BY created_at DESC LIMIT $2",
        user_id,
        limit,
    )
    return [r["id"] for r in rows]


async def count_expired_episodes(db: Executor, now: datetime) -> int:
    return int(await db.fetchval("SELECT count(*) FROM episodes WHERE expires_at <= $1", now))


async def purge_expired(conn: Conn, now: datetime) -> tuple[int, int]:
    """Delete expired episodes and mark their sessions expired; return (episodes, sessions)."""
    gone = await conn.fetch("DELETE FROM episodes WHERE expires_at <= $1 RETURNING session_id", now)
    await conn.execute("UPDATE sessions SET status = 'expired' WHERE expires_at <= $1 AND status <> 'expired'", now)
    return len(gone), len({r["session_id"] for r in gone})


_COMMITTED = "s.user_id = $1 AND s.status = 'committed' AND e.expires_at > now()"


async def committed_sessions(
    db: Executor, user_id: str, *, session_id: str | None, agent_id: str | None
) -> list[asyncpg.Record]:
    """The user's committed sessions with live episodes (id, last episode time), oldest activity first."""
    rows: list[asyncpg.Record] = await db.fetch(
        "SELECT s.id, max(e.created_at) AS last FROM sessions s"
        " JOIN episodes e ON e.session_id = s.id AND e.user_id = s.user_id"
        f" WHERE {_COMMITTED} AND ($2::text IS NULL OR s.id = $2) AND ($3::text IS NULL OR s.agent_id = $3)"
        " GROUP BY s.id ORDER BY last",
        user_id,
        session_id,
        agent_id,
    )
    return rows


async def committed_transcript(db: Executor, user_id: str, session_id: str) -> list[asyncpg.Record]:
    """A committed session's live episodes (content, created_at, the session's agent_id), oldest first."""
    rows: list[asyncpg.Record] = await db.fetch(
        "SELECT e.content, e.created_at, s.agent_id FROM episodes e"
        " JOIN sessions s ON s.id = e.session_id AND s.user_id = e.user_id"
        f" WHERE {_COMMITTED} AND s.id = $2 ORDER BY e.created_at, e.id",
        user_id,
        session_id,
    )
    return rows
