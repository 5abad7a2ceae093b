"""The composition root: the one package that imports every service's ``build``; nothing imports it."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
from collections.abc import Callable, Iterator

import uvicorn

from memgw import consolidator, gateway, obsidian_bridge, sync_worker  # noqa: F401  (namespace roots)
from memgw.common.logging import get_logger
from memgw.common.runtime import Infra, ServiceParts
from memgw.common.settings import Settings
from memgw.consolidator.main import build as build_consolidator
from memgw.gateway.identity import ADMIN_KEY_FILE, ensure_admin_key
from memgw.gateway.main import build as build_gateway
from memgw.launcher.http import KEEP_ALIVE_S
from memgw.launcher.probes import probe_app
from memgw.launcher.runtime import freeze_start_up_heap, open_infra, run_services
from memgw.obsidian_bridge.main import build as build_obsidian_bridge
from memgw.sync_worker.main import build as build_sync_worker

log = get_logger("memgw.launcher")

SERVICES: dict[str, Callable[[Infra], ServiceParts]] = {
    "gateway": build_gateway,
    "sync-worker": build_sync_worker,
    "consolidator": build_consolidator,
    "obsidian-bridge": build_obsidian_bridge,
}


_watchdogs: set[asyncio.Task[None]] = set()


async def _wait_for_signal(parts: list[ServiceParts], on_stop: Callable[[], None] | None = None) -> None:
    """Wait for Ctrl-C or SIGTERM; then start the shutdown watchdog, let every part end what would
    hold the server open (its ``on_stop``), and return."""
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    await stop.wait()
    _watchdogs.add(asyncio.create_task(_shutdown_watchdog(), name="shutdown-watchdog"))
    for part in parts:
        for hook in part.on_stop:
            try:
                await hook()
            except Exception:  # stopping goes on whatever one part says
                log.exception("shutdown.on_stop_failed", service=part.name)
    if on_stop is not None:
        on_stop()


class _Server(uvicorn.Server):
    """uvicorn that leaves signals to us: its own handling re-raises SIGTERM after serving, which
    would end the process before the embedded Postgres and NATS are stopped."""

    @contextlib.contextmanager
    def capture_signals(self) -> Iterator[None]:
        yield


async def _shutdown_watchdog(grace_s: float = 20.0) -> None:
    """Stopping must never hang: after the grace period, say what is stuck and exit."""
    await asyncio.sleep(grace_s)
    stuck = [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]
    for task in stuck:
        frames = [f"{f.f_code.co_filename}:{f.f_lineno} {f.f_code.co_name}" for f in task.get_stack()]
        log.error("shutdown.stuck", task=task.get_name(), stack=frames)
    log.error("shutdown.forced", after_s=grace_s)
    os._exit(1)


async def run(settings: Settings, names: list[str], on_ready: Callable[[str, str | None], None]) -> None:
    """Run the named services in this process until Ctrl-C / SIGTERM, then stop them in order."""
    async with open_infra(settings) as infra:
        parts = [SERVICES[name](infra) for name in names]
        admin_key = None
        if "gateway" in names:
            key_file = settings.data.data_dir / ADMIN_KEY_FILE
            first_start = not key_file.exists() and not settings.gateway.admin_api_key
            admin_key = await ensure_admin_key(infra.pool, settings.data.data_dir, settings.gateway.admin_api_key)
            # Shown once, on the start that made it; after that only where it is (logs are kept).
            admin_key = admin_key if first_start else f"kept in {key_file} (mode 0600)"
        async with run_services(infra, parts):
            freeze_start_up_heap()
            app = next((p.app for p in parts if p.app is not None), None)
            port, probes_only = settings.gateway.port, app is None
            if app is None and settings.gateway.health_port is not None:
                app, port = probe_app(infra), settings.gateway.health_port
            if app is None:
                on_ready("", None)
                await _wait_for_signal(parts)
                return
            config = uvicorn.Config(
                app,
                host=settings.gateway.host,
                port=port,
                log_config=None,
                access_log=False,
                timeout_graceful_shutdown=5,  # open event streams must not hold a shutdown
                timeout_keep_alive=KEEP_ALIVE_S,
            )
            server = _Server(config)
            serving = asyncio.create_task(server.serve())
            stopper = asyncio.create_task(_wait_for_signal(parts, lambda: setattr(server, "should_exit", True)))
            while not server.started and not serving.done():  # noqa: ASYNC110  (uvicorn has no started event)
                await asyncio.sleep(0.05)
            if server.started and probes_only:
                on_ready("", None)
            elif server.started:
                port = server.servers[0].sockets[0].getsockname()[1]
                on_ready(f"http://{settings.gateway.host}:{port}", admin_key)
            with contextlib.suppress(asyncio.CancelledError):
                await serving
            stopper.cancel()
