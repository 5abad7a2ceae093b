"""Folder: Markdown, HTML and text files under a root, by glob; never a byte outside the root."""

from __future__ import annotations

import asyncio
import os
from datetime import UTC, datetime
from pathlib import Path

from memgw.common.paths import PathOutsideRoot, resolve_within, source_folder
from memgw.common.settings import SourceSettings
from memgw.common.sources import MemorySourceEntry, SourceKind
from memgw.sync_worker.readers.base import ItemError, SourceContent, SourceError, SourceItem
from memgw.sync_worker.readers.textconv import decode_text, html_to_text

DEFAULT_GLOB = "**/*.md"
_HTML = {".html", ".htm"}


def _is_text(name: str) -> bool:
    try:
        name.encode("utf-8")
    except UnicodeEncodeError:  # surrogates stand for bytes that were not UTF-8
        return False
    return "\x00" not in name


class FolderReader:
    kind = SourceKind.FOLDER

    def __init__(self, settings: SourceSettings):
        self._settings = settings

    def _root(self, source: MemorySourceEntry) -> Path:
        try:
            return source_folder(str(source.fields["path"]), self._settings.folder_roots_of(source.owner_user_id))
        except (PathOutsideRoot, OSError) as exc:
            raise SourceError(str(exc)) from exc

    def _list(self, source: MemorySourceEntry) -> list[SourceItem]:
        root = self._root(source)
        pattern = str(source.fields.get("glob") or DEFAULT_GLOB)
        if Path(pattern).is_absolute() or ".." in Path(pattern).parts:
            raise SourceError(f"glob {pattern!r} must stay inside the folder")
        items = []
        for path in sorted(root.glob(pattern)):
            try:
                real = resolve_within(root, path)  # a symlink out of the root is skipped
                if not real.is_file():
                    continue
                stat = real.stat()
            except (PathOutsideRoot, OSError):
                continue
            name = path.relative_to(root).as_posix()
            if not _is_text(name):  # a name that is not UTF-8 (or holds NUL) is named, never read
                shown = os.fsencode(name).decode("utf-8", "backslashreplace").replace("\x00", "\\x00")
                items.append(SourceItem(id=shown, title=shown, error="file name is not valid UTF-8 text"))
                continue
            items.append(
                SourceItem(
                    id=name,
                    title=path.name,
                    updated_at=datetime.fromtimestamp(stat.st_mtime, UTC),
                    size=stat.st_size,
                )
            )
        return items

    def _read(self, source: MemorySourceEntry, item_id: str) -> SourceContent:
        root = self._root(source)
        try:
            path = resolve_within(root, item_id)
        except PathOutsideRoot as exc:
            raise ItemError(str(exc)) from exc
        if not path.is_file():
            raise ItemError(f"{item_id}: no such file")
        cap = self._settings.folder_max_file_bytes
        with path.open("rb") as f:
            data = f.read(cap + 1)
        if len(data) > cap:
            raise ItemError(f"{item_id}: larger than {cap} bytes")
        text = decode_text(data, name=item_id)
        if path.suffix.lower() in _HTML:
            text = html_to_text(text)
        return SourceContent(
            item_id=item_id,
            title=path.name,
            text=text,
            updated_at=datetime.fromtimestamp(path.stat().st_mtime, UTC),
        )

    async def list_items(self, source: MemorySourceEntry) -> list[SourceItem]:
        return await asyncio.to_thread(self._list, source)

    async def read_item(self, source: MemorySourceEntry, item_id: str) -> SourceContent:
        return await asyncio.to_thread(self._read, source, item_id)
