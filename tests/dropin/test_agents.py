"""Agents as their users install them, pointed at the gateway with configuration only: nanobot
(``tools.mcpServers``) and Hermes (``mcp_servers``), each running its real agent loop against a
scripted OpenAI-compatible model that searches memory and repeats what it found."""

from __future__ import annotations

import uuid
from pathlib import Path
from typing import Any

import pytest

from memgw.launcher.http import serve
from tests.clients import run_client
from tests.conftest import System
from tests.fakes import scripted_agent_llm

NANOBOT = """
import asyncio, json, os, pathlib
from nanobot.nanobot import Nanobot

home = pathlib.Path(os.environ["HOME"])
config = {
    "agents": {"defaults": {"workspace": str(home / "workspace"), "model": "scripted-model", "provider": "custom"}},
    "providers": {"custom": {"apiKey": "sk-local", "apiBase": os.environ["LLM"] + "/v1"}},
    "tools": {
        "ssrfWhitelist": ["127.0.0.0/8"],
        "mcpServers": {
            "memgw": {
                "type": "streamableHttp",
                "url": os.environ["URL"] + "/mcp",
                "headers": {"Authorization": "Bearer " + os.environ["KEY"]},
            }
        },
    },
}
path = home / "config.json"
path.write_text(json.dumps(config))

async def main():
    bot = Nanobot.from_config(path)
    result = await bot.run("Which editor do I like?")
    print(json.dumps({"content": result.content}))

asyncio.run(main())
"""


@pytest.fixture
async def llm() -> Any:
    seen: list[dict[str, Any]] = []
    async with serve(scripted_agent_llm("memory_search", {"query": "favourite editor"}, seen)) as url:
        yield url, seen


async def _person_with_a_memory(system: System) -> tuple[str, str]:
    uid = f"agent_{uuid.uuid4().hex[:8]}"
    key = await system.user(uid)
    body = {"content": "The user's favourite editor is Helix.", "memory_type": "preference"}
    assert (await system.client.post("/v1/memory", json=body, headers=system.auth(key))).status_code == 201
    return uid, key


async def test_nanobot_recalls_through_its_mcp_servers_config(system: System, llm: Any, tmp_path: Path) -> None:
    url, seen = llm
    _, key = await _person_with_a_memory(system)
    out = await run_client("nanobot", NANOBOT, {"KEY": key, "URL": system.url, "LLM": url, "HOME": str(tmp_path)})
    assert "Helix" in out["content"]
    offered = {t["function"]["name"] for t in seen[0].get("tools", [])}
    assert {name for name in offered if name.startswith("mcp_memgw_")} >= {
        "mcp_memgw_memory_search",
        "mcp_memgw_memory_upsert",
    }


HERMES = """
import json, os, pathlib
home = pathlib.Path(os.environ["HERMES_HOME"])
home.mkdir(parents=True, exist_ok=True)
(home / "config.yaml").write_text(
    "mcp_servers:\\n"
    "  memgw:\\n"
    f"    url: {os.environ['URL']}/mcp\\n"
    "    headers:\\n"
    f"      Authorization: Bearer {os.environ['KEY']}\\n"
)
from tools.mcp_tool import discover_mcp_tools
from run_agent import AIAgent

registered = discover_mcp_tools()
agent = AIAgent(
    base_url=os.environ["LLM"] + "/v1", api_key="sk-local", model="scripted-model",
    quiet_mode=True, skip_context_files=True, skip_memory=True,
)
reply = agent.chat("Which editor do I like?")
print(json.dumps({"registered": registered, "reply": reply}))
"""


async def test_hermes_recalls_through_its_mcp_servers_config(system: System, llm: Any, tmp_path: Path) -> None:
    url, _ = llm
    _, key = await _person_with_a_memory(system)
    env = {"KEY": key, "URL": system.url, "LLM": url, "HERMES_HOME": str(tmp_path / "hermes"), "HOME": str(tmp_path)}
    out = await run_client("hermes-mcp", HERMES, env | {"HERMES_DISABLE_LAZY_INSTALLS": "1"})
    assert "mcp__memgw__memory_search" in out["registered"]
    assert "Helix" in out["reply"]
