"""Watching the vault (watchfiles): a file is read once it has been quiet for the debounce, so a
half-written save or an editor's burst of writes is read once, whole."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import watchfiles

from memgw.common.logging import get_logger
from memgw.obsidian_bridge.importer import Importer
from memgw.obsidian_bridge.vault import Vault, is_note

log = get_logger("memgw.obsidian_bridge.watch")


def _files(path: Path) -> Iterator[Path]:
    """The path itself, or, for a folder that just appeared, every file in it: files written into a
    new folder before the watcher has a watch on it raise no event of their own."""
    if path.is_dir():
        yield from sorted(p for p in path.rglob("*.md") if p.is_file())
    else:
        yield path


async def watch(vault: Vault, importer: Importer, debounce_ms: int) -> None:
    async for changes in watchfiles.awatch(vault.root, debounce=debounce_ms, step=50, recursive=True):
        for path in sorted({f for _, p in changes for f in _files(Path(p))}):
            located = vault.locate(path)
            if located is None or not is_note(located[1]):
                continue
            try:
                await importer.apply(*located)
            except Exception:  # one bad note must not stop the watcher; the next save tries again
                log.exception("vault.apply_failed", path=str(path))
