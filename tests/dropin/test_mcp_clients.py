"""The MCP endpoint as agents meet it: the official ``mcp`` SDK (in an environment of its own)
at /mcp and at the seed's /mcp/rpc, all eight tools, only tools advertised, every argument
described, and errors in one style."""

from __future__ import annotations

import uuid
from typing import Any

from tests.clients import run_client
from tests.conftest import System

MCP_SDK = """
import asyncio, json, os
from mcp import ClientSession
from mcp.client.streamable_http import streamablehttp_client

def text(result):
    return result.content[0].text if result.content else ""

async def session(path, work):
    headers = {"Authorization": "Bearer " + os.environ["KEY"]}
    async with streamablehttp_client(os.environ["URL"] + path, headers=headers) as (read, write, _):
        async with ClientSession(read, write) as s:
            init = await s.initialize()
            return await work(s, init)

async def everything(s, init):
    out = {"capabilities": init.capabilities.model_dump(mode="json", exclude_none=True)}
    tools = (await s.list_tools()).tools
    out["tools"] = {t.name: t.inputSchema for t in tools}
    async def call(name, **args):
        return (await s.call_tool(name, args)).structuredContent

    sid = os.environ["SID"]
    said = "The user's favourite editor is Helix " + sid  # words of its own: other tests' memories rank lower
    out["stored"] = await call("memory_upsert", content=said, memory_type="preference")
    out["found"] = await call("memory_search", query="favourite editor Helix " + sid, limit=10)
    out["full"] = await call("memory_search", query="favourite editor Helix " + sid, limit=10, full=True)
    out["namespaces"] = await call("memory_list_namespaces")
    out["profile"] = await call("memory_get_profile")
    out["episode"] = await call("memory_append_episode", session_id=sid, content="We fixed the login bug.")
    out["commit"] = await call("memory_commit_session", session_id=sid)
    out["feedback"] = await call("memory_feedback", memory_id=out["stored"]["uri"], feedback="useful")  # a URI too
    out["deleted"] = await call("memory_delete", memory_id=out["stored"]["id"])
    bad = await s.call_tool("memory_search", {"query": "x", "limit": 500})
    out["bad"] = {"error": bad.isError, "text": text(bad)}
    refused = await s.call_tool("memory_delete", {"memory_id": "mem_does_not_exist"})
    out["refused"] = {"error": refused.isError, "text": text(refused)}
    return out

async def tools_only(s, init):
    return sorted(t.name for t in (await s.list_tools()).tools)

async def main():
    out = await session("/mcp", everything)
    out["seed_path_tools"] = await session("/mcp/rpc", tools_only)
    print(json.dumps(out))

asyncio.run(main())
"""

EIGHT = {
    "memory_search",
    "memory_upsert",
    "memory_append_episode",
    "memory_commit_session",
    "memory_get_profile",
    "memory_list_namespaces",
    "memory_delete",
    "memory_feedback",
}


async def test_the_official_mcp_sdk_uses_all_eight_tools(system: System) -> None:
    uid = f"mcp_{uuid.uuid4().hex[:8]}"
    key = await system.user(uid)
    out: dict[str, Any] = await run_client("mcp", MCP_SDK, {"KEY": key, "URL": system.url, "SID": f"s_{uid}"})
    assert "tools" in out["capabilities"]
    assert "resources" not in out["capabilities"]
    assert "prompts" not in out["capabilities"]
    assert set(out["tools"]) == EIGHT
    assert sorted(EIGHT) == out["seed_path_tools"]
    for name, schema in out["tools"].items():
        for arg, spec in schema.get("properties", {}).items():
            assert spec.get("description"), f"{name}.{arg} has no description"
            if name != "memory_search":  # which may name the key's own identity only (test_isolation)
                assert arg not in ("user_id", "agent_id"), f"{name} lets a model name a principal"
    upsert = out["tools"]["memory_upsert"]["properties"]
    assert "preference" in str(upsert["memory_type"])
    assert "workspace-shared" in str(upsert["visibility"])
    assert out["tools"]["memory_search"]["properties"]["limit"]["maximum"] == 50
    [hit] = [h for h in out["found"]["results"] if h["id"] == out["stored"]["id"]]
    assert set(hit) == {"id", "content", "type", "namespace", "score"}
    assert hit["type"] == "preference"
    [full] = [h for h in out["full"]["results"] if h["memory"]["id"] == out["stored"]["id"]]
    assert full["memory"]["user_id"] == uid
    assert any(n["namespace"] == f"user/{uid}/preferences" for n in out["namespaces"]["result"])
    assert out["profile"]["user_id"] == uid
    assert out["episode"]["namespace"] == f"session/s_{uid}/episodic"
    assert out["commit"]["job_id"].startswith("job_")
    assert out["feedback"]["applies_to"] == "record"
    assert out["deleted"]["deleted"] is True
    assert out["bad"]["error"] is True
    assert out["bad"]["text"].startswith("invalid_request: limit:")
    assert out["refused"]["error"] is True
    assert out["refused"]["text"].startswith("not_found:")
