"""A search keeps what it found fresh (decay counts from the last time a memory was found), written off
the search's path: the marks of many searches go to Postgres together, and none is lost at shutdown."""

from __future__ import annotations

import asyncio
import uuid

from memgw.common.db.write_behind import WriteBehind
from tests.conftest import System


async def _last_retrieved(system: System, ids: list[str]) -> dict[str, object]:
    rows = await system.infra.pool.fetch("SELECT id, last_retrieved_at FROM memories WHERE id = ANY($1)", ids)
    return {r["id"]: r["last_retrieved_at"] for r in rows}


async def test_what_a_search_finds_is_marked_retrieved_and_what_it_does_not_find_is_not(system: System) -> None:
    uid = f"marks_{uuid.uuid4().hex[:8]}"
    key = await system.user(uid)
    made = []
    for text in ("The kettle in the office is broken.", "周末去爬山，天气很好。"):
        r = await system.client.post("/v1/memory", json={"content": text}, headers=system.auth(key))
        assert r.status_code == 201, r.text
        made.append(r.json()["id"])
    found = await system.client.post(
        "/v1/memory/search",
        json={"query": "kettle broken office", "limit": 1, "mode": "sparse"},
        headers=system.auth(key),
    )
    assert [h["memory"]["id"] for h in found.json()["results"]] == [made[0]]
    marks: dict[str, object] = {}
    for _ in range(100):  # written within the batching window (0.2 s), so well within 10 s
        marks = await _last_retrieved(system, made)
        if marks[made[0]] is not None:
            break
        await asyncio.sleep(0.1)
    assert marks[made[0]] is not None
    assert marks[made[1]] is None


async def test_marks_noted_apart_are_written_together_and_a_flush_writes_what_is_still_noted(system: System) -> None:
    uid = f"marks_{uuid.uuid4().hex[:8]}"
    key = await system.user(uid)
    ids = []
    for text in ("first thing", "second thing", "third thing"):
        r = await system.client.post("/v1/memory", json={"content": text}, headers=system.auth(key))
        ids.append(r.json()["id"])
    store = system.infra.store
    marks = WriteBehind[str](store.mark_retrieved, name="test-marks", delay_s=3600)  # nothing before a flush
    marks.note(ids[:1])
    marks.note(ids[1:2])
    await asyncio.sleep(0.05)
    assert set((await _last_retrieved(system, ids)).values()) == {None}
    await marks.flush()
    after = await _last_retrieved(system, ids)
    assert after[ids[0]] is not None
    assert after[ids[0]] == after[ids[1]]  # one statement, one now()
    assert after[ids[2]] is None
