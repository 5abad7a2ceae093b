"""POST /v1/memory/batch: up to 100 records, each checked as a single write would be, the accepted
embedded in one batch and stored in one transaction, one answer per record in order."""

from __future__ import annotations

import uuid
from typing import Any

import numpy as np
import pytest

from memgw.common.memories import vector_of
from tests.conftest import System


@pytest.fixture
async def key(system: System) -> tuple[str, str]:
    uid = f"batch_{uuid.uuid4().hex[:8]}"
    return uid, await system.user(uid)


async def test_a_batch_stores_what_may_be_stored_and_answers_each_record(
    system: System, key: tuple[str, str], passages_embedded: list[str]
) -> None:
    uid, k = key
    tag = uuid.uuid4().hex[:6]
    records: list[dict[str, Any]] = [
        {"content": f"用户偏好中文输出 {tag}。"},
        {"content": f"refused {tag}", "namespace": "user/someone_else/long_term"},
        {"content": f"We decided to use Postgres {tag}.", "tags": ["db"]},
        {"content": f"for another user {tag}", "user_id": "someone_else"},
    ]
    answer = await system.client.post("/v1/memory/batch", json={"memories": records}, headers=system.auth(k))
    assert answer.status_code == 200, answer.text
    body = answer.json()
    assert (body["created"], body["failed"]) == (2, 2)
    assert [r["index"] for r in body["results"]] == [0, 1, 2, 3]
    assert [r["status"] for r in body["results"]] == [201, 403, 201, 403]
    assert body["results"][1]["error"]
    first = body["results"][0]
    assert first["uri"] == f"viking://memory/{first['namespace']}/{first['id']}"
    mine = [t for t in passages_embedded if tag in t]
    assert sorted(mine) == sorted([records[0]["content"], records[2]["content"]])  # refused ones never embedded
    stored = await system.client.get(f"/v1/memory/{body['results'][2]['id']}", headers=system.auth(k))
    assert (stored.json()["memory_type"], stored.json()["tags"]) == ("decision", ["db"])
    hits = await system.client.post("/v1/memory/search", json={"query": f"Postgres {tag}"}, headers=system.auth(k))
    assert body["results"][2]["id"] in {h["memory"]["id"] for h in hits.json()["results"]}
    audit = (await system.admin("GET", "/v1/audit", params={"actor": uid, "limit": 100}))["items"]
    assert {a["target_id"] for a in audit if a["action"] == "memory_upsert" and a["decision"] == "allow"} >= {
        body["results"][0]["id"],
        body["results"][2]["id"],
    }


@pytest.mark.parametrize(("count", "status"), [(0, 422), (100, 200), (101, 422)])
async def test_a_batch_holds_one_to_a_hundred_records(
    system: System, key: tuple[str, str], count: int, status: int
) -> None:
    _, k = key
    records = [{"content": f"note {n} {uuid.uuid4().hex[:4]}"} for n in range(count)]
    answer = await system.client.post("/v1/memory/batch", json={"memories": records}, headers=system.auth(k))
    assert answer.status_code == status, answer.text
    if status == 200:
        assert answer.json()["created"] == count


async def test_a_memory_of_a_session_is_embedded_with_the_turn_before_it(system: System, key: tuple[str, str]) -> None:
    """ "Yes, in May!" means nothing alone: it is embedded with the end of what was said before it in
    its session (within the batch, and across requests); its content stays as written."""
    _, k = key
    session = f"s_{uuid.uuid4().hex[:8]}"
    said = ["When is your sister's wedding? Is it in spring?", "Yes, in May!", "We booked the hall already."]
    first = await system.client.post(
        "/v1/memory/batch",
        json={"memories": [{"content": t, "session_id": session} for t in said[:2]]},
        headers=system.auth(k),
    )
    third = await system.client.post(
        "/v1/memory", json={"content": said[2], "session_id": session}, headers=system.auth(k)
    )
    ids = [r["id"] for r in first.json()["results"]] + [third.json()["id"]]
    rows = {
        r["id"]: r
        for r in await system.infra.pool.fetch("SELECT id, content, embedding FROM memories WHERE id = ANY($1)", ids)
    }
    embed = system.infra.embedder.embed_passages
    limit = system.infra.settings.ranking.rank_context_chars
    for n in (1, 2):
        stored = vector_of(rows[ids[n]]["embedding"])
        assert rows[ids[n]]["content"] == said[n]
        [in_context, alone] = await embed([f"{said[n - 1][-limit:]}\n{said[n]}", said[n]])
        assert _cos(stored, in_context) > 0.99
        assert _cos(stored, in_context) > _cos(stored, alone)
    [plain] = await embed([said[0]])  # the first of a session has nothing before it
    assert _cos(vector_of(rows[ids[0]]["embedding"]), plain) > 0.99


def _cos(a: Any, b: Any) -> float:
    a, b = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
    return float(a @ b / (np.linalg.norm(a) * np.linalg.norm(b)))


async def test_what_an_agent_only_memory_says_never_shapes_a_private_ones_embedding(
    system: System, key: tuple[str, str]
) -> None:
    uid, k = key
    agent_key = await system.agent(uid, f"a_{uuid.uuid4().hex[:6]}")
    session = f"s_{uuid.uuid4().hex[:8]}"
    secret = "The launch code for project Heron is kept in the blue binder."
    await system.client.post(
        "/v1/memory",
        json={"content": secret, "session_id": session, "visibility": "agent-only"},
        headers=system.auth(agent_key),
    )
    said = "Yes, that one."
    made = await system.client.post("/v1/memory", json={"content": said, "session_id": session}, headers=system.auth(k))
    stored = vector_of(
        await system.infra.pool.fetchval("SELECT embedding FROM memories WHERE id = $1", made.json()["id"])
    )
    [alone] = await system.infra.embedder.embed_passages([said])
    assert _cos(stored, alone) > 0.99


async def test_the_turns_around_a_strong_hit_join_the_candidates(
    system: System, key: tuple[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    _, k = key
    monkeypatch.setattr(system.infra.settings.ranking, "rank_neighbour_anchors", 3)
    tag = uuid.uuid4().hex[:6]
    session = f"s_{uuid.uuid4().hex[:8]}"
    said = [f"What is the name of your dog{tag}?", "Bailey.", "He loves running on the beach.", "Unrelated."]
    made = await system.client.post(
        "/v1/memory/batch",
        json={"memories": [{"content": t, "session_id": session} for t in said]},
        headers=system.auth(k),
    )
    ids = [r["id"] for r in made.json()["results"]]
    found = await system.client.post(
        "/v1/memory/search",
        json={"query": f"name of the dog{tag}", "limit": 10, "mode": "sparse", "explain": True},
        headers=system.auth(k),
    )
    hits = {h["memory"]["id"]: h for h in found.json()["results"]}
    assert ids[0] in hits
    assert "neighbour_rank" in hits[ids[1]]["explain"]  # the answer, found through its question
