"""Ranking: a convex combination of dense and BM25 scores, blended with importance, confidence, recency and feedback;
near-duplicates collapse; explain shows the parts."""

from __future__ import annotations

import uuid

import pytest

from tests.conftest import System


@pytest.fixture
async def key(system: System) -> str:
    return await system.user(f"rank_{uuid.uuid4().hex[:8]}")


async def _add(system: System, key: str, content: str, **extra: object) -> str:
    r = await system.client.post("/v1/memory", json={"content": content, **extra}, headers=system.auth(key))
    return str(r.json()["id"])


async def _search(system: System, key: str, query: str, **extra: object) -> list[dict]:
    body = {"query": query, "limit": 10, **extra}
    return list((await system.client.post("/v1/memory/search", json=body, headers=system.auth(key))).json()["results"])


async def test_one_fact_stored_ten_times_fills_one_slot(system: System, key: str) -> None:
    ids = [await _add(system, key, "The staging database runs on port 5433.") for _ in range(10)]
    other = await _add(system, key, "The production database runs on port 5432 behind pgbouncer.")
    hits = await _search(system, key, "which port does the staging database use")
    staging = [h for h in hits if h["memory"]["id"] in ids]
    assert len(staging) == 1
    assert sorted([staging[0]["memory"]["id"], *staging[0]["duplicates"]]) == sorted(ids)
    assert other in [h["memory"]["id"] for h in hits]


async def test_explain_returns_each_component_and_the_blend_follows_importance(system: System, key: str) -> None:
    low = await _add(system, key, "项目代号是 Aurora，低优先级备注。", importance=0.1)
    high = await _add(system, key, "项目代号是 Aurora，重要决定。", importance=0.95)
    hits = await _search(system, key, "项目代号 Aurora", explain=True)
    order = [h["memory"]["id"] for h in hits]
    assert order.index(high) < order.index(low)
    parts = hits[0]["explain"]
    wanted = {"fused", "dense_rank", "bm25_rank", "importance", "confidence", "recency", "feedback", "final"}
    assert wanted <= set(parts)
    assert parts["final"] == pytest.approx(hits[0]["score"], rel=1e-6)
    plain = await _search(system, key, "项目代号 Aurora")
    assert plain[0]["explain"] is None


async def test_useful_lifts_and_outdated_lowers_at_once(system: System, key: str) -> None:
    a = await _add(system, key, "Deploys happen on Tuesdays via the blue pipeline.")
    b = await _add(system, key, "Deploys happen on Thursdays via the green pipeline.")
    h = system.auth(key)
    await system.client.post(f"/v1/memory/{a}/feedback", json={"feedback": "outdated"}, headers=h)
    await system.client.post(f"/v1/memory/{b}/feedback", json={"feedback": "useful"}, headers=h)
    hits = await _search(system, key, "when do deploys happen", explain=True)
    assert hits[0]["memory"]["id"] == b
    assert hits[0]["explain"]["feedback"] == 1.2
    lower = [x for x in hits if x["memory"]["id"] == a]  # unless the consolidator archived it already
    assert not lower or lower[0]["explain"]["feedback"] == 0.5


async def test_mixed_language_queries_find_both_languages(system: System, key: str) -> None:
    zh = await _add(system, key, "用户每天早上喝绿茶。")
    en = await _add(system, key, "The user runs 5 km every evening.")
    for query, expected in (("早上喝什么 tea", zh), ("晚上跑步 how many km", en)):
        hits = await _search(system, key, query)
        assert hits[0]["memory"]["id"] == expected, query
