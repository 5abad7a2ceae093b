"""Who may read which memory (seed 004 §C), rendered twice from the same rules: as an index filter
(so the vector search itself never returns what the principal may not see) and as a SQL predicate
(so every hit is re-checked against Postgres, and every list query is filtered in the database).

Read rules:
- private: same user;
- agent-only: same user and same agent;
- workspace-shared: the workspace is one the principal may read (member, agent allowed);
- global: everyone.
On top: status (active by default), not expired, not marked incorrect, and the agent's source scope
(records that did not come from a memory source always pass; source chunks only when allowed, by
registry id or by the upstream's own id such as ``slack:#eng``).
Who may write is decided with every other access decision in ``memgw.common.policy``.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime

from memgw.common.domain import MemoryStatus, Principal, Visibility
from memgw.common.index.base import Condition, IsEmpty, Match, MatchAny, Range, Where


@dataclass(frozen=True)
class ReadScope:
    statuses: tuple[MemoryStatus, ...] = (MemoryStatus.ACTIVE,)
    include_incorrect: bool = False


def visibility_where(p: Principal) -> Where:
    ways: list[Condition] = [
        Where(must=(Match("user_id", p.user_id), Match("visibility", Visibility.PRIVATE.value))),
        Match("visibility", Visibility.GLOBAL.value),
    ]
    if p.agent_id:
        ways.append(
            Where(
                must=(
                    Match("user_id", p.user_id),
                    Match("visibility", Visibility.AGENT_ONLY.value),
                    Match("agent_id", p.agent_id),
                )
            )
        )
    if p.workspace_ids:
        ways.append(
            Where(
                must=(
                    Match("visibility", Visibility.WORKSPACE_SHARED.value),
                    MatchAny("workspace_id", tuple(sorted(p.workspace_ids))),
                )
            )
        )
    return Where(should=tuple(ways))


def read_where(p: Principal, scope: ReadScope = ReadScope(), *, now: datetime | None = None) -> Where:
    now_ts = (now or datetime.now(UTC)).timestamp()
    must: list[Condition] = [
        visibility_where(p),
        MatchAny("status", tuple(s.value for s in scope.statuses)),
        Where(should=(IsEmpty("expires_ts"), Range("expires_ts", gt=now_ts))),
    ]
    if p.memory_sources is not None:
        allowed: list[Condition] = [IsEmpty("source_id")]
        if p.memory_sources:
            named = tuple(p.memory_sources)
            allowed += [MatchAny("source_id", named), MatchAny("source_scope", named)]
        must.append(Where(should=tuple(allowed)))
    must_not: tuple[Condition, ...] = () if scope.include_incorrect else (Match("flags", "incorrect"),)
    return Where(must=tuple(must), must_not=must_not)


class SqlParams:
    """Collects positional parameters for asyncpg while a predicate is built."""

    def __init__(self, start: int = 1):
        self.values: list[object] = []
        self._start = start

    def add(self, value: object) -> str:
        self.values.append(value)
        return f"${self._start + len(self.values) - 1}"


def read_sql(p: Principal, params: SqlParams, scope: ReadScope = ReadScope(), alias: str = "m") -> str:
    """The same rules as ``read_where``, as a SQL boolean expression over table alias ``alias``."""
    a = alias
    user = params.add(p.user_id)
    ways = [
        f"({a}.visibility = 'private' AND {a}.user_id = {user})",
        f"{a}.visibility = 'global'",
    ]
    if p.agent_id:
        ways.append(
            f"({a}.visibility = 'agent-only' AND {a}.user_id = {user} AND {a}.agent_id = {params.add(p.agent_id)})"
        )
    if p.workspace_ids:
        ways.append(
            f"({a}.visibility = 'workspace-shared' AND {a}.workspace_id = ANY({params.add(sorted(p.workspace_ids))}))"
        )
    clauses = [
        "(" + " OR ".join(ways) + ")",
        f"{a}.status = ANY({params.add([s.value for s in scope.statuses])})",
        f"({a}.expires_at IS NULL OR {a}.expires_at > now())",
    ]
    if p.memory_sources is not None:
        named = params.add(list(p.memory_sources))
        clauses.append(f"({a}.source_id IS NULL OR {a}.source_id = ANY({named}) OR {a}.source_scope = ANY({named}))")
    if not scope.include_incorrect:
        clauses.append(f"NOT ('incorrect' = ANY({a}.flags))")
    return " AND ".join(clauses)
