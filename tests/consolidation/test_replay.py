"""Exactly-once consolidation: a commit replayed after a crash gives the same memories, evidence and
job result as one never interrupted; a session is committed once."""

from __future__ import annotations

import uuid
from typing import Any

import pytest

from memgw.common import jobs
from memgw.common.domain import new_id
from memgw.common.events import SessionCommitted
from memgw.consolidator.main import consolidator_for
from memgw.consolidator.service import Consolidator
from tests.conftest import System

SAID = [
    "我们决定用 Postgres 做主库。",
    "我们决定用 Postgres 做主库。",
    "We decided to use NATS for the bus.",
    "I prefer green tea.",
]


class Crash(Exception):
    pass


async def _session(system: System) -> tuple[str, str, str]:
    uid = f"rp_{uuid.uuid4().hex[:8]}"
    key = await system.user(uid)
    sid = f"s_{uuid.uuid4().hex[:8]}"
    for text in SAID:
        answer = await system.client.post(
            "/v1/episodes", json={"session_id": sid, "content": text}, headers=system.auth(key)
        )
        assert answer.status_code == 201
    return uid, key, sid


async def _run(consolidator: Consolidator, system: System, uid: str, sid: str, job_id: str) -> Any:
    return await consolidator.on_session_committed(SessionCommitted(job_id=job_id, session_id=sid, user_id=uid))


async def _state(system: System, uid: str) -> list[tuple[str, int, str]]:
    rows = await system.infra.pool.fetch(
        "SELECT content, evidence_count, status FROM memories WHERE user_id = $1 ORDER BY content", uid
    )
    return [(r["content"], r["evidence_count"], r["status"]) for r in rows]


async def test_a_commit_replayed_after_a_crash_ends_as_an_uninterrupted_one(
    system: System, monkeypatch: pytest.MonkeyPatch
) -> None:
    consolidator = consolidator_for(system.infra)
    calm_uid, _, calm_sid = await _session(system)
    calm_job = new_id("job")
    await jobs.create(system.infra.pool, calm_job, kind="consolidate_session", user_id=calm_uid, subject_id=calm_sid)
    await _run(consolidator, system, calm_uid, calm_sid, calm_job)

    uid, _, sid = await _session(system)
    job_id = new_id("job")
    await jobs.create(system.infra.pool, job_id, kind="consolidate_session", user_id=uid, subject_id=sid)
    real = Consolidator._consider

    async def dies_at_the_third(self: Consolidator, *args: Any) -> None:
        if args[-1] == 2:  # the step: a crash after two candidates were applied
            raise Crash
        await real(self, *args)

    monkeypatch.setattr(Consolidator, "_consider", dies_at_the_third)
    with pytest.raises(Crash):
        await _run(consolidator, system, uid, sid, job_id)
    monkeypatch.setattr(Consolidator, "_consider", real)
    await _run(consolidator, system, uid, sid, job_id)  # the redelivery

    calm, replayed = await jobs.get(system.infra.pool, calm_job), await jobs.get(system.infra.pool, job_id)
    assert replayed["state"] == calm["state"] == "done"
    assert replayed["detail"] == calm["detail"]
    assert [len(replayed["result"][k]) for k in ("promoted", "merged")] == [
        len(calm["result"][k]) for k in ("promoted", "merged")
    ]
    assert await _state(system, uid) == await _state(system, calm_uid)
    assert max(evidence for _, evidence, _ in await _state(system, uid)) == 2  # the repeated sentence, once more


async def test_a_session_is_committed_once(system: System) -> None:
    _, key, sid = await _session(system)
    auth = system.auth(key)
    first = await system.client.post(f"/v1/sessions/{sid}/commit", json={}, headers=auth)
    assert first.status_code == 202
    again = await system.client.post(f"/v1/sessions/{sid}/commit", json={}, headers=auth)
    assert again.status_code == 409
    await system.client.post("/v1/episodes", json={"session_id": sid, "content": "And we chose Rust."}, headers=auth)
    later = await system.client.post(f"/v1/sessions/{sid}/commit", json={}, headers=auth)
    assert later.status_code == 202
    assert later.json()["episodes"] == 1  # only what came after the first commit


async def test_a_commit_that_keeps_failing_says_so_and_its_dead_letter_takes_it_up_again(
    system: System, monkeypatch: pytest.MonkeyPatch
) -> None:
    import asyncio

    import nats

    from memgw.common.bus import dead_letters, replay

    uid, key, sid = await _session(system)
    real = Consolidator.on_session_committed

    async def broken(self: Consolidator, event: SessionCommitted) -> Any:
        if event.session_id == sid:
            raise RuntimeError("the extraction endpoint is down")
        return await real(self, event)

    monkeypatch.setattr(Consolidator, "on_session_committed", broken)
    job_url = (await system.client.post(f"/v1/sessions/{sid}/commit", json={}, headers=system.auth(key))).json()["job"]

    async def job() -> dict[str, Any]:
        return dict((await system.client.get(job_url, headers=system.auth(key))).json())

    async with asyncio.timeout(90):  # every delivery fails, with backoff; the last one gives up
        while (state := await job())["state"] != "failed":
            await asyncio.sleep(0.2)
    assert state["detail"].startswith("gave up: the extraction endpoint is down")
    monkeypatch.setattr(Consolidator, "on_session_committed", real)
    nc = await nats.connect(system.infra.nats_url)
    try:
        async with asyncio.timeout(20):
            while not (mine := [d for d in await dead_letters(nc, system.infra.layout) if sid.encode() in d.data]):
                await asyncio.sleep(0.2)
        await replay(nc, system.infra.layout, mine[0].seq)
    finally:
        await nc.close()
    async with asyncio.timeout(30):
        while (state := await job())["state"] != "done":
            await asyncio.sleep(0.2)
    assert uid in {
        r["user_id"] for r in await system.infra.pool.fetch("SELECT user_id FROM memories WHERE user_id = $1", uid)
    }
