"""The mem0 facade: mem0ai's own MemoryClient and Hermes' own mem0 provider, unmodified, each in an
environment of its own, against a running gateway; and the rules the facade keeps (a client never
reaches further than its key)."""

from __future__ import annotations

import uuid
from typing import Any

import pytest

from tests.clients import run_client
from tests.conftest import System


@pytest.fixture
async def alice(system: System) -> tuple[str, str]:
    uid = f"m0_{uuid.uuid4().hex[:8]}"
    return uid, await system.user(uid)


def token(key: str) -> dict[str, str]:
    return {"Authorization": f"Token {key}"}


async def test_mem0_shapes_and_the_keys_reach(system: System, alice: tuple[str, str]) -> None:
    uid, key = alice
    assert (await system.client.get("/mem0/v1/ping/", headers=token(key))).status_code == 200
    assert (await system.client.get("/mem0/v1/ping/", headers=token("mgw_wrong"))).status_code == 401
    body = {"messages": [{"role": "user", "content": "我决定用 Postgres 作为主库。"}], "user_id": uid, "version": "v2"}
    added = (await system.client.post("/mem0/v3/memories/add/", json=body, headers=token(key))).json()
    [first] = added["results"]
    assert (first["event"], first["memory"]) == ("ADD", "我决定用 Postgres 作为主库。")
    again = (await system.client.post("/mem0/v3/memories/add/", json=body, headers=token(key))).json()
    assert again["results"] == [{"id": first["id"], "memory": first["memory"], "event": "NONE"}]
    search = {"query": "主库用什么数据库", "filters": {"AND": [{"user_id": uid}]}, "top_k": 3}
    found = (await system.client.post("/mem0/v3/memories/search/", json=search, headers=token(key))).json()
    assert found["results"][0]["id"] == first["id"]
    assert "score" in found["results"][0]
    for refused, code in (
        ({"query": "x", "filters": {"user_id": "someone_else"}}, 403),
        ({"query": "x", "filters": {"OR": [{"user_id": uid}]}}, 400),
        ({"query": "x", "filters": {"created_at": {"gte": "2026-01-01"}}}, 400),
    ):
        answer = await system.client.post("/mem0/v3/memories/search/", json=refused, headers=token(key))
        assert answer.status_code == code, (refused, answer.text)
    foreign = {"messages": [{"role": "user", "content": "plant this"}], "user_id": "someone_else", "infer": False}
    assert (await system.client.post("/mem0/memories", json=foreign, headers={"X-API-Key": key})).status_code == 403


MEMORY_CLIENT = """
import json, os
from mem0 import MemoryClient

uid = os.environ["UID"]
c = MemoryClient(api_key=os.environ["KEY"], host=os.environ["HOST"])
added = c.add([{"role": "user", "content": "I moved to Berlin last month. I prefer green tea."}], user_id=uid)
raw = c.add("Remember the locker code is blue-seven.", user_id=uid, infer=False)
found = c.search("where does the user live", filters={"user_id": uid}, top_k=5)
listed = c.get_all(filters={"user_id": uid})
mid = [r for r in found["results"] if "Berlin" in r["memory"]][0]["id"]
got = c.get(mid)
updated = c.update(mid, text="I moved to Munich last month.")
history = c.history(mid)
try:
    c.search("anything", filters={"user_id": "someone_else"})
    widened = "answered"
except Exception as exc:
    widened = type(exc).__name__
c.delete(mid)
after = c.get_all(filters={"user_id": uid})
print(json.dumps({
    "added": added, "raw": raw, "found": found, "listed": listed, "got": got, "updated": updated,
    "history": history, "widened": widened, "after": after,
}))
"""


async def test_mem0ais_memory_client_works_unchanged(system: System, alice: tuple[str, str]) -> None:
    uid, key = alice
    out: dict[str, Any] = await run_client(
        "mem0ai", MEMORY_CLIENT, {"KEY": key, "HOST": f"{system.url}/mem0", "UID": uid}
    )
    assert {r["memory"] for r in out["added"]["results"]} >= {"I moved to Berlin last month."}
    assert [r["event"] for r in out["raw"]["results"]] == ["ADD"]
    assert any("Berlin" in r["memory"] for r in out["found"]["results"])
    assert all(r["user_id"] == uid for r in out["found"]["results"])
    assert out["listed"]["count"] == len(out["listed"]["results"]) >= 2
    assert out["got"]["memory"] == "I moved to Berlin last month."
    assert out["updated"]["memory"] == "I moved to Munich last month."
    assert [(h["event"], h["new_memory"]) for h in out["history"]] == [
        ("ADD", "I moved to Berlin last month."),
        ("UPDATE", "I moved to Munich last month."),
    ]
    assert out["widened"] != "answered"
    assert all("Munich" not in r["memory"] for r in out["after"]["results"])


HERMES_MEM0 = """
import json, os, tempfile, time
os.environ["HERMES_HOME"] = tempfile.mkdtemp()
from plugins.memory import load_memory_provider

provider = load_memory_provider("mem0")
available = provider.is_available()
provider.initialize("session-1", user_id="ignored-when-MEM0_USER_ID-is-set")
provider.sync_turn("I prefer dark roast coffee. I work at Acme Robotics.", "Noted, dark roast it is.")
provider._sync_thread.join(30)
stored = json.loads(provider.handle_tool_call("mem0_add", {"content": "My desk is on the third floor."}))
found = json.loads(provider.handle_tool_call("mem0_search", {"query": "what coffee does the user like"}))
context = ""
for _ in range(20):
    context = provider.prefetch("which coffee should I brew")
    if context:
        break
    time.sleep(0.25)
first = [r for r in found["results"] if "roast" in r["memory"]][0]["id"]
change = {"memory_id": first, "text": "I prefer light roast coffee."}
updated = json.loads(provider.handle_tool_call("mem0_update", change))
deleted = json.loads(provider.handle_tool_call("mem0_delete", {"memory_id": first}))
print(json.dumps({"available": available, "stored": stored, "found": found, "context": context, "first": first,
                  "updated": updated, "deleted": deleted}))
"""


async def test_hermes_mem0_provider_works_against_mem0_host(system: System, alice: tuple[str, str]) -> None:
    uid, _ = alice
    agent = f"hermes_{uid}"
    key = await system.agent(uid, agent)
    env = {
        "MEM0_HOST": f"{system.url}/mem0",
        "MEM0_API_KEY": key,
        "MEM0_USER_ID": uid,
        "MEM0_AGENT_ID": agent,
        "HERMES_DISABLE_LAZY_INSTALLS": "1",
    }
    out: dict[str, Any] = await run_client("hermes", HERMES_MEM0, env)
    assert out["available"] is True
    assert out["stored"]["result"] == "Fact stored."
    assert any("dark roast" in r["memory"] for r in out["found"]["results"])  # not hung on a rank
    assert "dark roast" in out["context"]
    assert out["updated"]["memory_id"] == out["first"]
    assert out["deleted"]["result"] == "Memory deleted."
    mine = await system.client.get("/v1/memory", params={"limit": 100}, headers=system.auth(key))
    contents = {m["content"]: m for m in mine.json()["items"] if m["user_id"] == uid}
    assert "My desk is on the third floor." in contents
    assert contents["My desk is on the third floor."]["agent_id"] == agent
    assert not any("roast" in c for c in contents)  # updated, then deleted
