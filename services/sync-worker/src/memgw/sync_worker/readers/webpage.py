"""WebPage: fetch one page, keep its main text (or what the CSS ``selector`` picks)."""

from __future__ import annotations

from memgw.common.net import GuardedFetcher
from memgw.common.settings import SourceSettings
from memgw.common.sources import MemorySourceEntry, SourceKind
from memgw.sync_worker.readers.base import ItemError, SourceContent, SourceItem
from memgw.sync_worker.readers.fetch import fetch_document
from memgw.sync_worker.readers.textconv import decode_text, html_to_text

PAGE_ITEM = "page"


class WebPageReader:
    kind = SourceKind.WEB_PAGE

    def __init__(self, settings: SourceSettings, fetcher: GuardedFetcher):
        self._settings = settings
        self._fetcher = fetcher

    async def list_items(self, source: MemorySourceEntry) -> list[SourceItem]:
        return [SourceItem(id=PAGE_ITEM, title=str(source.fields["url"]))]

    async def read_item(self, source: MemorySourceEntry, item_id: str) -> SourceContent:
        if item_id != PAGE_ITEM:
            raise ItemError(f"a WebPage source has one item, {PAGE_ITEM!r}")
        url = str(source.fields["url"])
        answer = await fetch_document(
            self._fetcher, url, accept="text/html, text/plain;q=0.8", cap=self._settings.page_max_bytes, what="page"
        )
        raw = decode_text(answer.content, name=url)
        is_html = "html" in answer.headers.get("content-type", "html") or raw.lstrip()[:1] == "<"
        selector = source.fields.get("selector")
        text = html_to_text(raw, selector=str(selector) if selector else None, page=True) if is_html else raw
        return SourceContent(item_id=PAGE_ITEM, title=url, text=text)
