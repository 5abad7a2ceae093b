"""``memgw sources``: client commands that talk to a running gateway through ``memgw.client`` (so
the same ACL and audit apply as for any agent)."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

from memgw.client import GatewayError, MemoryGateway
from memgw.common.settings import Settings

sources_app = typer.Typer(help="Memory sources of a running gateway.", no_args_is_help=True)
console = Console(stderr=True)
FINAL = ("Completed", "Failed")


@contextmanager
def _gateway() -> Iterator[MemoryGateway]:
    """The configured gateway (MEMGW_URL, MEMGW_API_KEY or the data dir's admin key); a refusal is
    printed with its status and ends the command with 1."""
    settings = Settings()
    key = settings.client.api_key
    key_file = settings.data.data_dir / "admin.key"
    if not key and key_file.exists():
        key = key_file.read_text().strip()
    if not key:
        raise typer.BadParameter("set MEMGW_API_KEY (or run where the data dir holds admin.key)")
    try:
        with MemoryGateway(settings.client.url, api_key=key) as gateway:
            yield gateway
    except GatewayError as exc:
        console.print(f"[red]{exc.status}[/red] {exc.code}: {exc.detail}")
        raise typer.Exit(1) from exc


@sources_app.command("list")
def list_sources() -> None:
    """Sources with their status."""
    with _gateway() as gateway:
        for row in gateway.source_status():
            stage = f" ({row['sync_stage']})" if row.get("sync_stage") else ""
            print(
                f"{row['source_id']:30} {row['kind']:13} {row['freshness']:7} chunks={row['synced_chunks']}"
                f" pending={row['pending_items']}{stage}"
            )


@sources_app.command("import")
def import_sources(path: Path) -> None:
    """Import OpenHuman's config.toml \\[\\[memory_sources]]."""
    with _gateway() as gateway:
        report = gateway.import_openhuman(path.read_text(encoding="utf-8"))
    print(json.dumps(report, indent=2, ensure_ascii=False))
    if report["errors"]:
        raise typer.Exit(1)


@sources_app.command("export")
def export_sources() -> None:
    """Print the sources as OpenHuman's \\[\\[memory_sources]] tables."""
    with _gateway() as gateway:
        sys.stdout.write(gateway.export_openhuman())


@sources_app.command("sync")
def sync(
    source_id: str,
    follow: Annotated[bool, typer.Option("--follow", "-f", help="Show progress until Completed or Failed.")] = False,
) -> None:
    """Queue a sync; with --follow, show a progress bar until it ends."""
    with _gateway() as gateway:
        if not follow:
            print(json.dumps(gateway.sync(source_id), indent=2, default=str))
            return
        run_id, final = None, None
        columns = (
            TextColumn("{task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            TextColumn("{task.fields[detail]}"),
        )
        with Progress(*columns, console=console) as bar:
            task = bar.add_task(source_id, total=None, detail="")
            for event in gateway.events(source_id):
                if event is None:  # the stream is live: now the sync may be requested
                    run_id = gateway.sync(source_id)["id"]
                    continue
                if event["run_id"] != run_id:
                    continue
                counts = event["counts"]
                done = (
                    counts["items_new"] + counts["items_changed"] + counts["items_unchanged"] + counts["items_failed"]
                )
                bar.update(
                    task,
                    completed=done,
                    total=counts["items_seen"] or None,
                    detail=f"{event['stage']} {event.get('detail') or ''}".strip(),
                )
                if event["stage"] in FINAL:
                    final = event
                    break
        if final is None:
            console.print("[red]the event stream ended before the run did[/red]")
            raise typer.Exit(1)
        print(
            f"{final['stage']}: {json.dumps(final['counts'])}"
            + (f" — {final['detail']}" if final.get("detail") else "")
        )
        if final["stage"] == "Failed":
            raise typer.Exit(1)
