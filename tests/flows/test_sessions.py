"""Sessions and episodes: short-term, never long-term by themselves, gone when the session expires;
a commit hands them to the consolidator with a job that can be followed."""

from __future__ import annotations

import asyncio
import json
import uuid
from datetime import UTC, datetime
from typing import Any

import nats
import pytest

from memgw.common.events import Subject
from memgw.consolidator.main import maintenance_for
from tests.conftest import System


@pytest.fixture
async def user(system: System) -> tuple[str, str]:
    uid = f"sess_{uuid.uuid4().hex[:8]}"
    return uid, await system.user(uid)


async def test_episodes_open_their_session_and_never_show_up_as_long_term(
    system: System, user: tuple[str, str]
) -> None:
    uid, key = user
    h = system.auth(key)
    sid = f"s_{uuid.uuid4().hex[:8]}"
    for text in ("本轮讨论了 Memory Gateway POC 范围。", "We agreed to ship the isolation tests first."):
        answer = await system.client.post("/v1/episodes", json={"session_id": sid, "content": text}, headers=h)
        assert answer.status_code == 201
        assert answer.json()["namespace"] == f"session/{sid}/episodic"
    episodes = (await system.client.get(f"/v1/sessions/{sid}/episodes", headers=h)).json()
    assert len(episodes) == 2
    session = (await system.client.get(f"/v1/sessions/{sid}", headers=h)).json()
    assert session["user_id"] == uid
    found = await system.client.post("/v1/memory/search", json={"query": "Memory Gateway POC 范围"}, headers=h)
    assert all(not hit["memory"]["namespace"].startswith("session/") for hit in found.json()["results"])
    listed = await system.client.get("/v1/memory", params={"limit": 100}, headers=h)
    assert {m["namespace"] for m in listed.json()["items"]} <= {"global/public"}  # nothing of the session
    namespaces = (await system.client.get("/v1/namespaces", headers=h)).json()
    assert f"session/{sid}/episodic" in {n["namespace"] for n in namespaces}


async def test_expired_episodes_are_not_retrievable_and_are_purged_with_audit_kept(
    system: System, user: tuple[str, str]
) -> None:
    _, key = user
    h = system.auth(key)
    sid = f"s_{uuid.uuid4().hex[:8]}"
    await system.client.post("/v1/sessions", json={"session_id": sid, "ttl_seconds": 60}, headers=h)
    episode = (await system.client.post("/v1/episodes", json={"session_id": sid, "content": "临时"}, headers=h)).json()
    pool = system.infra.pool
    await pool.execute("UPDATE sessions SET expires_at = now() - interval '1 second' WHERE id = $1", sid)
    await pool.execute("UPDATE episodes SET expires_at = now() - interval '1 second' WHERE session_id = $1", sid)

    assert (await system.client.get(f"/v1/sessions/{sid}/episodes", headers=h)).status_code == 404
    plan = await maintenance_for(system.infra).run(datetime.now(UTC))

    assert plan.purged_episodes >= 1
    assert await pool.fetchval("SELECT count(*) FROM episodes WHERE session_id = $1", sid) == 0
    assert await pool.fetchval("SELECT status FROM sessions WHERE id = $1", sid) == "expired"
    kept = await pool.fetchval("SELECT count(*) FROM audit_log WHERE target_id = $1", episode["id"])
    assert await pool.fetchval("SELECT count(*) FROM audit_log WHERE action = 'purge_episodes'") >= 1
    assert kept == 1


async def test_a_commit_publishes_session_committed_and_answers_with_a_job(
    system: System, user: tuple[str, str]
) -> None:
    uid, key = user
    h = system.auth(key)
    sid = f"s_{uuid.uuid4().hex[:8]}"
    received: list[dict[str, Any]] = []
    nc = await nats.connect(system.infra.nats_url)

    async def on_msg(msg: Any) -> None:
        received.append(json.loads(msg.data))

    await nc.subscribe(system.infra.layout.subject(Subject.SESSION_COMMITTED), cb=on_msg)
    try:
        empty = await system.client.post(f"/v1/sessions/{sid}/commit", json={}, headers=h)
        assert empty.status_code == 404
        await system.client.post("/v1/episodes", json={"session_id": sid, "content": "决定先做隔离测试"}, headers=h)
        refused = await system.client.post(
            f"/v1/sessions/{sid}/commit", json={"target_namespace": "user/someone_else/long_term"}, headers=h
        )
        assert refused.status_code == 403
        answer = await system.client.post(
            f"/v1/sessions/{sid}/commit",
            json={"promote": True, "min_importance": 0.6, "target_namespace": f"user/{uid}/long_term"},
            headers=h,
        )
        assert answer.status_code == 202
        body = answer.json()
        assert body["episodes"] == 1
        assert answer.headers["location"] == f"/v1/jobs/{body['job_id']}"
        async with asyncio.timeout(10):
            while not any(e["job_id"] == body["job_id"] for e in received):
                await asyncio.sleep(0.05)
        event = next(e for e in received if e["job_id"] == body["job_id"])
        assert event["type"] == "SessionCommitted"
        assert event["session_id"] == sid
        assert event["target_namespace"] == f"user/{uid}/long_term"
        job = (await system.client.get(body["job"], headers=h)).json()
        assert job["id"] == body["job_id"]
        assert job["kind"] == "consolidate_session"
        assert job["state"] in ("queued", "running", "done")
    finally:
        await nc.close()


async def test_another_users_session_and_profile_are_refused(system: System, user: tuple[str, str]) -> None:
    uid, key = user
    other = await system.user(f"other_{uuid.uuid4().hex[:8]}")
    sid = f"s_{uuid.uuid4().hex[:8]}"
    await system.client.post("/v1/episodes", json={"session_id": sid, "content": "mine"}, headers=system.auth(key))
    intrude = await system.client.post(
        "/v1/episodes", json={"session_id": sid, "content": "not yours"}, headers=system.auth(other)
    )
    assert intrude.status_code == 201  # a session id is its user's: this is the other user's own session
    assert intrude.json()["user_id"] != uid
    mine = await system.client.get(f"/v1/sessions/{sid}/episodes", headers=system.auth(key))
    assert [e["content"] for e in mine.json()] == ["mine"]
    assert (await system.client.get(f"/v1/users/{uid}/profile", headers=system.auth(other))).status_code == 403
    own = (await system.client.get(f"/v1/users/{uid}/profile", headers=system.auth(key))).json()
    assert own["namespace"] == f"user/{uid}/profile"
