"""``memgw sources``: client commands that talk to a running gateway over HTTP (so the same ACL
and audit apply as for any agent)."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated, Any

import httpx
import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

from memgw.common.settings import Settings

sources_app = typer.Typer(help="Memory sources of a running gateway.", no_args_is_help=True)
console = Console(stderr=True)
FINAL = ("Completed", "Failed")


def _client() -> httpx.Client:
    settings = Settings()
    key = settings.client.api_key
    key_file = settings.data.data_dir / "admin.key"
    if not key and key_file.exists():
        key = key_file.read_text().strip()
    if not key:
        raise typer.BadParameter("set MEMGW_API_KEY (or run where the data dir holds admin.key)")
    return httpx.Client(base_url=settings.client.url, headers={"Authorization": f"Bearer {key}"}, timeout=60)


def _check(response: httpx.Response) -> Any:
    if response.status_code >= 400:
        console.print(f"[red]{response.status_code}[/red] {response.text}")
        raise typer.Exit(1)
    return response.json() if "json" in response.headers.get("content-type", "") else response.text


@sources_app.command("list")
def list_sources() -> None:
    """Sources with their status."""
    with _client() as client:
        for row in _check(client.get("/v1/sources/status")):
            stage = f" ({row['sync_stage']})" if row["sync_stage"] else ""
            print(
                f"{row['source_id']:30} {row['kind']:13} {row['freshness']:7} chunks={row['synced_chunks']}"
                f" pending={row['pending_items']}{stage}"
            )


@sources_app.command("import")
def import_sources(path: Path) -> None:
    """Import OpenHuman's config.toml [[memory_sources]]."""
    with _client() as client:
        report = _check(
            client.post(
                "/v1/sources/import", content=path.read_text(encoding="utf-8"), headers={"content-type": "text/plain"}
            )
        )
    print(json.dumps(report, indent=2, ensure_ascii=False))
    if report["errors"]:
        raise typer.Exit(1)


@sources_app.command("export")
def export_sources() -> None:
    """Print the sources as OpenHuman's [[memory_sources]] tables."""
    with _client() as client:
        sys.stdout.write(_check(client.get("/v1/sources/export")))


def _events(client: httpx.Client, source_id: str) -> Any:
    with client.stream("GET", "/v1/events", params={"source_id": source_id}, timeout=None) as stream:
        for line in stream.iter_lines():
            if line.startswith("data: "):
                yield json.loads(line[6:])
            elif line.startswith(": connected"):
                yield None  # the stream is live: now the sync may be requested


@sources_app.command("sync")
def sync(
    source_id: str,
    follow: Annotated[bool, typer.Option("--follow", "-f", help="Show progress until Completed or Failed.")] = False,
) -> None:
    """Queue a sync; with --follow, show a progress bar until it ends."""
    with _client() as client:
        if not follow:
            print(json.dumps(_check(client.post(f"/v1/sources/{source_id}/sync")), indent=2, default=str))
            return
        run_id = None
        columns = (
            TextColumn("{task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            TextColumn("{task.fields[detail]}"),
        )
        with Progress(*columns, console=console) as bar:
            task = bar.add_task(source_id, total=None, detail="")
            for event in _events(client, source_id):
                if event is None:
                    run_id = _check(client.post(f"/v1/sources/{source_id}/sync"))["run"]["id"]
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
                    break
        print(
            f"{event['stage']}: {json.dumps(event['counts'])}"
            + (f" — {event['detail']}" if event.get("detail") else "")
        )
        if event["stage"] == "Failed":
            raise typer.Exit(1)
