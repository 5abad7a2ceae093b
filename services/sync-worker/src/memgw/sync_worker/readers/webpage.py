"""WebPage: fetch one page, keep its main text (or what the CSS ``selector`` picks)."""

from __future__ import annotations

from selectolax.lexbor import LexborHTMLParser

from memgw.common.net import GuardedFetcher
from memgw.common.settings import SourceSettings
from memgw.common.sources import MemorySourceEntry, SourceKind
from memgw.sync_worker.readers.base import ItemError, SourceContent, SourceItem
from memgw.sync_worker.readers.fetch import fetch_document
from memgw.sync_worker.readers.textconv import decode_text, html_to_text

PAGE_ITEM = "page"
_NOISE = "script, style, noscript, template, nav, header, footer, aside, form, svg"


def main_text(html: str, selector: str | None) -> str:
    tree = LexborHTMLParser(html)
    for node in tree.css(_NOISE):
        node.decompose()
    if selector:
        picked = tree.css(selector)
        if not picked:
            raise ItemError(f"the selector {selector!r} matches nothing on the page")
        return "\n\n".join(html_to_text(node.html or "") for node in picked)
    for candidate in ("main", "article", "[role=main]", "body"):
        found = tree.css_first(candidate)
        if found is not None and (found.text(strip=True) or candidate == "body"):
            return html_to_text(found.html or "")
    return html_to_text(html)


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
        text = main_text(raw, str(selector) if selector else None) if is_html else raw
        return SourceContent(item_id=PAGE_ITEM, title=url, text=text)
