"""Readers whose listing already carries each item's content (GitHub, feeds, Composio, Twitter)
keep it for ``read_item`` so one sync makes one pass over the remote API."""

from __future__ import annotations

from memgw.common.sources import MemorySourceEntry
from memgw.sync_worker.readers.base import ItemError, SourceContent, SourceItem


class ListedContent:
    def __init__(self) -> None:
        self._by_source: dict[str, dict[str, SourceContent]] = {}

    def remember(self, source: MemorySourceEntry, contents: list[SourceContent]) -> list[SourceItem]:
        self._by_source[source.id] = {c.item_id: c for c in contents}
        return [SourceItem(id=c.item_id, title=c.title, updated_at=c.updated_at) for c in contents]

    def recall(self, source: MemorySourceEntry, item_id: str) -> SourceContent:
        try:
            return self._by_source[source.id][item_id]
        except KeyError as exc:
            raise ItemError(f"{item_id}: not in the latest listing of {source.id}; list the source first") from exc
