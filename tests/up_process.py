"""`memgw up` as a process of its own, the way a person starts it (tests of the embedded default)."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from pathlib import Path


async def start_up(data_dir: Path, port: int, **settings: str) -> tuple[asyncio.subprocess.Process, str, str]:
    """Start ``memgw up`` on ``data_dir`` (its stderr in ``up.log`` beside it), with any further
    ``MEMGW_*`` settings; return the process, the gateway's URL and what it printed for the admin key."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("MEMGW_")}
    env |= {"MEMGW_DATA_DIR": str(data_dir), "MEMGW_PORT": str(port), "MEMGW_LOG_FORMAT": "json", **settings}
    return await start_memgw(["up"], env, data_dir.parent / "up.log")


async def start_memgw(args: list[str], env: dict[str, str], log: Path) -> tuple[asyncio.subprocess.Process, str, str]:
    """Start ``memgw *args`` and wait until it says it is up; return the process, the gateway's URL
    and its admin-key line ("" for both when the process serves no gateway)."""
    proc = await asyncio.create_subprocess_exec(
        str(Path(sys.executable).parent / "memgw"),
        *args,
        env=env,
        stdout=asyncio.subprocess.PIPE,
        stderr=log.open("ab"),
    )
    assert proc.stdout is not None
    url = key = ""
    async with asyncio.timeout(90):
        while not key:
            line = (await proc.stdout.readline()).decode()
            assert line, f"memgw {' '.join(args)} exited early; see {log}"
            if line.startswith("Memory Gateway is up at "):
                url = line.split(" at ", 1)[1].strip()
            if line.startswith("Admin API key: "):
                key = line.split(": ", 1)[1].strip()
            if line.startswith("Service is running."):
                break
    return proc, url, key


async def stop_up(proc: asyncio.subprocess.Process, sig: signal.Signals) -> int:
    proc.send_signal(sig)
    async with asyncio.timeout(60):
        return await proc.wait()
