"""EverMemOS's v0 API on our memories, episodes and commits, in the shapes the ``evermemos`` SDK
reads (``EverMemOS(base_url="http://<gateway>/evermemos")``, our API key as its Bearer key).

- a message (``POST /api/v0/memories``) is an episode of the session that stands for its group
  (one per user and ``group_id``); a message id sent twice is one episode;
- ``flush`` commits that session: the consolidator extracts long-term memories from it, as
  EverMemOS does at a conversation boundary; its ``request_id`` is the commit's job, followed at
  ``/api/v0/status/request``;
- long-term memories are EverMemOS's ``event_log`` (atomic facts) or, when a client asks for
  ``episodic_memory``, shaped as episodes; the user's episodes are ``episodic_memory`` when listed;
  the profile is ``profile``; ``foresight`` is not produced here (always empty).

Everything goes through ``Sessions``, ``Memories`` and ``Profiles``: the same policy and audit. A
``sender`` or ``user_id`` a client names must be the key's own user (an assistant's message is
stored as the user's, with its sender kept).
"""

from __future__ import annotations

import hashlib
from datetime import datetime
from typing import Any, Literal

import asyncpg
from pydantic import ConfigDict, Field

from memgw.common import sessions
from memgw.common.domain import MemoryRecord, Principal
from memgw.gateway import access
from memgw.gateway.errors import ApiError, BadRequest, Conflict
from memgw.gateway.memory_service import Memories
from memgw.gateway.profile_service import Profiles
from memgw.gateway.schemas import MAX_PAGE, MAX_QUERY_CHARS, Content, RequestBody, SearchRequest
from memgw.gateway.session_service import CommitRequest, EpisodeCreate, Sessions

SOURCE = "evermemos"
MemoryType = Literal["event_log", "episodic_memory", "profile", "profile_memory", "foresight"]
Mode = Literal["hybrid", "dense", "sparse"]
_RETRIEVE: dict[str, Mode] = {"keyword": "sparse", "bm25": "sparse", "vector": "dense", "embedding": "dense"}


class EverRequest(RequestBody):
    model_config = ConfigDict(extra="ignore")  # the SDK's options this gateway has no use for


class EverMessage(EverRequest):
    content: Content
    create_time: datetime
    message_id: str = Field(min_length=1, max_length=200)
    sender: str = Field(min_length=1, max_length=200)
    flush: bool = False
    group_id: str | None = Field(default=None, max_length=200)
    group_name: str | None = Field(default=None, max_length=200)
    refer_list: list[str] | None = Field(default=None, max_length=100)
    role: Literal["user", "assistant"] | None = None
    sender_name: str | None = Field(default=None, max_length=200)


class EverListing(EverRequest):
    user_id: str | None = None
    group_id: str | None = Field(default=None, max_length=200)
    memory_type: MemoryType = "event_log"
    limit: int = Field(default=40, ge=1, le=MAX_PAGE)
    offset: int = Field(default=0, ge=0, le=100_000)


class EverSearch(EverRequest):
    query: str = Field(min_length=1, max_length=MAX_QUERY_CHARS)
    user_id: str | None = None
    group_id: str | None = Field(default=None, max_length=200)
    memory_types: list[MemoryType] = Field(default_factory=lambda: list[MemoryType](["episodic_memory"]), max_length=5)
    top_k: int = Field(default=10, ge=1, le=MAX_PAGE)
    retrieve_method: str = Field(default="hybrid", max_length=32)


class EverDelete(EverRequest):
    memory_id: str | None = None
    id: str | None = None  # the SDK's aliases of memory_id
    event_id: str | None = None
    user_id: str | None = None
    group_id: str | None = Field(default=None, max_length=200)


def session_of(user_id: str, group_id: str) -> str:
    """The session that stands for a user's EverMemOS group (a session id is its user's own)."""
    return "ev_" + hashlib.sha256(f"{user_id}\0{group_id}".encode()).hexdigest()[:24]


def answer(result: dict[str, Any], message: str = "ok") -> dict[str, Any]:
    return {"status": "ok", "message": message, "result": result}


def _stamp(moment: datetime) -> str:
    return moment.isoformat()


def event_log(m: MemoryRecord, score: float | None = None) -> dict[str, Any]:
    return {
        "memory_type": "event_log",
        "id": m.id,
        "atomic_fact": m.content,
        "parent_id": m.session_id or m.id,
        "parent_type": "memcell",
        "timestamp": _stamp(m.updated_at),
        "user_id": m.user_id,
        "created_at": _stamp(m.created_at),
        "updated_at": _stamp(m.updated_at),
        "event_type": m.memory_type,
        "score": score,
    }


def episodic(m: MemoryRecord, score: float | None = None) -> dict[str, Any]:
    return {
        "memory_type": "episodic_memory",
        "id": m.id,
        "episode_id": m.id,
        "episode": m.content,
        "summary": m.summary or m.content,
        "subject": m.summary or None,
        "keywords": list(m.tags),
        "timestamp": _stamp(m.updated_at),
        "user_id": m.user_id,
        "created_at": _stamp(m.created_at),
        "updated_at": _stamp(m.updated_at),
        "score": score,
        "type": "Conversation",
    }


class EverMemOSFacade:
    def __init__(self, *, pool: asyncpg.Pool, memories: Memories, sessions: Sessions, profiles: Profiles) -> None:
        self.pool, self.memories, self.sessions, self.profiles = pool, memories, sessions, profiles

    async def _own(self, p: Principal, user_id: str | None, operation: str) -> str:
        """The user a call is about: the key's own (naming another is refused and audited)."""
        await access.require_acting(self.pool, p, operation, user_id, None, None)
        return user_id or p.user_id

    async def add(self, p: Principal, body: EverMessage) -> dict[str, Any]:
        speaker = body.sender if body.role != "assistant" else None
        owner = await self._own(p, speaker, "memory_append_episode")
        session_id = session_of(owner, body.group_id or f"{owner}__group")
        event = {"message_id": body.message_id}
        if await sessions.get(self.pool, owner, session_id) is None or not await sessions.has_event(
            self.pool, owner, session_id, event
        ):
            await self.sessions.append_episode(
                p,
                EpisodeCreate(
                    session_id=session_id,
                    content=body.content,
                    events=[
                        {
                            **event,
                            "sender": body.sender,
                            "sender_name": body.sender_name or body.sender,
                            "role": body.role or "user",
                            "group_id": body.group_id,
                            "group_name": body.group_name,
                            "create_time": body.create_time.isoformat(),
                        }
                    ],
                    tags=[SOURCE],
                ),
            )
        if body.flush:
            try:
                commit = await self.sessions.commit(p, session_id, CommitRequest())
            except Conflict:  # flushed before, and nothing new since: nothing to extract
                return {"message": "nothing new since the last flush", "request_id": session_id, "status": "extracted"}
            return {"message": "extraction queued", "request_id": commit["job_id"], "status": "queued"}
        return {"message": "message accumulated; flush to extract", "request_id": session_id, "status": "accumulated"}

    async def status(self, p: Principal, request_id: str) -> dict[str, Any]:
        if request_id.startswith("job_"):
            try:
                job = await self.sessions.get_job(p, request_id)
            except ApiError:
                return {"success": True, "found": False, "message": f"no request {request_id!r}"}
            done = {"request_id": request_id, "status": job.state, "result": job.result, "detail": job.detail}
            return {"success": True, "found": True, "data": done}
        try:  # a flush not asked for yet: the request is the group's session, read under the policy
            session = await self.sessions.get_session(p, request_id)
        except ApiError:
            return {"success": True, "found": False, "message": f"no request {request_id!r}"}
        count = await sessions.live_episode_count(self.pool, session.user_id, request_id)
        waiting = {"request_id": request_id, "status": session.status, "messages": count}
        return {"success": True, "found": True, "data": waiting}

    async def listing(self, p: Principal, q: EverListing) -> dict[str, Any]:
        owner = await self._own(p, q.user_id, "memory_list")
        metadata = {"memory_types": [q.memory_type], "source": SOURCE, "user_id": owner}
        if q.memory_type == "episodic_memory":
            readable = await self.sessions.readable(p)  # the policy's session rule, not a copy of it
            if q.group_id:
                readable = [s for s in readable if s == session_of(owner, q.group_id)]
            rows, total = await sessions.episodes_in(self.pool, p.user_id, readable, limit=q.limit, offset=q.offset)
            items = [
                {
                    "id": r["id"],
                    "episode_id": r["id"],
                    "user_id": owner,
                    "episode": r["content"],
                    "summary": r["summary"] or r["content"],
                    "group_id": (r["events"][0].get("group_id") if r["events"] else None),
                    "timestamp": _stamp(r["created_at"]),
                    "created_at": _stamp(r["created_at"]),
                }
                for r in rows
            ]
            return answer({"memories": items, "count": len(items), "total_count": total, "metadata": metadata})
        if q.memory_type in ("profile", "profile_memory"):
            profile = await self.profiles.get_profile(p, owner)
            data = {"stable_facts": profile.stable_facts, "preferences": profile.preferences}
            item = {"id": f"profile_{owner}", "group_id": "", "user_id": owner, "profile_data": data}
            return answer({"memories": [item | {"version": profile.version}], "count": 1, "total_count": 1})
        if q.memory_type == "foresight":
            return answer({"memories": [], "count": 0, "total_count": 0, "metadata": metadata})
        own = await self._own_memories(p, owner, q.offset + q.limit)
        page = own[q.offset : q.offset + q.limit]
        items = [event_log(m) for m in page]
        return answer({"memories": items, "count": len(items), "total_count": len(own), "metadata": metadata})

    async def _own_memories(self, p: Principal, owner: str, wanted: int) -> list[MemoryRecord]:
        return (await self.memories.scan(p, lambda m: m.user_id == owner, wanted=wanted))[0]

    async def search(self, p: Principal, q: EverSearch) -> dict[str, Any]:
        owner = await self._own(p, q.user_id, "memory_search")
        mode: Mode = _RETRIEVE.get(q.retrieve_method.lower(), "hybrid")  # hybrid, rrf, agentic, …
        request = SearchRequest(query=q.query, limit=q.top_k, mode=mode)
        hits = [h for h in await self.memories.search(p, request) if h.memory.user_id == owner]
        wanted = set(q.memory_types)
        shape = episodic if "episodic_memory" in wanted else event_log
        memories = [shape(h.memory, h.score) for h in hits] if {"event_log", "episodic_memory"} & wanted else []
        profiles: list[dict[str, Any]] = []
        if {"profile", "profile_memory"} & wanted:
            profile = await self.profiles.get_profile(p, owner)
            profiles = [{"item_type": "explicit_info", "description": str(f)} for f in profile.stable_facts]
            profiles += [
                {"item_type": "implicit_trait", "trait_name": str(k), "description": str(v)}
                for k, v in profile.preferences.items()
            ]
        query_metadata = {"query": q.query, "user_id": owner, "top_k": q.top_k, "memory_types": q.memory_types}
        result = {
            "memories": memories,
            "profiles": profiles,
            "pending_messages": [],
            "total_count": len(memories),
            "query_metadata": query_metadata | {"retrieve_method": q.retrieve_method},
        }
        return answer(result)

    async def delete(self, p: Principal, body: EverDelete) -> dict[str, Any]:
        memory_id = body.memory_id or body.id or body.event_id
        named = {"memory_id": memory_id, "user_id": body.user_id, "group_id": body.group_id}
        filters = [name for name, value in named.items() if value]
        if memory_id:
            await self.memories.delete(p, memory_id)
            return answer({"count": 1, "filters": filters}, "deleted")
        if not (body.user_id or body.group_id):
            raise BadRequest("name what to delete: memory_id, or user_id and/or group_id")
        owner = await self._own(p, body.user_id, "memory_delete")
        session_id = session_of(owner, body.group_id) if body.group_id else None
        doomed = [
            m
            for m in await self._own_memories(p, owner, 100_000)
            if session_id is None or session_id in (m.session_id, *m.metadata.get("sessions", []))
        ]
        for m in doomed:
            await self.memories.delete(p, m.id)
        return answer({"count": len(doomed), "filters": filters}, "deleted")
