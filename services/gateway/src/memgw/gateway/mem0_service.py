"""mem0's API on our memories: the request and answer shapes mem0 clients expect (``MemoryClient``
of mem0ai, Hermes' mem0 provider, anything written against mem0's self-hosted server), our rules
underneath. Every call goes through ``Memories``, so the same validation, policy and audit apply: a
``user_id`` or ``agent_id`` a client names must be the key's own, or an agent of that user the key
may act as; the facade never widens what a key may do.

mem0's ``run_id`` is kept in a memory's metadata (it names a client's run, not one of our sessions).
``infer=true`` runs our extraction (the rules, or the configured LLM) over the user's messages and
stores what it finds as active memories, searchable at once, as mem0 does; a text the user already
has is not stored twice (``event: NONE``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import asyncpg
from pydantic import ConfigDict, Field

from memgw.common.domain import MemoryRecord, Principal
from memgw.common.formation import form as formation
from memgw.common.memories import MemoryStore
from memgw.common.skills import Skills
from memgw.common.skills.memory import IngestInput, RawItem
from memgw.gateway import access
from memgw.gateway.errors import BadRequest
from memgw.gateway.ingest import Ingest
from memgw.gateway.memory_service import Memories
from memgw.gateway.schemas import (
    MAX_PAGE,
    MAX_QUERY_CHARS,
    Content,
    MemoryCreate,
    MemoryPatch,
    RequestBody,
    SearchRequest,
)

SOURCE = "mem0"
_ENTITIES = ("user_id", "agent_id", "run_id")
_ONE_PROJECT = ("app_id", "org_id", "project_id")  # one project per install: accepted, not used


class Mem0Request(RequestBody):
    """mem0 clients send options this gateway has no use for (``version``, ``output_format``,
    ``async_mode``, ``rerank`` …): they are accepted and ignored, never an error."""

    model_config = ConfigDict(extra="ignore")


class Mem0Message(Mem0Request):
    role: str = Field(default="user", max_length=32)
    content: Content


class Mem0Add(Mem0Request):
    messages: list[Mem0Message] = Field(min_length=1, max_length=100)
    user_id: str | None = None
    agent_id: str | None = None
    run_id: str | None = Field(default=None, max_length=200)
    metadata: dict[str, Any] | None = None
    infer: bool = True


class Mem0Search(Mem0Request):
    query: str = Field(min_length=1, max_length=MAX_QUERY_CHARS)
    filters: dict[str, Any] | None = None
    top_k: int | None = Field(default=None, ge=1, le=MAX_PAGE)
    limit: int | None = Field(default=None, ge=1, le=MAX_PAGE, description="The self-hosted server's name of top_k.")
    threshold: float | None = Field(default=None, ge=0)
    user_id: str | None = None
    agent_id: str | None = None
    run_id: str | None = None


class Mem0Listing(Mem0Request):
    filters: dict[str, Any] | None = None


class Mem0Update(Mem0Request):
    text: Content | None = None
    metadata: dict[str, Any] | None = None


@dataclass(frozen=True)
class Scope:
    """Whose memories a call is about: mem0's entity filters, ANDed."""

    user_id: str | None = None
    agent_id: str | None = None
    run_id: str | None = None

    @property
    def narrows(self) -> bool:
        return any((self.user_id, self.agent_id, self.run_id))

    def admits(self, m: MemoryRecord) -> bool:
        return (
            (self.user_id is None or m.user_id == self.user_id)
            and (self.agent_id is None or m.agent_id == self.agent_id)
            and (self.run_id is None or m.metadata.get("run_id") == self.run_id)
        )


def scope_of(filters: dict[str, Any] | None, **given: str | None) -> Scope:
    """mem0's filters (``{"user_id": …}``, ``{"AND": [{…}, {…}]}``) and top-level entity ids, as
    one scope; anything this gateway cannot honour is a 400 naming it, never silently dropped."""
    found: dict[str, str] = {}

    def take(part: Any, where: str) -> None:
        if not isinstance(part, dict):
            raise BadRequest(f"{where}: a filter is an object of entity ids, e.g. {{'user_id': 'alice'}}")
        for key, value in part.items():
            if key == "AND":
                if not isinstance(value, list):
                    raise BadRequest(f"{where}.AND must be a list of filters")
                for n, inner in enumerate(value):
                    take(inner, f"{where}.AND[{n}]")
            elif key in _ENTITIES:
                if value in (None, "*"):
                    continue  # mem0's wildcard: any
                if not isinstance(value, str):
                    raise BadRequest(f"{where}.{key} must be a string")
                if found.get(key, value) != value:
                    raise BadRequest(f"{where}: two different {key}s cannot both hold")
                found[key] = value
            elif key not in _ONE_PROJECT:
                raise BadRequest(
                    f"{where}: filter {key!r} is not supported here; filter by user_id, agent_id and run_id"
                    " (alone or under AND)"
                )

    take(filters or {}, "filters")
    take({k: v for k, v in given.items() if v is not None}, "request")
    return Scope(**found)


def mem0_record(m: MemoryRecord, score: float | None = None) -> dict[str, Any]:
    """A memory as mem0's clients read one."""
    metadata = {k: v for k, v in m.metadata.items() if k != "run_id"}
    record: dict[str, Any] = {
        "id": m.id,
        "memory": m.content,
        "user_id": m.user_id,
        "agent_id": m.agent_id,
        "run_id": m.metadata.get("run_id"),
        "metadata": metadata or None,
        "categories": list(m.tags),
        "created_at": m.created_at.isoformat(),
        "updated_at": m.updated_at.isoformat(),
        "expiration_date": m.expires_at.isoformat() if m.expires_at else None,
        "immutable": False,
    }
    if score is not None:
        record["score"] = score
    return record


class Mem0:
    def __init__(self, *, pool: asyncpg.Pool, store: MemoryStore, memories: Memories, skills: Skills):
        self.pool, self.store, self.memories, self.skills = pool, store, memories, skills

    async def _scoped(self, p: Principal, operation: str, scope: Scope) -> None:
        await access.require_acting(self.pool, p, operation, scope.user_id, scope.agent_id, None)

    async def add(self, p: Principal, body: Mem0Add) -> list[dict[str, Any]]:
        await access.require_acting(self.pool, p, "memory_upsert", body.user_id, body.agent_id, None)
        raw = IngestInput(items=[RawItem(role=m.role, content=m.content) for m in body.messages])
        turns = (await self.skills.run(Ingest, raw)).episodes
        texts = [t.content for t in turns]
        if body.infer:  # what the user said, formed as every path forms it
            found = (
                await formation.extract(self.skills, self.memories.embedder, [(t.role, t.content) for t in turns])
            ).candidates
            # A doubted statement stands only on what it is to a memory: the consolidator's judgement.
            items = [
                (c.content, c.memory_type, c.importance, c.confidence, c.tags) for c in found if not c.stands_only_as
            ]
        else:
            items = [(text, "note", 0.5, 0.8, []) for text in texts]
        owner = body.user_id or p.user_id
        metadata = {**(body.metadata or {}), **({"run_id": body.run_id} if body.run_id else {})}
        results = []
        for content, memory_type, importance, confidence, tags in items:
            if existing := await self.store.same_content(self.pool, p, owner, content):
                results.append({"id": existing, "memory": content, "event": "NONE"})
                continue
            record = await self.memories.create(
                p,
                MemoryCreate(
                    content=content,
                    memory_type=memory_type,
                    importance=importance,
                    confidence=confidence,
                    tags=tags,
                    user_id=body.user_id,
                    agent_id=body.agent_id,
                    metadata=metadata,
                    source=SOURCE,
                ),
            )
            results.append({"id": record.id, "memory": record.content, "event": "ADD"})
        return results

    async def search(self, p: Principal, body: Mem0Search) -> list[dict[str, Any]]:
        scope = scope_of(body.filters, user_id=body.user_id, agent_id=body.agent_id, run_id=body.run_id)
        await self._scoped(p, "memory_search", scope)
        limit = body.top_k or body.limit or 10
        depth = min(MAX_PAGE, limit * 3) if scope.narrows else limit  # room for what the scope leaves out
        hits = await self.memories.search(p, SearchRequest(query=body.query, limit=depth))
        kept = [h for h in hits if scope.admits(h.memory) and (body.threshold is None or h.score >= body.threshold)]
        return [mem0_record(h.memory, h.score) for h in kept[:limit]]

    async def listing(self, p: Principal, scope: Scope, page: int, page_size: int) -> dict[str, Any]:
        """mem0's page-numbered listing, newest first, of what the key may read within the scope."""
        await self._scoped(p, "memory_list", scope)
        found, exhausted = await self.memories.scan(p, scope.admits, wanted=page * page_size + 1)
        start = (page - 1) * page_size
        more = len(found) > start + page_size
        return {
            "count": len(found) if exhausted else None,
            "next": f"?page={page + 1}&page_size={page_size}" if more else None,
            "previous": f"?page={page - 1}&page_size={page_size}" if page > 1 else None,
            "results": [mem0_record(m) for m in found[start : start + page_size]],
        }

    async def get(self, p: Principal, memory_id: str) -> dict[str, Any]:
        return mem0_record(await self.memories.get(p, memory_id))

    async def update(self, p: Principal, memory_id: str, body: Mem0Update) -> dict[str, Any]:
        if body.text is None and body.metadata is None:
            raise BadRequest("send text or metadata to change")
        patch: dict[str, Any] = {}
        if body.text is not None:
            patch["content"] = body.text
        if body.metadata is not None:
            current = await self.memories.get(p, memory_id)
            run = {"run_id": current.metadata["run_id"]} if "run_id" in current.metadata else {}
            patch["metadata"] = {**body.metadata, **run}
        return mem0_record(await self.memories.update(p, memory_id, MemoryPatch(**patch)))

    async def delete(self, p: Principal, memory_id: str) -> None:
        await self.memories.delete(p, memory_id)

    async def delete_all(self, p: Principal, scope: Scope) -> int:
        """Delete the key's own memories within the scope (never another user's, whatever it reads)."""
        await self._scoped(p, "memory_delete", scope)
        own = Scope(scope.user_id or p.user_id, scope.agent_id, scope.run_id)
        deleted = 0
        while True:
            page = await self.listing(p, own, 1, MAX_PAGE)
            ids = [r["id"] for r in page["results"]]
            for memory_id in ids:
                await self.memories.delete(p, memory_id)
            deleted += len(ids)
            if not page["next"]:
                return deleted

    async def history(self, p: Principal, memory_id: str) -> list[dict[str, Any]]:
        """mem0's history: each change with the text before and after it, oldest first."""
        versions = sorted(await self.memories.history(p, memory_id), key=lambda v: v.version)
        out, before = [], None
        for v in versions:
            after = v.snapshot.get("content")
            event = {"created": "ADD", "deleted": "DELETE"}.get(v.change, "UPDATE")
            out.append(
                {
                    "id": f"{memory_id}:{v.version}",
                    "memory_id": memory_id,
                    "old_memory": before,
                    "new_memory": after,
                    "event": event,
                    "actor_id": v.changed_by,
                    "created_at": v.created_at.isoformat(),
                    "is_deleted": event == "DELETE",
                }
            )
            before = after
        return out
