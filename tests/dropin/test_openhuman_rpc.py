"""OpenHuman's memory-source JSON-RPC at /rpc, called as an OpenHuman client calls it: flat field
names, the nine methods, JSON-RPC 2.0's envelopes, batches and notifications, and the same rules as
REST (another user's source is not found; a bad request names what to fix)."""

from __future__ import annotations

import itertools
import uuid
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import StageWatcher, System

_ids = itertools.count(1)


class Rpc:
    def __init__(self, system: System, key: str):
        self.system, self.key = system, key

    async def raw(self, body: Any) -> Any:
        answer = await self.system.client.post("/rpc", json=body, headers=self.system.auth(self.key))
        assert answer.status_code in (200, 204), answer.text
        return answer.json() if answer.status_code == 200 else None

    async def call(self, method: str, **params: Any) -> Any:
        reply = await self.raw(
            {"jsonrpc": "2.0", "method": f"openhuman.memory_sources_{method}", "params": params, "id": next(_ids)}
        )
        assert "result" in reply, reply
        return reply["result"]

    async def error(self, method: str, **params: Any) -> dict[str, Any]:
        reply = await self.raw({"jsonrpc": "2.0", "method": method, "params": params, "id": "e"})
        assert "error" in reply, reply
        assert reply["id"] == "e"
        return dict(reply["error"])


@pytest.fixture
async def rpc(system: System) -> Rpc:
    return Rpc(system, await system.user(f"oh_{uuid.uuid4().hex[:8]}"))


async def test_the_nine_methods_with_openhumans_flat_fields(
    rpc: Rpc, files_dir: Path, stage_watcher: StageWatcher
) -> None:
    (files_dir / "plan.md").write_text("# Plan\n\nWe ship the gateway in December.")
    (files_dir / "notes.txt").write_text("not markdown")
    source_id = f"mem-src-{files_dir.name}"
    added = await rpc.call("add", id=source_id, kind="Folder", path=str(files_dir), max_tokens_per_sync=20000)
    assert added == {
        "id": source_id,
        "kind": "Folder",
        "label": "",
        "enabled": True,
        "path": str(files_dir),
        "max_tokens_per_sync": 20000,
    }
    assert await rpc.call("get", id=source_id) == added
    assert source_id in [s["id"] for s in await rpc.call("list")]
    updated = await rpc.call("update", id=source_id, glob="**/*.md", label="Plans")
    assert (updated["glob"], updated["label"], updated["path"]) == ("**/*.md", "Plans", str(files_dir))
    items = await rpc.call("list_items", id=source_id)
    assert [i["id"] for i in items] == ["plan.md"]
    item = await rpc.call("read_item", id=source_id, item_id="plan.md")
    assert "December" in item["text"]
    started = await rpc.call("sync", id=source_id)
    assert started["created"] is True
    final = await stage_watcher.wait_final(started["run"]["id"])
    assert final["stage"] == "Completed"
    assert final["connection_id"] == source_id  # the seed's name on the event
    [status] = [s for s in await rpc.call("status_list") if s["source_id"] == source_id]
    assert status["synced_chunks"] >= 1
    assert status["freshness"] in ("Active", "Recent")
    removed = await rpc.call("remove", id=source_id)
    assert removed["removed"] is True
    assert removed["chunks_removed"] >= 1


async def test_errors_batches_and_notifications_follow_json_rpc(rpc: Rpc, system: System, files_dir: Path) -> None:
    unknown = await rpc.error("openhuman.memory_sources_explode")
    assert unknown["code"] == -32601
    assert "memory_sources_list" in unknown["message"] or "list" in unknown["message"]
    assert (await rpc.error("openhuman.memory_sources_get"))["code"] == -32602
    bad_kind = await rpc.error("openhuman.memory_sources_add", id="x1", kind="Fax")
    assert bad_kind["code"] == -32602
    assert "Fax" in bad_kind["message"]
    other = await system.user(f"oh_{uuid.uuid4().hex[:8]}")
    theirs = f"theirs-{files_dir.name}"
    await Rpc(system, other).call("add", id=theirs, kind="Folder", path=str(files_dir))
    hidden = await rpc.error("openhuman.memory_sources_get", id=theirs)
    assert hidden["data"] == {"status": 404, "error": "not_found"}
    assert (await rpc.error("openhuman.memory_sources_remove", id=theirs))["data"]["status"] == 404
    batch = await rpc.raw(
        [
            {"jsonrpc": "2.0", "method": "openhuman.memory_sources_list", "id": 1},
            {"jsonrpc": "2.0", "method": "openhuman.memory_sources_status_list"},  # a notification: no reply
            {"jsonrpc": "1.0", "method": "openhuman.memory_sources_list", "id": 3},
        ]
    )
    assert [r["id"] for r in batch] == [1, None]
    assert batch[1]["error"]["code"] == -32600
    assert await rpc.raw({"jsonrpc": "2.0", "method": "openhuman.memory_sources_list"}) is None
    parse = await system.client.post("/rpc", content=b"{not json", headers=system.auth(rpc.key))
    assert parse.json()["error"]["code"] == -32700
    assert (await system.client.post("/rpc", json={"jsonrpc": "2.0", "method": "x", "id": 1})).status_code == 401
