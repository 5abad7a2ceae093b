"""Conversation: the owner's committed session transcripts, one item per session.

Only sessions the owner committed (a live session is still being written, and its owner has not
chosen to keep it); secrets are redacted with the same detector the consolidator uses; a session
held through an agent stays that agent's (its chunks are agent-only, like the session).
"""

from __future__ import annotations

import asyncpg

from memgw.common.secrets import redact
from memgw.common.sources import MemorySourceEntry, SourceKind
from memgw.sync_worker.readers.base import ItemError, SourceContent, SourceItem

_COMMITTED = "s.user_id = $1 AND s.status = 'committed' AND e.expires_at > now()"


class ConversationReader:
    kind = SourceKind.CONVERSATION

    def __init__(self, pool: asyncpg.Pool):
        self._pool = pool

    async def list_items(self, source: MemorySourceEntry) -> list[SourceItem]:
        rows = await self._pool.fetch(
            "SELECT s.id, max(e.created_at) AS last FROM sessions s JOIN episodes e ON e.session_id = s.id"
            f" WHERE {_COMMITTED} AND ($2::text IS NULL OR s.id = $2) AND ($3::text IS NULL OR s.agent_id = $3)"
            " GROUP BY s.id ORDER BY last",
            source.owner_user_id,
            source.fields.get("session_id"),
            source.fields.get("agent_id"),
        )
        return [SourceItem(id=r["id"], title=f"session {r['id']}", updated_at=r["last"]) for r in rows]

    async def read_item(self, source: MemorySourceEntry, item_id: str) -> SourceContent:
        rows = await self._pool.fetch(
            "SELECT e.content, e.created_at, s.agent_id FROM episodes e JOIN sessions s ON s.id = e.session_id"
            f" WHERE {_COMMITTED} AND s.id = $2 ORDER BY e.created_at, e.id",
            source.owner_user_id,
            item_id,
        )
        if not rows:
            raise ItemError(f"session {item_id} has no committed, live episodes")
        transcript = "\n\n".join(f"[{r['created_at']:%Y-%m-%d %H:%M}] {redact(r['content'])}" for r in rows)
        return SourceContent(
            item_id=item_id,
            title=f"session {item_id}",
            text=transcript,
            updated_at=rows[-1]["created_at"],
            agent_id=rows[0]["agent_id"],
        )
