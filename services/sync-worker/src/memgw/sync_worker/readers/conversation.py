"""Conversation: the owner's committed session transcripts, one item per session.

Only sessions the owner committed (a live session is still being written, and its owner has not
chosen to keep it); secrets are redacted with the same detector the consolidator uses; a session
held through an agent stays that agent's (its chunks are agent-only, like the session).
"""

from __future__ import annotations

import asyncpg

from memgw.common import sessions
from memgw.common.secrets import redact
from memgw.common.sources import MemorySourceEntry, SourceKind
from memgw.sync_worker.readers.base import ItemError, SourceContent, SourceItem


class ConversationReader:
    kind = SourceKind.CONVERSATION

    def __init__(self, pool: asyncpg.Pool):
        self._pool = pool

    async def list_items(self, source: MemorySourceEntry) -> list[SourceItem]:
        rows = await sessions.committed_sessions(
            self._pool,
            source.owner_user_id,
            session_id=source.fields.get("session_id"),
            agent_id=source.fields.get("agent_id"),
        )
        return [SourceItem(id=r["id"], title=f"session {r['id']}", updated_at=r["last"]) for r in rows]

    async def read_item(self, source: MemorySourceEntry, item_id: str) -> SourceContent:
        rows = await sessions.committed_transcript(self._pool, source.owner_user_id, item_id)
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
