"""The Obsidian bridge: memories worth a person's eye and review drafts out to a Markdown vault (one
folder per user), the person's decisions and edits back in. One bridge per vault (a lock)."""

from __future__ import annotations

from dataclasses import dataclass

from memgw.common.runtime import Infra, ServiceParts
from memgw.obsidian_bridge.exporter import Exporter
from memgw.obsidian_bridge.importer import Importer
from memgw.obsidian_bridge.router import create_router
from memgw.obsidian_bridge.vault import Vault
from memgw.obsidian_bridge.watch import watch


@dataclass(frozen=True)
class Bridge:
    vault: Vault
    exporter: Exporter
    importer: Importer


def bridge_for(infra: Infra, vault: Vault | None = None) -> Bridge:
    """The bridge's parts; whoever runs them holds the vault's lock (``Vault.acquire``)."""
    settings = infra.settings.vault
    vault = vault or Vault(settings.root(infra.settings.data.data_dir))
    exporter = Exporter(pool=infra.pool, vault=vault, settings=settings, skills=infra.skills)
    importer = Importer(
        pool=infra.pool,
        store=infra.store,
        embedder=infra.embedder,
        layout=infra.layout,
        vault=vault,
        skills=infra.skills,
        exporter=exporter,
    )
    return Bridge(vault, exporter, importer)


def build(infra: Infra) -> ServiceParts:
    bridge = bridge_for(infra)
    bridge.vault.acquire()  # VaultLocked: another bridge serves this vault, and this process stops

    async def run() -> None:
        await bridge.exporter.start()
        await bridge.importer.catch_up()
        await watch(bridge.vault, bridge.importer, infra.settings.vault.vault_debounce_ms)

    async def release() -> None:
        await bridge.exporter.close()
        bridge.vault.release()

    return ServiceParts(
        name="obsidian-bridge",
        router=create_router(infra.layout, infra.broker, bridge.exporter),
        background=[run],
        cleanup=[release],
    )
