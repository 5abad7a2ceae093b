"""Writing many memories in a few statements, on real Postgres: each record as written one by one
would be (its fields, its version, its event, in the order given)."""

from __future__ import annotations

import dataclasses
import uuid
from datetime import UTC, datetime, timedelta
from typing import Any, cast

import asyncpg
import numpy as np
import pytest

from memgw.common.bus import BusLayout
from memgw.common.memories import MemoryStore, NewMemory, vector_bytes, vector_of, vectors_of


def _new(n: int, **changes: Any) -> NewMemory:
    memory = NewMemory(
        id=f"mem_{n}",
        user_id="u",
        namespace="user/u/long_term",
        memory_type="fact",
        content=f"第{n}条 memory number {n}",
        visibility="private",
        embedding=[n / 10, -n / 10, 0.5, 0.25],
        embedding_model="m",
        tags=["中文", f"t{n}"] if n else [],
        metadata={"n": n, "nested": {"list": [n]}} if n else None,
        expires_at=datetime(2030, 1, n or 1, tzinfo=UTC) if n == 2 else None,
        source_scope="slack:#eng" if n == 1 else None,
    )
    return dataclasses.replace(memory, **changes)


async def test_a_batch_keeps_each_records_fields_version_and_event_in_the_order_given(own_pool: asyncpg.Pool) -> None:
    store = MemoryStore(own_pool, cast(Any, None), BusLayout("t" + uuid.uuid4().hex[:6]))  # no index is touched
    news = [_new(n) for n in (2, 0, 1)]  # not in id order: the order given is what counts
    async with own_pool.acquire() as conn, conn.transaction():
        records = await store.insert_many(conn, news, actor="u")

    assert [r.id for r in records] == ["mem_2", "mem_0", "mem_1"]
    assert [r.tags for r in records] == [["中文", "t2"], [], ["中文", "t1"]]
    assert [r.metadata for r in records] == [{"n": 2, "nested": {"list": [2]}}, {}, {"n": 1, "nested": {"list": [1]}}]
    assert [r.expires_at for r in records] == [datetime(2030, 1, 2, tzinfo=UTC), None, None]
    assert [r.version for r in records] == [1, 1, 1]
    assert records[0].created_at < records[1].created_at < records[2].created_at
    rows = {r["id"]: r for r in await own_pool.fetch("SELECT id, embedding, source_scope FROM memories")}
    assert rows["mem_1"]["source_scope"] == "slack:#eng"
    assert rows["mem_0"]["source_scope"] is None
    for new in news:  # the vector comes back bit for bit
        assert np.array_equal(vector_of(rows[new.id]["embedding"]), np.asarray(new.embedding, dtype=np.float32))
    versions = await own_pool.fetch("SELECT memory_id, version, change, changed_by FROM memory_versions ORDER BY 1")
    assert [tuple(v) for v in versions] == [(f"mem_{n}", 1, "created", "u") for n in range(3)]
    events = await own_pool.fetch("SELECT msg_id, payload FROM outbox ORDER BY id")
    assert [(e["payload"]["memory_id"], e["payload"]["change"]) for e in events] == [
        ("mem_2", "created"),
        ("mem_0", "created"),
        ("mem_1", "created"),
    ]
    assert len({e["msg_id"] for e in events}) == 3

    again = _new(1, content="第1条 changed", expires_at=datetime.now(UTC) + timedelta(days=1))
    async with own_pool.acquire() as conn, conn.transaction():
        [updated] = await store.insert_many(conn, [again], actor="v")
    assert (updated.content, updated.version) == ("第1条 changed", 2)
    assert updated.expires_at is None  # an overwrite takes the text, tags and vector; not the expiry
    last = await own_pool.fetchrow(
        "SELECT change, changed_by FROM memory_versions WHERE memory_id = 'mem_1' AND version = 2"
    )
    assert tuple(last) == ("updated", "v")
    event = await own_pool.fetchrow("SELECT payload FROM outbox ORDER BY id DESC LIMIT 1")
    assert (event["payload"]["memory_id"], event["payload"]["change"], event["payload"]["version"]) == (
        "mem_1",
        "updated",
        2,
    )


async def test_one_batch_cannot_name_a_memory_twice(own_pool: asyncpg.Pool) -> None:
    store = MemoryStore(own_pool, cast(Any, None), BusLayout("t" + uuid.uuid4().hex[:6]))
    async with own_pool.acquire() as conn, conn.transaction():
        with pytest.raises(ValueError, match="ids must differ"):
            await store.insert_many(conn, [_new(1), _new(1, content="twice")], actor="u")
        assert await store.insert_many(conn, [], actor="u") == []
    assert await own_pool.fetchval("SELECT count(*) FROM memories") == 0


@pytest.mark.unit
def test_vectors_are_read_back_as_written_in_one_step_or_one_by_one() -> None:
    """A search's candidates are converted in one step; embeddings of two lengths (a model changed and not
    every memory re-embedded yet) one by one — each the vector it was, either way."""
    rng = np.random.default_rng(3)
    same = [rng.normal(size=8).astype(np.float32) for _ in range(5)]
    mixed = [*same[:2], rng.normal(size=4).astype(np.float32)]
    for vectors in (same, mixed, []):
        read = vectors_of([vector_bytes(v) for v in vectors])
        assert len(read) == len(vectors)
        assert all(np.array_equal(r, v) and r.dtype == np.float32 for r, v in zip(read, vectors, strict=True))
