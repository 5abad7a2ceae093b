"""Readers whose listing already carries each item's content (GitHub, feeds, Composio, Twitter)
keep it for ``read_item`` so one sync makes one pass over the remote API. Only the latest listings
of the most recently listed sources are kept: a worker that serves many sources over months holds a
bounded amount, not every listing it ever made."""

from __future__ import annotations

from collections import OrderedDict

from memgw.common.sources import MemorySourceEntry
from memgw.sync_worker.readers.base import ItemError, SourceContent, SourceItem


class ListedContent:
    def __init__(self, keep_sources: int = 32) -> None:
        self._keep = keep_sources
        self._by_source: OrderedDict[str, dict[str, SourceContent]] = OrderedDict()

    def remember(self, source: MemorySourceEntry, contents: list[SourceContent]) -> list[SourceItem]:
        self._by_source[source.id] = {c.item_id: c for c in contents}
        self._by_source.move_to_end(source.id)
        while len(self._by_source) > self._keep:
            self._by_source.popitem(last=False)
        return [SourceItem(id=c.item_id, title=c.title, updated_at=c.updated_at) for c in contents]

    def recall(self, source: MemorySourceEntry, item_id: str) -> SourceContent:
        try:
            return self._by_source[source.id][item_id]
        except KeyError as exc:
            raise ItemError(f"{item_id}: not in the latest listing of {source.id}; list the source first") from exc
