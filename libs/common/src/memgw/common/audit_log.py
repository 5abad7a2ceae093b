"""The audit log (table ``audit_log``): every read, write and refusal of every service leaves a row
here, written the same way (with the correlation id that ties it to the logs). Its SQL is here."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Literal

import asyncpg

from memgw.common.acl import SqlParams
from memgw.common.db.pool import Executor
from memgw.common.logging import current_correlation_id


async def write(
    db: Executor,
    *,
    actor_user_id: str | None,
    actor_agent_id: str | None,
    action: str,
    decision: Literal["allow", "deny"] = "allow",
    reason: str = "",
    target_type: str = "",
    targets: Sequence[tuple[str | None, str | None]],
) -> None:
    """One row per (target id, namespace) of one decision, in one statement (a batch write is one
    decision about each of its records)."""
    await db.execute(
        "INSERT INTO audit_log (actor_user_id, actor_agent_id, action, target_type, target_id, namespace,"
        " decision, reason, correlation_id) SELECT $1, $2, $3, $4, t.id, t.namespace, $7, $8, $9"
        " FROM unnest($5::text[], $6::text[]) WITH ORDINALITY AS t(id, namespace, ord) ORDER BY t.ord",
        actor_user_id,
        actor_agent_id,
        action,
        target_type,
        [target_id for target_id, _ in targets],
        [namespace for _, namespace in targets],
        decision,
        reason,
        current_correlation_id(),
    )


@dataclass(frozen=True, order=True)
class Allowed:
    """One allowed action, noted when it was done and written later (``write_allowed``). ``seq`` first:
    rows sort by when they were noted, and two alike are never one."""

    seq: int
    at: datetime
    actor_user_id: str | None
    actor_agent_id: str | None
    action: str
    target_type: str
    target_id: str | None
    reason: str
    correlation_id: str | None = field(default_factory=current_correlation_id)


async def write_allowed(db: Executor, rows: Sequence[Allowed]) -> None:
    """Many noted rows in one statement, each with the time it was noted."""
    names = ("at", "actor_user_id", "actor_agent_id", "action", "target_type", "target_id", "reason", "correlation_id")
    await db.execute(
        "INSERT INTO audit_log (created_at, actor_user_id, actor_agent_id, action, target_type, target_id, decision,"
        " reason, correlation_id) SELECT t.at, t.u, t.a, t.action, t.tt, t.tid, 'allow', t.reason, t.cid"
        " FROM unnest($1::timestamptz[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[],"
        " $8::text[]) AS t(at, u, a, action, tt, tid, reason, cid)",
        *([getattr(r, name) for r in rows] for name in names),
    )


async def page(
    db: Executor,
    *,
    equal: Sequence[tuple[str, object]],
    window: Callable[[SqlParams], list[str]],
    limit: int,
) -> list[asyncpg.Record]:
    """One page of rows, newest first: ``equal`` are (column, value) conditions, ``window`` renders the
    keyset window's clauses (since, until, cursor)."""
    params = SqlParams()
    clauses = ["TRUE", *(f"{column} = {params.add(value)}" for column, value in equal)]
    clauses += window(params)
    return list(
        await db.fetch(
            f"SELECT * FROM audit_log WHERE {' AND '.join(clauses)} ORDER BY created_at DESC, id DESC"
            f" LIMIT {params.add(limit)}",
            *params.values,
        )
    )
