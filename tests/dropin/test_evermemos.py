"""The EverMemOS v0 facade, driven by the unmodified ``evermemos`` SDK in an environment of its own:
messages become episodes, a flush is a commit the consolidator extracts from, and what it extracts
is fetched and searched in EverMemOS's shapes, never past the key's own user."""

from __future__ import annotations

import uuid
from typing import Any

from tests.clients import run_client
from tests.conftest import System

EVERMEMOS = """
import json, os, time
from datetime import datetime, timezone
from evermemos import EverMemOS

uid = os.environ["UID"]
client = EverMemOS(api_key=os.environ["KEY"], base_url=os.environ["BASE"])
memories = client.v0.memories
now = datetime.now(timezone.utc).isoformat()
said = "I moved to Lisbon last year."
first = memories.add(group_id="trip", group_name="Trip", message_id="m1", create_time=now, sender=uid, content=said)
memories.add(group_id="trip", message_id="m1", create_time=now, sender=uid, content=said)  # sent twice
memories.add(group_id="trip", message_id="m2", create_time=now, sender="bot", role="assistant", content="Lovely city.")
flushed = memories.add(
    group_id="trip", message_id="m3", create_time=now, sender=uid, content="We decided to travel by train.", flush=True
)
status = None
for _ in range(240):
    status = client.v0.status.request.get(request_id=flushed.request_id)
    if status.data and status.data.get("status") in ("done", "failed"):
        break
    time.sleep(0.25)
episodes = memories.get(extra_query={"user_id": uid, "memory_type": "episodic_memory", "group_id": "trip"})
facts = memories.get(extra_query={"user_id": uid, "memory_type": "event_log"})
found = memories.search(
    extra_query={"user_id": uid, "query": "where does the user live", "memory_types": ["episodic_memory"], "top_k": 5}
)
try:
    memories.search(extra_query={"user_id": "someone_else", "query": "anything"})
    widened = "answered"
except Exception as exc:
    widened = type(exc).__name__
lisbon = [m for m in found.result.memories if "Lisbon" in (m.episode or "")][0]
deleted = memories.delete(memory_id=lisbon.id)
after = memories.get(extra_query={"user_id": uid, "memory_type": "event_log"})
dump = lambda r: r.model_dump(mode="json")
print(json.dumps({
    "first": dump(first), "flushed": dump(flushed), "status": dump(status), "episodes": dump(episodes),
    "facts": dump(facts), "found": dump(found), "widened": widened, "deleted": dump(deleted), "after": dump(after),
}))
"""


async def test_the_evermemos_sdk_works_unchanged(system: System) -> None:
    uid = f"ev_{uuid.uuid4().hex[:8]}"
    key = await system.user(uid)
    out: dict[str, Any] = await run_client(
        "evermemos", EVERMEMOS, {"KEY": key, "BASE": f"{system.url}/evermemos", "UID": uid}
    )
    assert out["first"]["status"] == "accumulated"
    assert out["flushed"]["request_id"].startswith("job_")
    assert out["status"]["found"] is True
    assert out["status"]["data"]["status"] == "done"
    episodes = out["episodes"]["result"]["memories"]
    assert [e["episode"] for e in episodes].count("I moved to Lisbon last year.") == 1  # a message id is one episode
    assert len(episodes) == 3
    facts = {m["atomic_fact"] for m in out["facts"]["result"]["memories"]}
    assert "I moved to Lisbon last year." in facts
    assert "We decided to travel by train." in facts
    assert any("Lisbon" in m["episode"] for m in out["found"]["result"]["memories"])
    assert all(m["user_id"] == uid for m in out["found"]["result"]["memories"])
    assert out["widened"] == "PermissionDeniedError"
    assert out["deleted"]["result"]["count"] == 1
    left = {m["atomic_fact"] for m in out["after"]["result"]["memories"]}
    assert "I moved to Lisbon last year." not in left
    assert "We decided to travel by train." in left


async def test_an_agent_key_lists_only_the_episodes_it_may_read(system: System) -> None:
    uid = f"ev_{uuid.uuid4().hex[:8]}"
    user_key = await system.user(uid)
    keys = {name: await system.agent(uid, f"{name}_{uid}") for name in ("a1", "a2")}
    for name, key in keys.items():
        body = {"content": f"{name} was here", "create_time": "2026-11-30T09:00:00+00:00", "message_id": name}
        body |= {"sender": uid, "group_id": f"g_{name}"}
        answer = await system.client.post("/evermemos/api/v0/memories", json=body, headers=system.auth(key))
        assert answer.status_code == 200, answer.text

    async def episodes(key: str) -> set[str]:
        params = {"memory_type": "episodic_memory"}
        answer = await system.client.get("/evermemos/api/v0/memories", params=params, headers=system.auth(key))
        return {m["episode"] for m in answer.json()["result"]["memories"]}

    assert await episodes(keys["a1"]) == {"a1 was here"}  # not its sibling agent's session
    assert await episodes(user_key) == {"a1 was here", "a2 was here"}
