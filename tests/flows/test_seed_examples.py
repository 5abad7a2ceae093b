"""Seed 004 §B and §D, followed step by step as a new user would, against ``memgw up`` (what
``./dev run`` starts) on a fresh data directory: every example request, sent as the seed writes it
(ids made unique for this run, the key of the user or agent it names as the principal), answers
with at least the fields, and the values, the seed shows."""

from __future__ import annotations

import json
import signal
import uuid
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from memgw.launcher.embedded.process import free_port
from tests.up_process import start_up, stop_up

pytestmark = [pytest.mark.slow, pytest.mark.timeout(300)]


class Up:
    """``memgw up`` as a client sees it: its URL, the admin key it printed once."""

    def __init__(self, client: httpx.AsyncClient, admin_key: str) -> None:
        self.client, self.admin_key = client, admin_key

    def auth(self, key: str | None = None) -> dict[str, str]:
        return {"Authorization": f"Bearer {key or self.admin_key}"}

    async def admin(self, method: str, path: str, **kwargs: Any) -> Any:
        response = await self.client.request(method, path, headers=self.auth(), **kwargs)
        assert response.status_code < 300, response.text
        return response.json()


@pytest.fixture
async def system(tmp_path: Path) -> AsyncIterator[Up]:
    proc, url, key = await start_up(tmp_path / "data", free_port())
    try:
        async with httpx.AsyncClient(base_url=url, timeout=60) as client:
            yield Up(client, key)
    finally:
        assert await stop_up(proc, signal.SIGINT) == 0


def _seed(text: str, s: str) -> Any:
    """A seed example with this run's ids (user_tom → user_tom_<s>, …)."""
    for name in ("user_tom", "agent_hermes_default", "ws_memory_gateway", "sess_001"):
        text = text.replace(name, f"{name}_{s}")
    return json.loads(text)


def _shows(answer: dict[str, Any], expected: dict[str, Any], *, ignore: tuple[str, ...] = ()) -> None:
    for key, value in expected.items():
        assert key in answer, (key, answer)
        if key not in ignore:
            assert answer[key] == value, (key, answer[key], value)


async def test_the_seed_examples_give_the_seed_answers(system: Up) -> None:
    s = uuid.uuid4().hex[:6]
    tom, agent, ws, sess = f"user_tom_{s}", f"agent_hermes_default_{s}", f"ws_memory_gateway_{s}", f"sess_001_{s}"
    admin = system.auth()

    # POST /v1/users, GET /v1/users/{user_id}
    created = await system.client.post(
        "/v1/users",
        json=_seed('{"user_id": "user_tom", "display_name": "Tom", "preferences": {"language": "zh-CN"}}', s),
        headers=admin,
    )
    assert created.status_code == 201, created.text
    answer = '{"id": "user_tom", "display_name": "Tom", "profile_namespace": "user/user_tom/profile"}'
    _shows(created.json(), {**_seed(answer, s), "status": "active"})
    assert {"created_at", "updated_at"} <= set(created.json())
    got = await system.client.get(f"/v1/users/{tom}", headers=admin)
    _shows(got.json(), _seed('{"id": "user_tom", "display_name": "Tom", "status": "active"}', s))

    # §B Agent and Workspace, in the seed's own field names
    made = await system.client.post(
        "/v1/agents",
        json=_seed(
            '{"id": "agent_hermes_default", "name": "Hermes Default Agent", "framework": "hermes",'
            ' "owner_user_id": "user_tom"}',
            s,
        ),
        headers=admin,
    )
    assert made.status_code == 201, made.text
    _shows(made.json(), {"id": agent, "owner_user_id": tom, "framework": "hermes"})
    assert {"created_at", "updated_at"} <= set(made.json())
    key = str((await system.admin("POST", "/v1/keys", json={"user_id": tom, "agent_id": agent}))["api_key"])
    h = system.auth(key)
    user_key = str((await system.admin("POST", "/v1/keys", json={"user_id": tom}))["api_key"])
    space = await system.client.post(
        "/v1/workspaces",
        json=_seed(
            '{"id": "ws_memory_gateway", "name": "Memory Gateway POC", "owner_user_id": "user_tom",'
            ' "member_user_ids": ["user_tom"], "allowed_agent_ids": ["agent_hermes_default"]}',
            s,
        ),
        headers=system.auth(user_key),
    )
    assert space.status_code == 201, space.text
    _shows(space.json(), {"id": ws, "owner_user_id": tom, "member_user_ids": [tom], "allowed_agent_ids": [agent]})
    assert {"created_at", "updated_at"} <= set(space.json())

    # POST /v1/memory, then the seed's search over user/…/long_term finds it
    written = await system.client.post(
        "/v1/memory",
        json=_seed(
            '{"user_id": "user_tom", "agent_id": "agent_hermes_default", "workspace_id": "ws_memory_gateway",'
            ' "memory_type": "preference", "content": "用户偏好中文输出。", "summary": "中文输出偏好",'
            ' "tags": ["preference"], "importance": 0.8, "confidence": 0.9, "visibility": "private",'
            ' "source": "manual"}',
            s,
        ),
        headers=h,
    )
    assert written.status_code == 201, written.text
    _shows(written.json(), {"id": None, "namespace": f"user/{tom}/long_term", "version": 1}, ignore=("id",))
    mem = written.json()["id"]
    found = await system.client.post(
        "/v1/memory/search",
        json=_seed(
            '{"user_id": "user_tom", "agent_id": "agent_hermes_default", "workspace_id": "ws_memory_gateway",'
            ' "query": "中文输出偏好", "namespaces": ["user/user_tom/long_term"], "limit": 5}',
            s,
        ),
        headers=h,
    )
    assert found.status_code == 200, found.text
    assert found.json()["total"] >= 1
    top = found.json()["results"][0]
    _shows(top["memory"], {"id": mem, "namespace": f"user/{tom}/long_term", "summary": "中文输出偏好"})
    assert isinstance(top["score"], float)

    # GET /v1/memory/{id}?user_id=…, PATCH, feedback
    got = await system.client.get(f"/v1/memory/{mem}?user_id={tom}&agent_id={agent}&workspace_id={ws}", headers=h)
    _shows(got.json(), {"id": mem, "content": "用户偏好中文输出。", "visibility": "private"})
    patched = await system.client.patch(
        f"/v1/memory/{mem}", json={"summary": "用户偏好中文、结构化、少废话。", "importance": 0.9}, headers=h
    )
    _shows(patched.json(), {"id": mem, "version": 2, "importance": 0.9})

    # POST /v1/episodes (three, as the commit's answer counts), POST /v1/sessions/{id}/commit
    episodes = [
        "本轮完成了 namespace 和 ACL 设计。",
        "我们决定使用 Postgres 作为唯一的事实来源。",
        "用户偏好简洁的中文回答。",
    ]
    for content in episodes:
        episode = await system.client.post(
            "/v1/episodes",
            json=_seed(
                '{"user_id": "user_tom", "agent_id": "agent_hermes_default", "workspace_id": "ws_memory_gateway",'
                f' "session_id": "sess_001", "content": "{content}", "tags": ["design"]}}',
                s,
            ),
            headers=h,
        )
        assert episode.status_code == 201, episode.text
        _shows(episode.json(), {"namespace": f"session/{sess}/episodic", "user_id": tom, "agent_id": agent})
    committed = await system.client.post(
        f"/v1/sessions/{sess}/commit?wait=true",
        json=_seed(
            '{"user_id": "user_tom", "agent_id": "agent_hermes_default", "workspace_id": "ws_memory_gateway",'
            ' "promote": true, "min_importance": 0.6, "target_namespace": "user/user_tom/long_term"}',
            s,
        ),
        headers=h,
    )
    assert committed.status_code == 200, committed.text
    _shows(committed.json(), {"session_id": sess, "episodes": 3})
    listed = (await system.client.get(f"/v1/sessions/{sess}/episodes", headers=h)).json()
    assert [e["summary"] for e in listed] == episodes  # the summarize step: each one's lead sentence
    promoted = committed.json()["promoted"]
    assert promoted
    assert all(p["id"].startswith("mem_") and p["namespace"] == f"user/{tom}/long_term" for p in promoted)

    # GET /v1/users/{id}/profile
    profile = await system.client.get(f"/v1/users/{tom}/profile", headers=h)
    _shows(profile.json(), {"user_id": tom, "namespace": f"user/{tom}/profile"})
    assert profile.json()["preferences"]["language"] == "zh-CN"

    feedback = await system.client.post(
        f"/v1/memory/{mem}/feedback",
        json=_seed(
            '{"user_id": "user_tom", "feedback": "incorrect", "comment": "这是一次临时偏好，不应长期保留。"}', s
        ),
        headers=h,
    )
    _shows(feedback.json(), {"status": "ok", "memory_id": mem, "feedback": "incorrect"})

    # GET /v1/namespaces?…
    spaces = await system.client.get(
        f"/v1/namespaces?user_id={tom}&agent_id={agent}&workspace_id={ws}&session_id={sess}", headers=h
    )
    listed = {n["namespace"]: n["visibility"] for n in spaces.json()}
    assert listed[f"user/{tom}/profile"] == "private"
    assert listed[f"agent/{agent}/memory"] == "agent-only"
    assert listed[f"workspace/{ws}/shared"] == "workspace-shared"

    # GET /v1/audit, with the seed's action name
    audit = await system.client.get("/v1/audit?action=upsert_memory", headers=system.auth(user_key))
    rows = audit.json()["items"]
    assert any(r["target_id"] == mem for r in rows)
    _shows(rows[0], {"action": "memory_upsert", "target_type": "memory", "decision": "allow"})

    # DELETE /v1/memory/{id}
    deleted = await system.client.delete(f"/v1/memory/{mem}", headers=h)
    _shows(deleted.json(), {"deleted": True, "id": mem})
