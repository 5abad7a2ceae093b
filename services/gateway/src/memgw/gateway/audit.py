"""Every read, write and refusal leaves a row; a refusal also carries its reason."""

from __future__ import annotations

import itertools
import time
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Literal

import asyncpg
from pydantic import BaseModel, Field

from memgw.common import audit_log, policy
from memgw.common.db.pool import Executor
from memgw.common.db.write_behind import WriteBehind
from memgw.common.domain import Principal
from memgw.common.logging import get_logger
from memgw.gateway.errors import ApiError, Forbidden
from memgw.gateway.pagination import Page, keyset_page, window_clauses
from memgw.gateway.schemas import MAX_PAGE, Moment, RequestBody

log = get_logger("memgw.gateway.audit")


async def record(
    db: Executor,
    principal: Principal | None,
    action: str,
    *,
    decision: Literal["allow", "deny"] = "allow",
    reason: str = "",
    target_type: str = "",
    target_id: str | None = None,
    namespace: str | None = None,
) -> None:
    await audit_log.write(
        db,
        actor_user_id=principal.user_id if principal else None,
        actor_agent_id=principal.agent_id if principal else None,
        action=action,
        decision=decision,
        reason=reason,
        target_type=target_type,
        targets=[(target_id, namespace)],
    )
    if decision == "deny":
        log.warning("access.denied", action=action, target=target_id, reason=reason)


class AllowedBehind:
    """Allowed reads on the hot path (a search), audited off it: each row keeps the moment it was noted,
    and a batch is written 0.2 s after its first row, in one statement, so the write neither runs between
    a search's answer and its caller nor costs a commit per search. A refusal is never
    written here (``refused`` waits for its row); a crash loses at most the rows of the batch not yet
    written, which record that someone was answered, never that someone was turned away."""

    def __init__(self, pool: asyncpg.Pool) -> None:
        self._seq = itertools.count()
        self._rows = WriteBehind[audit_log.Allowed](
            lambda rows: audit_log.write_allowed(pool, rows), name="audit-allowed", delay_s=0.2
        )

    def note(self, principal: Principal, action: str, *, target_type: str, target_id: str | None, reason: str) -> None:
        row = audit_log.Allowed(
            next(self._seq),
            datetime.now(UTC),
            principal.user_id,
            principal.agent_id,
            action,
            target_type,
            target_id,
            reason,
        )
        self._rows.note([row])

    async def flush(self) -> None:
        await self._rows.flush()


async def record_each(
    db: Executor, principal: Principal, action: str, *, target_type: str, targets: Sequence[tuple[str, str | None]]
) -> None:
    """One allowed ``action`` on each (target id, namespace), in one statement."""
    await audit_log.write(
        db,
        actor_user_id=principal.user_id,
        actor_agent_id=principal.agent_id,
        action=action,
        target_type=target_type,
        targets=targets,
    )


async def refused(
    pool: asyncpg.Pool,
    principal: Principal,
    action: str,
    reason: str,
    *,
    target_type: str,
    target_id: str | None = None,
    answer: ApiError | None = None,
) -> ApiError:
    """Audit a refusal and return the error to raise: ``answer`` (a 404 that hides what exists) or a
    403 with the reason. Written on the pool, never inside the transaction the refusal rolls back."""
    await record(pool, principal, action, decision="deny", reason=reason, target_type=target_type, target_id=target_id)
    return answer or Forbidden(reason)


class _Window:
    """At most ``limit`` rows a minute (per process) for unauthenticated requests: a flood of bad keys
    cannot fill the table; what was left out is counted into the next row that is written."""

    def __init__(self, limit: int = 30):
        self.limit = limit
        self.started = 0.0
        self.written = 0
        self.skipped = 0

    def admit(self) -> int | None:
        """None: leave this one out; else how many were left out before it."""
        now = time.monotonic()
        if now - self.started >= 60:
            self.started, self.written = now, 0
        if self.written >= self.limit:
            self.skipped += 1
            return None
        self.written += 1
        skipped, self.skipped = self.skipped, 0
        return skipped


_unauthenticated = _Window()


async def unauthenticated(pool: asyncpg.Pool, reason: str, *, target: str) -> None:
    """Audit a 401 (no key, or an unknown or revoked one), rate-limited."""
    skipped = _unauthenticated.admit()
    if skipped is None:
        return
    more = f" (+{skipped} more left out)" if skipped else ""
    await record(
        pool, None, "authenticate", decision="deny", reason=reason + more, target_type="request", target_id=target
    )


class AuditEntry(BaseModel):
    id: int
    actor_user_id: str | None
    actor_agent_id: str | None
    action: str
    target_type: str
    target_id: str | None
    namespace: str | None
    decision: str
    reason: str
    correlation_id: str | None
    created_at: datetime


def canonical_action(action: str) -> str:
    """Actions are named after the MCP tools of seed 004 §D (``memory_upsert``); the seed's own audit
    example says ``upsert_memory``. A filter takes either: ``<verb>_memory`` means ``memory_<verb>``."""
    verb = action.removesuffix("_memory")
    return f"memory_{verb}" if verb != action else action


class AuditQuery(RequestBody):
    actor: str | None = None
    action: str | None = Field(
        default=None, description="An action, e.g. `memory_upsert` (the seed's `upsert_memory` is the same)."
    )
    decision: Literal["allow", "deny"] | None = None
    target: str | None = None
    since: Moment | None = None
    until: Moment | None = None
    cursor: str | None = None
    limit: int = Field(default=50, ge=1, le=MAX_PAGE)


async def entries(pool: asyncpg.Pool, principal: Principal, q: AuditQuery) -> Page[AuditEntry]:
    """An admin sees every row; anyone else the rows of their own actions."""
    asked = policy.AuditRef(q.actor if principal.is_admin else (q.actor or principal.user_id))
    decision = policy.decide(principal, policy.Action.AUDIT_READ, asked)
    if not decision.allowed:
        raise await refused(pool, principal, policy.Action.AUDIT_READ.value, decision.reason, target_type="audit")
    equal: list[tuple[str, object]] = [] if principal.is_admin else [("actor_user_id", principal.user_id)]
    for column, value in (
        ("actor_user_id", q.actor),
        ("action", canonical_action(q.action) if q.action else None),
        ("decision", q.decision),
        ("target_id", q.target),
    ):
        if value is not None:
            equal.append((column, value))
    rows = await audit_log.page(
        pool,
        equal=equal,
        window=lambda params: window_clauses(params, q.since, q.until, q.cursor, key_type=int),
        limit=q.limit + 1,
    )
    return keyset_page([AuditEntry(**dict(r)) for r in rows], q.limit, lambda e: (e.created_at, e.id))
