"""The OpenClaw memory plugin (JavaScript, integrations/openclaw/memgw) under node's own test runner,
against this running gateway."""

from __future__ import annotations

import asyncio
import os
import shutil
import uuid
from pathlib import Path

import pytest

from tests.conftest import System

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
