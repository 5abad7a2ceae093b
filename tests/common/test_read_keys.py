"""The index answers a reader's search by one precomputed keyword per memory (``acl.read_key``). Every
kind of memory against every kind of reader, in a real embedded shard: the keys find exactly what the
seed's rule table (written out again below, apart from ``memgw.common.acl``) lets each reader read."""

from __future__ import annotations

import itertools
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
import pytest_asyncio

from memgw.common.acl import OPENED, ReadScope, listing, read_key, read_where
from memgw.common.domain import MemoryStatus, Principal
from memgw.common.index.edge import EdgeIndex
from memgw.common.memories import index_point, vector_bytes

pytestmark = pytest.mark.unit

NOW = datetime(2026, 6, 1, tzinfo=UTC)
USERS = ("u1", "u2", 'u1","a1')  # the last one spells like u1's agent a1 if keys were joined naïvely
AGENTS = (None, "a1", "a2")
WORKSPACES = (None, "w1", "w2")


def _row(n: int, **fields: Any) -> dict[str, Any]:
    return {
        "id": f"m{n:04}",
        "namespace": "ns",
        "memory_type": "fact",
        "content": f"tea note {n}",
        "tags": [],
        "importance": 0.5,
        "confidence": 0.8,
        "created_at": NOW,
        "session_id": None,
        "source_id": None,
        "source_scope": None,
        "embedding": vector_bytes([1.0, 0.0, 0.0, 0.0]),
        **fields,
    }


def _memories(now: datetime = NOW) -> list[dict[str, Any]]:
    rows = []
    for user, agent, visibility, workspace, status, incorrect, expiry in itertools.product(
        USERS,
        AGENTS,
        ("private", "agent-only", "workspace-shared", "global"),
        WORKSPACES,
        ("active", "archived"),
        (False, True),
        (None, now - timedelta(days=1), now + timedelta(days=1)),
    ):
        if (visibility == "agent-only") != (agent is not None) or (visibility == "workspace-shared") != bool(workspace):
            continue
        rows.append(
            _row(
                len(rows),
                user_id=user,
                agent_id=agent,
                workspace_id=workspace,
                visibility=visibility,
                status=status,
                flags=["incorrect"] if incorrect else [],
                expires_at=expiry,
            )
        )
    return rows


STANDING = ReadScope()


def _may_read(p: Principal, m: dict[str, Any], scope: ReadScope = STANDING, now: datetime = NOW) -> bool:
    incorrect = "incorrect" in m["flags"]
    if m["status"] not in scope.statuses or (incorrect and not scope.include_incorrect):
        return False
    if scope.own_only and not p.is_admin and (m["status"] != "active" or incorrect) and m["user_id"] != p.user_id:
        return False  # what does not stand, only the owner's own (the admin reads what it may read in any state)
    if m["expires_at"] is not None and m["expires_at"] <= now:
        return False
    return {
        "private": m["user_id"] == p.user_id,
        "agent-only": m["user_id"] == p.user_id and p.agent_id is not None and m["agent_id"] == p.agent_id,
        "workspace-shared": m["workspace_id"] in p.workspace_ids,
        "global": True,
    }[m["visibility"]]


READERS = [
    Principal(user_id=user, agent_id=agent, workspace_ids=frozenset(ws))
    for user, agent, ws in itertools.product(USERS, AGENTS, ((), ("w1",), ("w1", "w2")))
]
# Every scope a read of memories asks for, beside the default one searches use.
SCOPES = (listing((MemoryStatus.ACTIVE, MemoryStatus.ARCHIVED)), OPENED, ReadScope(statuses=(MemoryStatus.ARCHIVED,)))


@pytest_asyncio.fixture(scope="module")
async def shard(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[EdgeIndex]:
    """Every kind of memory in one real embedded shard, which the tests below only read."""
    index = EdgeIndex(tmp_path_factory.mktemp("read-keys") / "shard", dim=4)
    await index.ensure()
    await index.upsert([index_point(m) for m in _memories()])
    yield index
    await index.close()


async def test_a_reader_finds_by_keys_exactly_what_the_rules_let_it_read(shard: EdgeIndex) -> None:
    memories = _memories()
    for p in READERS:
        expected = {m["id"] for m in memories if _may_read(p, m)}
        where = read_where(p, now=NOW)
        by_words = await shard.search(text="tea note", where=where, limit=len(memories))
        by_meaning = await shard.search(dense=[1.0, 0.0, 0.0, 0.0], where=where, limit=len(memories))
        assert {h.memory_id for h in by_words} == expected, p
        assert {h.memory_id for h in by_meaning} == expected, p
        assert expected  # every reader reads something (the global memories at least)


def test_only_a_standing_memory_has_a_key_and_no_two_ways_share_one() -> None:
    memories = _memories()
    standing = [m for m in memories if m["status"] == "active" and not m["flags"]]
    assert all(read_key(m) is None for m in memories if m not in standing)
    ways = {
        (m["visibility"], m["user_id"], m["agent_id"], m["workspace_id"], m["expires_at"] is not None): read_key(m)
        for m in standing
    }
    by_key: dict[str | None, set[tuple[Any, ...]]] = {}
    for (visibility, user, agent, workspace, expires), key in ways.items():
        # What the key names: the owner only for private/agent-only, the agent only for agent-only.
        named = (
            visibility,
            user if visibility in ("private", "agent-only") else None,
            agent if visibility == "agent-only" else None,
            workspace if visibility == "workspace-shared" else None,
            expires,
        )
        by_key.setdefault(key, set()).add(named)
    assert all(len(named) == 1 for named in by_key.values()), by_key


async def test_every_scope_finds_in_the_index_exactly_what_the_rules_let_it_read(shard: EdgeIndex) -> None:
    """Beyond the keys: a listing of the reader's own candidates or archived memories, a record opened by
    its id. What does not stand (not active, or marked incorrect) is found only by its owner."""
    memories = _memories()
    for scope, p in itertools.product(SCOPES, READERS):
        expected = {m["id"] for m in memories if _may_read(p, m, scope)}
        hits = await shard.search(text="tea note", where=read_where(p, scope, now=NOW), limit=len(memories))
        assert {h.memory_id for h in hits} == expected, (scope, p)
