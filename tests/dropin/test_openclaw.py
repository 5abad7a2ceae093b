"""The OpenClaw memory plugin (JavaScript, integrations/openclaw/memgw): under node's own test runner,
and inside the real OpenClaw running a turn, both against this running gateway."""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import uuid
from pathlib import Path

import pytest

from tests.clients import node_client
from tests.conftest import System
from tests.fakes import scripted_agent_llm, serve

PLUGIN = Path(__file__).resolve().parents[2] / "integrations" / "openclaw" / "memgw"


@pytest.mark.skipif(shutil.which("node") is None, reason="node (18+) is needed to run the OpenClaw plugin's tests")
async def test_the_openclaw_plugin_passes_its_node_tests(system: System) -> None:
    key = await system.user(f"claw_{uuid.uuid4().hex[:8]}")
    other = await system.user(f"claw_{uuid.uuid4().hex[:8]}")
    env = {**os.environ, "MEMGW_URL": system.url, "MEMGW_API_KEY": key, "MEMGW_OTHER_KEY": other}
    proc = await asyncio.create_subprocess_exec(
        "node", "--test", cwd=PLUGIN, env=env, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT
    )
    out, _ = await asyncio.wait_for(proc.communicate(), 120)
    report = out.decode()
    assert proc.returncode == 0, report
    assert "# pass 4" in report
    assert "# fail 0" in report


@pytest.mark.skipif(shutil.which("npm") is None, reason="npm is needed to install OpenClaw and its Node.js")
async def test_the_real_openclaw_recalls_and_stores_through_the_plugin(system: System, tmp_path: Path) -> None:
    """OpenClaw as released (2026.9, on the Node.js it asks for), configured as its docs say: the plugin
    loaded from this folder into the memory slot, its conversation hooks allowed, tools offered
    directly. One turn against a scripted model: the plugin's recall puts the user's memory into the
    prompt, and the model's memory_store call lands in the gateway, under this key's user only."""
    home = await node_client("openclaw")
    uid = f"claw_{uuid.uuid4().hex[:8]}"
    key, stranger = await system.user(uid), await system.user(f"claw_{uuid.uuid4().hex[:8]}")
    remembered = {"content": "The user's cat is called Miso.", "memory_type": "fact"}
    assert (await system.client.post("/v1/memory", json=remembered, headers=system.auth(key))).status_code == 201
    stored = f"I keep my bike in the hallway ({uuid.uuid4().hex[:6]})."
    seen: list[dict[str, object]] = []
    async with serve(scripted_agent_llm("memory_store", {"text": stored}, seen)) as llm:
        config = {
            "models": {
                "providers": {
                    "scripted": {
                        "baseUrl": f"{llm}/v1",
                        "apiKey": "sk-local",
                        "api": "openai-completions",
                        "models": [{"id": "scripted-model", "name": "Scripted"}],
                    }
                }
            },
            "agents": {
                "defaults": {"model": {"primary": "scripted/scripted-model"}, "workspace": str(tmp_path / "ws")}
            },
            "tools": {"toolSearch": False},
            "plugins": {
                "load": {"paths": [str(PLUGIN)]},
                "slots": {"memory": "memgw"},
                "entries": {
                    "memgw": {
                        "enabled": True,
                        "config": {"url": system.url},
                        "hooks": {"allowConversationAccess": True},
                    }
                },
            },
        }
        (tmp_path / ".openclaw").mkdir()
        (tmp_path / ".openclaw" / "openclaw.json").write_text(json.dumps(config))
        bin_dir = home / "node_modules" / ".bin"
        env = {
            **{k: v for k, v in os.environ.items() if not k.startswith(("MEMGW_", "OPENAI_"))},
            "HOME": str(tmp_path),
            "PATH": f"{home / 'node_modules' / 'node' / 'bin'}:{bin_dir}:{os.environ['PATH']}",
            "MEMGW_API_KEY": key,  # the key is not written into the config file
        }
        proc = await asyncio.create_subprocess_exec(
            str(bin_dir / "openclaw"),
            "agent",
            "--local",
            "--agent",
            "main",
            "-m",
            "What is my cat called?",
            "--json",
            env=env,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
        )
        out, err = await asyncio.wait_for(proc.communicate(), 300)
    assert proc.returncode == 0, (out.decode()[-2000:], err.decode()[-3000:])
    first = json.dumps(seen[0])
    assert "memory_store" in first  # the plugin's tools are offered
    assert "<relevant-memories>" in first  # recall ran before the prompt was built
    assert "The user's cat is called Miso." in first
    mine = (await system.client.get("/v1/memory", params={"limit": 100}, headers=system.auth(key))).json()["items"]
    assert stored in [m["content"] for m in mine]  # the model's memory_store call reached the gateway
    theirs = (await system.client.get("/v1/memory", params={"limit": 100}, headers=system.auth(stranger))).json()
    assert stored not in [m["content"] for m in theirs["items"]]
