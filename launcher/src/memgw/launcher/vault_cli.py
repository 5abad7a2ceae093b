"""``memgw vault export|import|status``: the Obsidian vault for a person at a terminal.

``export`` and ``import`` take the vault's lock: while a bridge runs (``memgw up``) it does both by
itself, and these refuse rather than race it. ``status`` only reads files and works either way."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Annotated

import typer

from memgw.common.principals import user_ids
from memgw.common.settings import Settings
from memgw.launcher.runtime import open_infra, run_services
from memgw.obsidian_bridge.main import bridge_for
from memgw.obsidian_bridge.vault import ERROR_SUFFIX, UserVault, Vault, VaultLocked, digest

vault_app = typer.Typer(
    help="The Obsidian vault: export notes, import a person's changes, status.", no_args_is_help=True
)
UserOption = Annotated[str | None, typer.Option(help="Only this user's vault.")]


def _run(work: str, user: str | None) -> dict[str, object]:
    settings = Settings()
    # A one-shot command has no searches to keep fast: its embedding must not yield to every other
    # process on a busy machine (the service's passage lane runs at the lowest priority).
    settings.embedder.embedding_passage_niceness = 0
    vault = Vault(settings.vault.root(settings.data.data_dir))
    try:
        vault.acquire()  # before anything else is opened: a running system holds its files
    except VaultLocked as exc:
        raise typer.BadParameter(f"{exc}: it exports and imports by itself while it runs") from exc

    async def go() -> dict[str, object]:
        async with open_infra(settings) as infra, run_services(infra, []):  # the outbox relay publishes decisions
            bridge = bridge_for(infra, vault)
            if work == "export":
                users = [user] if user else await user_ids(infra.pool)
                return {u: await bridge.exporter.export_user(u) for u in users}
            return dict(await bridge.importer.catch_up())

    try:
        return asyncio.run(go())
    finally:
        vault.release()


@vault_app.command("export")
def export(user: UserOption = None) -> None:
    """Write every note the vault should hold now (memories looked at, per user)."""
    print(json.dumps(_run("export", user), indent=2, ensure_ascii=False))


@vault_app.command("import")
def import_() -> None:
    """Apply what people changed in the vault (decisions, edits, new notes); outcomes counted."""
    print(json.dumps(_run("import", None), indent=2, ensure_ascii=False))


def _waiting(uv: UserVault, rel: Path) -> bool:
    """Changed since the bridge wrote or applied it, or a new note not taken in yet."""
    entry = uv.manifest.get(str(rel))
    if entry is None:
        return rel.parts[:3] == ("Users", uv.user_id, "LongTerm")
    return entry.sha != digest(uv.read(rel) or "")


@vault_app.command("status")
def status(user: UserOption = None) -> None:
    """Per user: notes the bridge wrote, drafts waiting, notes changed but not applied yet, errors."""
    settings = Settings()
    vault = Vault(settings.vault.root(settings.data.data_dir))
    report = {}
    for user_id in [user] if user else vault.existing_users():
        uv = vault.user(user_id)
        changed = [str(rel) for rel in uv.notes() if _waiting(uv, rel)]
        report[user_id] = {
            "notes": len(uv.manifest),
            "drafts_waiting": len(list((uv.root / "Reviews/Queue").glob("*.md"))),
            "changed_not_applied": changed,
            "errors": sorted(str(p.relative_to(uv.root)) for p in uv.root.rglob(f"*{ERROR_SUFFIX}")),
        }
    print(json.dumps({"vault": str(vault.root), "users": report}, indent=2, ensure_ascii=False))
