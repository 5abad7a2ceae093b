"""Real client packages, each in a virtualenv of its own made from pinned versions (they pin
conflicting dependencies, and none of them may leak into the product's environment); and OpenClaw,
with the Node.js it needs, from the npm registry into a folder of its own.

An environment is made once per set of pins under ``.tools/clients/`` (kept between runs; a fresh
clone makes them on its first test run) and a client script runs in it as a subprocess against the
running gateway, printing one JSON answer on its last line.
"""

from __future__ import annotations

import asyncio
import fcntl
import hashlib
import json
import os
import shutil
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
CLIENTS = ROOT / ".tools" / "clients"
PINS: dict[str, tuple[str, ...]] = {
    "mem0ai": ("mem0ai==2.2.1",),
    "hermes": ("hermes-agent==0.19.0",),
    "hermes-mcp": ("hermes-agent[mcp]==0.19.0",),  # Hermes' MCP client is an optional extra
    "hermes-plugin": ("hermes-agent==0.19.0", "-e", str(ROOT / "libs" / "client")),  # with our client
    "evermemos": ("evermemos==0.3.13",),
    "mcp": ("mcp==1.30.0",),
    "nanobot": ("nanobot-ai==0.3.5",),
}


# OpenClaw 2026.9 needs Node.js >= 24.16; the machine's may be older, so a pinned one comes from npm too.
NODE_PINS: dict[str, tuple[str, ...]] = {"openclaw": ("node@24.21.0", "openclaw@2026.9.6")}


async def node_client(name: str) -> Path:
    """The folder of ``name``'s npm packages (``node_modules/.bin`` holds its commands and ``node``),
    installed now when missing (the first pin is the Node.js the rest install and run with)."""
    pins = NODE_PINS[name]

    async def install(home: Path) -> None:
        home.mkdir(parents=True)
        (home / "package.json").write_text(json.dumps({"name": f"memgw-{name}-client", "private": True}))
        npm = shutil.which("npm")
        if npm is None:
            raise RuntimeError("npm is needed to install OpenClaw for its test")
        command = (npm, "install", "--prefix", str(home), "--no-audit", "--no-fund", "--loglevel=error")
        await _run(*command, pins[0])  # Node.js first: the package's own install checks the version
        await _run(*command, *pins[1:], path=f"{home / 'node_modules' / 'node' / 'bin'}:{os.environ['PATH']}")

    return await _made_once(name, pins, install)


async def _made_once(name: str, pins: tuple[str, ...], make: Callable[[Path], Awaitable[None]]) -> Path:
    """The folder of ``name`` made from ``pins`` (by ``make(folder)``) under ``.tools/clients/``: made
    once per set of pins, by one process at a time, and made again if an earlier attempt broke off."""
    home = CLIENTS / f"{name}-{hashlib.sha256(' '.join(pins).encode()).hexdigest()[:10]}"
    CLIENTS.mkdir(parents=True, exist_ok=True)
    with (CLIENTS / f"{name}.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # one maker per folder, also across test processes
        if not (home / "ready").exists():
            shutil.rmtree(home, ignore_errors=True)
            await make(home)
            (home / "ready").write_text(" ".join(pins))
    return home


def _uv() -> str:
    found = os.environ.get("UV") or shutil.which("uv") or str(ROOT / ".tools" / "bin" / "uv")
    if not Path(found).exists() and not shutil.which(found):
        raise RuntimeError("uv is needed to make the client environments (./dev installs it into .tools/)")
    return found


async def _run(*command: str, path: str | None = None) -> None:
    env = {**os.environ, "PATH": path} if path else None
    proc = await asyncio.create_subprocess_exec(
        *command, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT, env=env
    )
    out, _ = await proc.communicate()
    if proc.returncode:
        raise RuntimeError(f"{' '.join(command)} failed:\n{out.decode()[-3000:]}")


async def client_python(name: str) -> Path:
    """The python of ``name``'s environment, made now when missing."""
    pins = PINS[name]

    async def make(env: Path) -> None:
        await _run(_uv(), "venv", "--quiet", "--python", sys.executable, str(env))
        await _run(_uv(), "pip", "install", "--quiet", "--python", str(env / "bin" / "python"), *pins)

    return await _made_once(name, pins, make) / "bin" / "python"


async def run_client(name: str, script: str, env: dict[str, str], timeout: float = 180) -> Any:
    """Run ``script`` with the client's python; its last output line is JSON, returned parsed."""
    python = await client_python(name)
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("MEMGW_", "MEM0_", "OPENAI_"))}
    proc = await asyncio.create_subprocess_exec(
        str(python),
        "-c",
        script,
        env={**clean, "MEM0_TELEMETRY": "false", "POSTHOG_DISABLED": "1", **env},
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    out, err = await asyncio.wait_for(proc.communicate(), timeout)
    lines = out.decode().strip().splitlines()
    if proc.returncode or not lines:
        raise AssertionError(
            f"{name} client failed ({proc.returncode}):\n{out.decode()[-2000:]}\n{err.decode()[-4000:]}"
        )
    return json.loads(lines[-1])
