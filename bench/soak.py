"""Soak: is memory growth a leak or a cache? `memgw up` runs as a process of its own on a fresh data
dir (embedded NATS and Postgres: their memory is theirs, not ours); its RSS is sampled every few
seconds under two phases of load:

1. grow: writers add memories while searchers search (the data set grows, so memory may too);
2. steady: searchers only, on the data set phase 1 left (nothing new to hold).

In phase 2 a cache fills and then stays flat; a leak keeps climbing with the requests served. The
report gives the RSS curve and the slope of the second half of phase 2 (MB per 1,000 requests).
Run: `uv run python bench/soak.py [minutes per phase, default 3]`."""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import signal
import sys
import tempfile
import time
from pathlib import Path

import httpx
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from harness import machine, publish

from memgw.launcher.embedded.process import free_port

WRITERS, SEARCHERS, USERS = 4, 8, 20
SAMPLE_S = 5.0
WORDS = ["项目", "deploy", "数据库", "meeting", "旅行", "budget", "代码评审", "tea", "会议纪要", "family", "决定"]


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


async def start(data_dir: Path) -> tuple[asyncio.subprocess.Process, str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("MEMGW_")}
    env |= {"MEMGW_DATA_DIR": str(data_dir), "MEMGW_PORT": str(free_port()), "MEMGW_LOG_LEVEL": "WARNING"}
    proc = await asyncio.create_subprocess_exec(
        str(Path(sys.executable).parent / "memgw"), "up", env=env, stdout=asyncio.subprocess.PIPE
    )
    assert proc.stdout is not None
    url = key = ""
    while not key:
        line = (await proc.stdout.readline()).decode()
        if not line:
            raise RuntimeError("memgw up exited before it was up")
        if line.startswith("Memory Gateway is up at "):
            url = line.split(" at ", 1)[1].strip()
        if line.startswith("Admin API key: "):
            key = line.split(": ", 1)[1].strip()
    return proc, url, key


async def soak(minutes: float) -> str:
    with tempfile.TemporaryDirectory(prefix="memgw-soak-") as tmp:
        proc, url, admin = await start(Path(tmp) / "data")
        try:
            return await _load(proc.pid, url, admin, minutes)
        finally:
            proc.send_signal(signal.SIGINT)
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(60):
                    await proc.wait()


async def _load(pid: int, url: str, admin: str, minutes: float) -> str:
    limits = httpx.Limits(max_connections=32, max_keepalive_connections=32)
    async with httpx.AsyncClient(base_url=url, timeout=120, limits=limits) as client:
        keys = []
        for n in range(USERS):
            auth = {"Authorization": f"Bearer {admin}"}
            await client.post("/v1/users", json={"user_id": f"soak{n}"}, headers=auth)
            keys.append((await client.post("/v1/keys", json={"user_id": f"soak{n}"}, headers=auth)).json()["api_key"])
        served = {"writes": 0, "searches": 0, "errors": 0}
        samples: list[tuple[str, float, int, float]] = []  # phase, seconds, requests so far, RSS MB
        began = time.monotonic()

        async def writer(rng: random.Random, until: float) -> None:
            while time.monotonic() < until:
                text = " ".join(rng.choice(WORDS) for _ in range(12)) + f" #{rng.randint(0, 10**9)}"
                auth = {"Authorization": f"Bearer {rng.choice(keys)}"}
                answer = await client.post("/v1/memory", json={"content": text}, headers=auth)
                served["writes" if answer.status_code == 201 else "errors"] += 1

        async def searcher(rng: random.Random, until: float) -> None:
            while time.monotonic() < until:
                query = " ".join(rng.choice(WORDS) for _ in range(4))
                key = rng.choice(keys)
                answer = await client.post(
                    "/v1/memory/search", json={"query": query, "limit": 10}, headers={"Authorization": f"Bearer {key}"}
                )
                served["searches" if answer.status_code == 200 else "errors"] += 1

        async def sampler(phase: str, until: float) -> None:
            while time.monotonic() < until:
                samples.append((phase, time.monotonic() - began, served["writes"] + served["searches"], rss_mb(pid)))
                await asyncio.sleep(SAMPLE_S)

        rng = random.Random(11)
        start_rss = rss_mb(pid)
        for phase, writers in (("grow", WRITERS), ("steady", 0)):
            until = time.monotonic() + minutes * 60
            jobs = [writer(random.Random(rng.random()), until) for _ in range(writers)]
            jobs += [searcher(random.Random(rng.random()), until) for _ in range(SEARCHERS)]
            await asyncio.gather(sampler(phase, until), *jobs)
        await asyncio.sleep(10)
        idle_rss = rss_mb(pid)
    return _report(samples, served, start_rss, idle_rss, minutes)


def _report(
    samples: list[tuple[str, float, int, float]],
    served: dict[str, int],
    start_rss: float,
    idle_rss: float,
    minutes: float,
) -> str:
    steady = [s for s in samples if s[0] == "steady"]
    tail = steady[len(steady) // 2 :]
    requests = np.array([s[2] for s in tail], dtype=float)
    rss = np.array([s[3] for s in tail], dtype=float)
    slope = float(np.polyfit(requests, rss, 1)[0] * 1000) if len(tail) > 2 and np.ptp(requests) > 0 else float("nan")
    lines = [
        "# Soak: memory under load, leak or cache",
        "",
        machine(),
        f"- `memgw up` process (embedded NATS/Postgres are separate processes, not counted); {WRITERS} writers"
        f" + {SEARCHERS} searchers for {minutes:g} min, then {SEARCHERS} searchers only for {minutes:g} min,"
        f" {USERS} users",
        f"- served: {served['writes']} writes, {served['searches']} searches, {served['errors']} errors",
        f"- RSS at start {start_rss:.0f} MB; end of grow {[s for s in samples if s[0] == 'grow'][-1][3]:.0f} MB;"
        f" end of steady {steady[-1][3]:.0f} MB; after 10 s idle {idle_rss:.0f} MB",
        f"- **slope over the second half of the steady phase: {slope:+.2f} MB per 1,000 requests**"
        " (a leak climbs with requests; a cache is flat once filled)",
        "",
        "| phase | s | requests | RSS MB |",
        "|---|---:|---:|---:|",
    ]
    lines += [f"| {p} | {t:.0f} | {n} | {m:.0f} |" for p, t, n, m in samples[:: max(1, len(samples) // 40)]]
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    minutes = float(sys.argv[1]) if len(sys.argv) > 1 else 3.0
    report = asyncio.run(soak(minutes))
    publish(report, "soak.md")
