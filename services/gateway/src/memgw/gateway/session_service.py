"""Sessions and their episodes: short-lived, never long-term by themselves.

Episodes live in ``session/{id}/episodic`` until their session expires; expired content is never
returned and is purged by the consolidator's schedule (audit rows stay). Committing a session hands its episodes to
the consolidator through SessionCommitted and answers with a job whose state can be read.
"""

from __future__ import annotations

import asyncio
import contextlib
from datetime import UTC, datetime, timedelta
from typing import Any

import asyncpg
from pydantic import BaseModel, ConfigDict, Field

from memgw.common import jobs, policy, sessions
from memgw.common.bus import BusLayout
from memgw.common.db.outbox import enqueue
from memgw.common.domain import ID_PATTERN, Principal, new_id
from memgw.common.events import SessionCommitted
from memgw.common.logging import get_logger
from memgw.common.settings import GatewaySettings
from memgw.common.skills import Skills
from memgw.common.skills.memory import IngestInput, RawItem
from memgw.gateway import access, audit
from memgw.gateway.errors import BadRequest, Conflict, NotFound
from memgw.gateway.ingest import Ingest
from memgw.gateway.schemas import MAX_TAGS, Content, RequestBody

log = get_logger("memgw.gateway.sessions")


class SessionCreate(RequestBody):
    model_config = ConfigDict(extra="forbid")
    session_id: str | None = Field(default=None, pattern=ID_PATTERN)
    agent_id: str | None = None
    workspace_id: str | None = None
    ttl_seconds: int | None = Field(default=None, ge=60, le=365 * 86400)


class Session(BaseModel):
    id: str
    user_id: str
    agent_id: str | None
    workspace_id: str | None
    status: str
    created_at: datetime
    expires_at: datetime
    committed_at: datetime | None = None


class EpisodeCreate(RequestBody):
    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={
            "examples": [
                {"session_id": "sess_001", "content": "本轮完成了 namespace 和 ACL 设计。", "tags": ["design"]}
            ]
        },
    )
    user_id: str | None = None
    agent_id: str | None = None
    workspace_id: str | None = None
    session_id: str = Field(pattern=ID_PATTERN)
    content: Content
    summary: str = Field(default="", max_length=2_000)
    events: list[dict[str, Any]] = Field(default_factory=list, max_length=200)
    tags: list[str] = Field(default_factory=list, max_length=MAX_TAGS)


class Episode(BaseModel):
    id: str
    user_id: str
    agent_id: str | None
    workspace_id: str | None
    session_id: str
    namespace: str
    content: str
    summary: str
    tags: list[str]
    events: list[dict[str, Any]]
    created_at: datetime
    expires_at: datetime


class CommitRequest(RequestBody):
    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={
            "examples": [{"promote": True, "min_importance": 0.6, "target_namespace": "user/user_tom/long_term"}]
        },
    )
    user_id: str | None = None
    agent_id: str | None = None
    workspace_id: str | None = None
    promote: bool = True
    min_importance: float | None = Field(default=None, ge=0, le=1)
    target_namespace: str | None = None


class Job(BaseModel):
    id: str
    kind: str
    state: str
    subject_id: str | None
    detail: str | None
    result: dict[str, Any]
    created_at: datetime
    updated_at: datetime


def _session_ref(row: asyncpg.Record) -> policy.SessionRef:
    return policy.SessionRef(row["id"], row["user_id"], row["agent_id"])


class Sessions:
    """Sessions, their episodes and commits to the consolidator."""

    def __init__(self, *, pool: asyncpg.Pool, layout: BusLayout, settings: GatewaySettings, skills: Skills) -> None:
        self.pool, self.layout, self.settings, self.skills = pool, layout, settings, skills

    async def _own_session(self, p: Principal, session_id: str, action: policy.Action) -> asyncpg.Record:
        row = await sessions.get(self.pool, p.user_id, session_id)  # an id names a session of the caller's own
        if row is None or row["expires_at"] <= datetime.now(UTC):
            raise NotFound(f"no open session {session_id!r} (it may have expired)")
        await access.require(self.pool, p, action, _session_ref(row), target_type="session", target_id=session_id)
        return row

    async def open_session(self, p: Principal, body: SessionCreate) -> Session:
        await access.require_acting(self.pool, p, "session_create", None, body.agent_id, body.workspace_id)
        session_id = body.session_id or new_id("sess")
        ttl = body.ttl_seconds or self.settings.session_ttl_s
        try:
            row = await sessions.create(
                self.pool,
                session_id,
                user_id=p.user_id,
                agent_id=body.agent_id or p.agent_id,
                workspace_id=body.workspace_id,
                expires_at=datetime.now(UTC) + timedelta(seconds=ttl),
            )
        except asyncpg.UniqueViolationError as exc:
            raise Conflict(f"session {session_id!r} exists already") from exc
        await audit.record(self.pool, p, "session_create", target_type="session", target_id=session_id)
        return Session(**dict(row))

    async def get_session(self, p: Principal, session_id: str) -> Session:
        return Session(**dict(await self._own_session(p, session_id, policy.Action.SESSION_READ)))

    async def append_episode(self, p: Principal, body: EpisodeCreate) -> Episode:
        await access.require_acting(
            self.pool, p, "memory_append_episode", body.user_id, body.agent_id, body.workspace_id
        )
        # The seed's agents name a session they never opened: the first episode opens it.
        if await sessions.get(self.pool, p.user_id, body.session_id) is None:
            opening = SessionCreate(session_id=body.session_id, agent_id=body.agent_id, workspace_id=body.workspace_id)
            with contextlib.suppress(Conflict):  # a concurrent first append opened it: append to that one
                await self.open_session(p, opening)
        session = await self._own_session(p, body.session_id, policy.Action.SESSION_WRITE)
        turns = (await self.skills.run(Ingest, IngestInput(items=[RawItem(content=body.content)]))).episodes
        if not turns:
            raise BadRequest("the episode has no text once control characters and blank space are removed")
        row = await sessions.append_episode(
            self.pool,
            session,
            agent_id=p.agent_id,
            content=turns[0].content,
            summary=body.summary,
            events=body.events,
            tags=body.tags,
        )
        await audit.record(
            self.pool,
            p,
            "memory_append_episode",
            target_type="episode",
            target_id=row["id"],
            namespace=row["namespace"],
        )
        return Episode(**dict(row))

    async def list_episodes(self, p: Principal, session_id: str) -> list[Episode]:
        await self._own_session(p, session_id, policy.Action.SESSION_READ)
        rows = await sessions.live_episodes(self.pool, p.user_id, session_id)
        await audit.record(self.pool, p, "episode_list", target_type="session", target_id=session_id)
        return [Episode(**dict(r)) for r in rows]

    async def commit(self, p: Principal, session_id: str, body: CommitRequest) -> dict[str, Any]:
        await access.require_acting(
            self.pool, p, "memory_commit_session", body.user_id, body.agent_id, body.workspace_id
        )
        session = await self._own_session(p, session_id, policy.Action.SESSION_COMMIT)
        if body.target_namespace:
            target = policy.NamespaceRef(body.target_namespace, _session_ref(session))
            await access.require(
                self.pool, p, policy.Action.COMMIT_TARGET, target, target_type="session", target_id=session_id
            )
        since = session["committed_at"]  # committed before: only what came after is new
        episodes = await sessions.live_episode_count(self.pool, session["user_id"], session_id, since=since)
        if episodes == 0 and since is not None:
            raise Conflict(f"session {session_id} was committed already and has no new episodes since")
        if episodes == 0:
            raise BadRequest(f"session {session_id} has no episodes to commit")
        job_id = new_id("job")
        async with self.pool.acquire() as conn, conn.transaction():
            if await sessions.committed_at_locked(conn, session["user_id"], session_id) != since:
                raise Conflict(f"session {session_id} was committed meanwhile: read its job and commit again if needed")
            await jobs.create(
                conn, job_id, kind="consolidate_session", user_id=session["user_id"], subject_id=session_id
            )
            await sessions.mark_committed(conn, session["user_id"], session_id)
            await enqueue(
                conn,
                self.layout,
                SessionCommitted(
                    id=job_id,
                    job_id=job_id,
                    session_id=session_id,
                    user_id=session["user_id"],
                    agent_id=session["agent_id"],
                    workspace_id=session["workspace_id"],
                    promote=body.promote,
                    min_importance=body.min_importance,
                    target_namespace=body.target_namespace,
                    actor_agent_id=p.agent_id,
                    episodes_since=since,
                ),
            )
            await audit.record(conn, p, "memory_commit_session", target_type="session", target_id=session_id)
        return {
            "session_id": session_id,
            "episodes": episodes,
            "job_id": job_id,
            "state": "queued",
            "job": f"/v1/jobs/{job_id}",
        }

    async def finished_commit(self, committed: dict[str, Any]) -> dict[str, Any] | None:
        """Wait (at most ``commit_wait_s``) for a commit's job to end; then the seed's answer (§D):
        the session, its episodes and the ids of the memories promoted, merged and put to review.
        None when the consolidator is still at it: the caller answers with the job instead."""
        job_id = committed["job_id"]
        deadline = asyncio.get_running_loop().time() + self.settings.commit_wait_s
        while (job := await jobs.get(self.pool, job_id)) is not None and job["state"] in ("queued", "running"):
            if asyncio.get_running_loop().time() >= deadline:
                return None
            await asyncio.sleep(0.2)
        result = (job or {}).get("result") or {}
        return {
            **committed,
            "state": job["state"] if job else "failed",
            "detail": job["detail"] if job else None,
            "promoted": result.get("promoted", []),
            "merged": result.get("merged", []),
            "reviews": result.get("reviews", []),
        }

    async def readable(self, p: Principal) -> list[str]:
        """The live sessions of ``p``'s user that ``p`` may read (an agent key: its agent's, and those
        of no agent), newest first."""
        rows = await sessions.live_of(self.pool, p.user_id)
        return [r["id"] for r in rows if access.allowed(p, policy.Action.SESSION_READ, _session_ref(r))]

    async def get_job(self, p: Principal, job_id: str) -> Job:
        row = await jobs.get(self.pool, job_id, stale_after_s=self.settings.job_stale_s)
        if row is None:
            raise NotFound(f"no job {job_id!r}")
        ref = policy.OwnedRef("job", job_id, row["user_id"])
        await access.require(
            self.pool, p, policy.Action.JOB_READ, ref, target_type="job", target_id=job_id, hidden=True
        )
        return Job(**{k: v for k, v in row.items() if k != "user_id"})
