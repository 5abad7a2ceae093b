"""Small helpers to run the embedded servers as child processes."""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import os
import secrets
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

_PR_SET_PDEATHSIG = 1


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def port_open(host: str, port: int, timeout: float = 0.2) -> bool:
    with contextlib.suppress(OSError), socket.create_connection((host, port), timeout=timeout):
        return True
    return False


async def wait_for_port(host: str, port: int, *, timeout_s: float, proc: subprocess.Popen[bytes] | None = None) -> None:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if port_open(host, port):
            return
        if proc is not None and proc.poll() is not None:
            raise RuntimeError(f"process exited with code {proc.returncode} before listening on {host}:{port}")
        await asyncio.sleep(0.05)
    raise TimeoutError(f"nothing listens on {host}:{port} after {timeout_s} s")


def stop_process(proc: subprocess.Popen[bytes], timeout_s: float = 10.0) -> None:
    if proc.poll() is not None:
        return
    proc.terminate()
    try:
        proc.wait(timeout=timeout_s)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(timeout=timeout_s)


def private_secret(path: Path) -> str:
    """A secret generated once and kept in ``path`` (mode 0600); the same one on every start."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with contextlib.suppress(FileExistsError):
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w") as f:
            f.write(secrets.token_urlsafe(32))
    return path.read_text().strip()


def die_with_parent() -> None:
    """In the child, before exec: on Linux, the kernel stops it when the process that started it
    dies, even by kill -9, so an embedded server never outlives its launcher."""
    if sys.platform.startswith("linux"):
        with contextlib.suppress(OSError, AttributeError):
            ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGTERM)


def stop_stale(pidfile: Path, marker: str, timeout_s: float = 10.0) -> bool:
    """Stop a server an earlier launcher left running on this data dir (``pidfile`` names it and its
    command line holds ``marker``); True when one was stopped. Anything else with that pid is left."""
    try:
        pid = int(pidfile.read_text().strip())
        command = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
    except (FileNotFoundError, ValueError, PermissionError):
        return False
    if marker not in command:
        return False
    with contextlib.suppress(ProcessLookupError):
        os.kill(pid, signal.SIGTERM)
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline and Path(f"/proc/{pid}").exists():
            time.sleep(0.05)
        if Path(f"/proc/{pid}").exists():
            os.kill(pid, signal.SIGKILL)
    return True
