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


HERMES_PLUGIN = """
import json, os, pathlib, shutil
home = pathlib.Path(os.environ["HERMES_HOME"])
shutil.copytree(os.environ["PLUGIN"], home / "plugins" / "memgw")  # the documented install
from plugins.memory import load_memory_provider

provider = load_memory_provider("memgw")
out = {"available": provider.is_available()}
provider.initialize("cli session 7")
out["context"] = provider.prefetch("which editor should I open")
provider.sync_turn("Set up the build for me.", "Done: the build uses Bazel now.")
provider.sync_turn("Also, we decided to use Bazel.", "Noted.")
desk = {"content": "The user's desk is by the window."}
out["stored"] = json.loads(provider.handle_tool_call("memgw_remember", desk))
out["found"] = json.loads(provider.handle_tool_call("memgw_search", {"query": "where is the desk"}))
out["refused"] = json.loads(provider.handle_tool_call("memgw_forget", {"memory_id": "mem_not_there"}))
provider.on_session_end([])
provider.shutdown()
print(json.dumps(out))
"""


def _plugin_env(system: System, key: str, tmp_path: Path) -> dict[str, str]:
    """Hermes' environment with the project's plugin to install (the scripts copy it, as documented)."""
    plugin = Path(__file__).resolve().parents[2] / "integrations" / "hermes" / "memgw"
    return {
        "MEMGW_URL": system.url,
        "MEMGW_API_KEY": key,
        "HERMES_HOME": str(tmp_path / "hermes"),
        "HOME": str(tmp_path),
        "PLUGIN": str(plugin),
    }


async def test_the_hermes_memory_provider_plugin(system: System, tmp_path: Path) -> None:
    uid, key = await _person_with_a_memory(system)
    env = _plugin_env(system, key, tmp_path)
    out = await run_client("hermes-plugin", HERMES_PLUGIN, env)
    assert out["available"] is True
    assert "Helix" in out["context"]
    assert out["stored"]["result"] == "stored"
    assert "The user's desk is by the window." in [r["memory"] for r in out["found"]["results"]]
    assert out["refused"]["error"].startswith("not_found")
    jobs = await system.infra.pool.fetch("SELECT state FROM jobs WHERE user_id = $1", uid)
    assert len(jobs) == 1  # the session was committed at its end
    episodes = await system.infra.pool.fetchval("SELECT count(*) FROM episodes WHERE user_id = $1", uid)
    assert episodes == 2


HERMES_ONE_SHOT = """
import os, pathlib, shutil
home = pathlib.Path(os.environ["HERMES_HOME"])
shutil.copytree(os.environ["PLUGIN"], home / "plugins" / "memgw")
from plugins.memory import load_memory_provider

# The order of a one-shot run (hermes -z: hermes_cli/oneshot.py): the session ends, then the memory
# manager's shutdown_all drains the turn it held back and shuts the providers down.
provider = load_memory_provider("memgw")
provider.initialize("oneshot 1")
provider.on_session_end([])
provider.sync_turn("By the way, I'm allergic to walnuts.", "Noted, no walnuts.")
provider.shutdown()
print("{}")
"""


async def test_a_hermes_one_shot_run_commits_the_turn_it_sends_after_the_session_ended(
    system: System, tmp_path: Path
) -> None:
    uid, key = await _person_with_a_memory(system)
    env = _plugin_env(system, key, tmp_path)
    await run_client("hermes-plugin", HERMES_ONE_SHOT, env)
    jobs = await system.infra.pool.fetch("SELECT state FROM jobs WHERE user_id = $1", uid)
    assert len(jobs) == 1  # committed at shutdown, once
    episodes = await system.infra.pool.fetchval("SELECT count(*) FROM episodes WHERE user_id = $1", uid)
    assert episodes == 1
