"""The reader interface every source kind implements (seed 000: ``SourceReader``)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Protocol

from memgw.common.sources import MemorySourceEntry, SourceKind


class ItemError(Exception):
    """One item could not be read; the run counts and names it and goes on."""


class SourceError(Exception):
    """The source as a whole cannot be read (missing folder, not configured ...): the run fails."""


@dataclass(frozen=True)
class SourceItem:
    id: str
    title: str
    updated_at: datetime | None = None
    size: int | None = None


@dataclass(frozen=True)
class SourceContent:
    item_id: str
    title: str
    text: str
    updated_at: datetime | None = None


class SourceReader(Protocol):
    kind: SourceKind

    async def list_items(self, source: MemorySourceEntry) -> list[SourceItem]: ...

    async def read_item(self, source: MemorySourceEntry, item_id: str) -> SourceContent: ...
