"""``memgw``: run everything (``up``), one service (``serve``), ``migrate`` and ``reindex``."""

from __future__ import annotations

import asyncio
from enum import StrEnum

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

from memgw.common.db.migrate import migrate_dsn
from memgw.common.logging import configure_logging
from memgw.common.runtime import open_infra
from memgw.common.settings import Settings
from memgw.launcher import compose

app = typer.Typer(help="Memory Gateway: shared, isolated long-term memory for AI agents.", no_args_is_help=True)
console = Console(stderr=True)


class ServiceName(StrEnum):
    gateway = "gateway"
    sync_worker = "sync-worker"
    consolidator = "consolidator"
    obsidian_bridge = "obsidian-bridge"


def _settings() -> Settings:
    settings = Settings()
    configure_logging(settings.log)
    return settings


def _announce(url: str, admin_key: str | None) -> None:
    if url:
        print(f"Memory Gateway is up at {url}", flush=True)
        print(f"Admin API key: {admin_key}", flush=True)
        print("Press Ctrl-C to stop.", flush=True)
    else:
        print("Service is running. Press Ctrl-C to stop.", flush=True)


@app.command()
def up() -> None:
    """All four services in one process on the embedded NATS, Postgres and Qdrant Edge
    (or on the servers the settings name)."""
    settings = _settings()
    asyncio.run(compose.run(settings, list(compose.SERVICES), _announce))


@app.command()
def serve(service: ServiceName) -> None:
    """One service against the configured NATS, Postgres and Qdrant (the container entry point)."""
    settings = _settings()
    asyncio.run(compose.run(settings, [service.value], _announce))


@app.command()
def migrate() -> None:
    """Apply the database migrations to MEMGW_DATABASE_URL."""
    settings = _settings()
    if not settings.postgres.database_url:
        raise typer.BadParameter("set MEMGW_DATABASE_URL (the embedded database migrates itself at start)")
    applied = asyncio.run(migrate_dsn(settings.postgres.database_url))
    print(f"applied migrations: {applied or 'none, already up to date'}")


@app.command()
def reindex() -> None:
    """Rebuild the vector index from Postgres (no re-embedding)."""
    settings = _settings()

    async def go() -> int:
        async with open_infra(settings) as infra:
            with Progress(
                TextColumn("reindex"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(), console=console
            ) as bar:
                task = bar.add_task("reindex", total=None)
                return await infra.store.reindex(lambda done, total: bar.update(task, completed=done, total=total))

    count = asyncio.run(go())
    print(f"reindexed {count} memories")
