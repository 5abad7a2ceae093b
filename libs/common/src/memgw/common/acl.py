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

The index gets the common case precomputed: a memory that stands (active, not marked incorrect)
carries one keyword, its ``read_key``, naming the one way it is read (its owner's private memories,
an agent's, a workspace's, everyone's), and a reader asks for the keys of its ways: one condition
the payload index answers by itself, where the full rules are checked point by point, at a cost
that grows with the whole index (bench/reports/read_keys_1000k.md).

What does not stand (a candidate, a memory under review or archived, one marked incorrect) is read
by its owner alone, when a scope asks for it (``ReadScope.own_only``); the admin opens any record by
its id (``ReadScope.by_id``). Every read of ``memories`` takes its rule from here.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from memgw.common.domain import MemoryStatus, Principal, Visibility
from memgw.common.index.base import READ_KEY_FIELD, Condition, IsEmpty, Match, MatchAny, Range, Where


@dataclass(frozen=True)
class ReadScope:
    """Which of the readable memories a read asks for."""

    statuses: tuple[MemoryStatus, ...] = (MemoryStatus.ACTIVE,)
    include_incorrect: bool = False
    # What does not stand (not active, or marked incorrect) only from the reader's own memories.
    own_only: bool = False
    # Records opened by their ids: the admin opens any.
    by_id: bool = False

    @property
    def beyond_standing(self) -> bool:
        return self.statuses != (MemoryStatus.ACTIVE,) or self.include_incorrect


def listing(statuses: tuple[MemoryStatus, ...]) -> ReadScope:
    """What lists and searches return: the readable memories in these statuses, not marked incorrect,
    and any status but active only from the reader's own."""
    return ReadScope(statuses=statuses, own_only=True)


# A record asked for by its id: readable and standing, or the reader's own in any state.
OPENED = ReadScope(statuses=tuple(MemoryStatus), include_incorrect=True, own_only=True, by_id=True)


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


def _key(way: tuple[str | None, ...], expires: bool) -> str:
    # JSON, so no id can make two ways spell the same key whatever characters it holds.
    return json.dumps([*way, "expires"] if expires else list(way), separators=(",", ":"))


def read_key(memory: Any) -> str | None:
    """The one way a memory (its row) is read, for the index; None for one that does not stand (not
    active, or marked incorrect), which only the full filter finds. One that expires has a key of its
    own, so the expiry is checked for those few points only."""
    if memory["status"] != MemoryStatus.ACTIVE.value or "incorrect" in memory["flags"]:
        return None
    visibility = memory["visibility"]
    way: tuple[str | None, ...] = {
        Visibility.PRIVATE.value: (visibility, memory["user_id"]),
        Visibility.AGENT_ONLY.value: (visibility, memory["user_id"], memory["agent_id"]),
        Visibility.WORKSPACE_SHARED.value: (visibility, memory["workspace_id"]),
    }.get(visibility, (visibility,))
    return _key(way, memory["expires_at"] is not None)


# Standing memories the index holds without a key: written by a version before keys (the reconciler
# indexes them again at start).
KEYLESS_STANDING = Where(
    must=(Match("status", MemoryStatus.ACTIVE.value), IsEmpty(READ_KEY_FIELD)), must_not=(Match("flags", "incorrect"),)
)


def _reader_ways(p: Principal) -> list[tuple[str | None, ...]]:
    """The ways of ``visibility_where``, as ``read_key`` names them."""
    ways: list[tuple[str | None, ...]] = [(Visibility.PRIVATE.value, p.user_id), (Visibility.GLOBAL.value,)]
    if p.agent_id:
        ways.append((Visibility.AGENT_ONLY.value, p.user_id, p.agent_id))
    ways += [(Visibility.WORKSPACE_SHARED.value, w) for w in sorted(p.workspace_ids)]
    return ways


def _source_where(p: Principal) -> list[Condition]:
    if p.memory_sources is None:
        return []
    allowed: list[Condition] = [IsEmpty("source_id")]
    if p.memory_sources:
        named = tuple(p.memory_sources)
        allowed += [MatchAny("source_id", named), MatchAny("source_scope", named)]
    return [Where(should=tuple(allowed))]


def read_where(p: Principal, scope: ReadScope = ReadScope(), *, now: datetime | None = None) -> Where:
    now_ts = (now or datetime.now(UTC)).timestamp()
    if not scope.beyond_standing:  # what searches ask for: the standing memories, by their keys
        ways = _reader_ways(p)
        standing = MatchAny(READ_KEY_FIELD, tuple(_key(w, False) for w in ways))
        expiring = Where(
            must=(MatchAny(READ_KEY_FIELD, tuple(_key(w, True) for w in ways)), Range("expires_ts", gt=now_ts))
        )
        return Where(must=(Where(should=(standing, expiring)), *_source_where(p)))
    must: list[Condition] = [
        visibility_where(p),
        MatchAny("status", tuple(s.value for s in scope.statuses)),
        Where(should=(IsEmpty("expires_ts"), Range("expires_ts", gt=now_ts))),
        *_source_where(p),
    ]
    if scope.own_only and scope.beyond_standing and not p.is_admin:
        stands = Where(must=(Match("status", MemoryStatus.ACTIVE.value),), must_not=(Match("flags", "incorrect"),))
        must.append(Where(should=(stands, Match("user_id", p.user_id))))
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
    statuses = params.add([s.value for s in scope.statuses])
    if scope.by_id and p.is_admin:
        return f"{a}.status = ANY({statuses})"
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
        f"{a}.status = ANY({statuses})",
        f"({a}.expires_at IS NULL OR {a}.expires_at > now())",
    ]
    if p.memory_sources is not None:
        named = params.add(list(p.memory_sources))
        clauses.append(f"({a}.source_id IS NULL OR {a}.source_id = ANY({named}) OR {a}.source_scope = ANY({named}))")
    if not scope.include_incorrect:
        clauses.append(f"NOT ('incorrect' = ANY({a}.flags))")
    if scope.own_only and scope.beyond_standing and not p.is_admin:
        clauses.append(f"(({a}.status = 'active' AND NOT ('incorrect' = ANY({a}.flags))) OR {a}.user_id = {user})")
    return " AND ".join(clauses)


def keyword_stats_sql(p: Principal, params: SqlParams, alias: str = "s") -> str:
    """The counts of ``keyword_stats`` (migration 0013) that ``p`` may sum: those of the standing memories
    ``read_where`` lets it find, its ways (spelled by the same SQL function as the counts' keys) and, for
    an agent kept to some sources, only theirs. A reader's keyword weights are made of these alone."""
    a = alias
    spelled = []
    for visibility, *ids in _reader_ways(p):
        # memory_read_way(visibility, user_id, agent_id, workspace_id), as the way's memories fill them in
        columns = {
            Visibility.PRIVATE.value: (*ids, None, None),
            Visibility.AGENT_ONLY.value: (*ids, None),
            Visibility.WORKSPACE_SHARED.value: (None, None, *ids),
        }.get(str(visibility), (None, None, None))
        values = ", ".join("NULL" if v is None else f"{params.add(v)}::text" for v in (visibility, *columns))
        spelled.append(f"memory_read_way({values})")
    clauses = [f"{a}.way IN ({', '.join(spelled)})"]
    if p.memory_sources is not None:
        named = params.add(list(p.memory_sources))
        clauses.append(f"({a}.source_id = '' OR {a}.source_id = ANY({named}) OR {a}.source_scope = ANY({named}))")
    return " AND ".join(clauses)
