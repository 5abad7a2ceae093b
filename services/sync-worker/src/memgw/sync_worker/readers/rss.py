"""RssFeed: RSS and Atom entries (feedparser), at most ``max_items``, the feed capped in size."""

from __future__ import annotations

import calendar
import hashlib
import re
from datetime import UTC, datetime
from typing import Any

import feedparser

from memgw.common.net import GuardedFetcher
from memgw.common.settings import SourceSettings
from memgw.common.sources import MemorySourceEntry, SourceKind
from memgw.sync_worker.readers.base import SourceContent, SourceError, SourceItem
from memgw.sync_worker.readers.fetch import fetch_document
from memgw.sync_worker.readers.listed import ListedContent
from memgw.sync_worker.readers.textconv import html_to_text

DEFAULT_MAX_ITEMS = 50
_SAFE_ID = re.compile(r"[^A-Za-z0-9._~/-]+")


def _item_id(entry: Any) -> str:
    raw = str(entry.get("id") or entry.get("link") or entry.get("title") or "")
    readable = _SAFE_ID.sub("-", raw)[:80].strip("-") or "entry"
    return f"{readable}-{hashlib.sha256(raw.encode()).hexdigest()[:10]}"


def _date(entry: Any) -> datetime | None:
    parsed = entry.get("published_parsed") or entry.get("updated_parsed")
    return datetime.fromtimestamp(calendar.timegm(parsed), UTC) if parsed else None


class RssReader:
    kind = SourceKind.RSS_FEED

    def __init__(self, settings: SourceSettings, fetcher: GuardedFetcher):
        self._settings = settings
        self._fetcher = fetcher
        self._listed = ListedContent()

    async def _entries(self, source: MemorySourceEntry) -> list[SourceContent]:
        url = str(source.fields["url"])
        answer = await fetch_document(
            self._fetcher,
            url,
            accept="application/rss+xml, application/atom+xml",
            cap=self._settings.feed_max_bytes,
            what="feed",
        )
        feed = feedparser.parse(answer.content)
        entries = [e for e in feed.entries if e.get("title") or e.get("summary") or e.get("content")]
        if feed.bozo and not entries:
            raise SourceError(f"malformed feed: {feed.get('bozo_exception', 'unreadable')}")
        if not feed.version and not entries:
            raise SourceError("not an RSS or Atom feed")
        limit = int(source.fields.get("max_items") or DEFAULT_MAX_ITEMS)
        contents = []
        for entry in entries[:limit]:
            body = entry.get("content", [{}])[0].get("value") if entry.get("content") else entry.get("summary", "")
            title = str(entry.get("title", "")).strip()
            text = "\n\n".join(
                part
                for part in (f"# {title}" if title else "", html_to_text(body or ""), str(entry.get("link", "")))
                if part
            )
            contents.append(
                SourceContent(item_id=_item_id(entry), title=title[:200], text=text, updated_at=_date(entry))
            )
        return contents

    async def list_items(self, source: MemorySourceEntry) -> list[SourceItem]:
        return self._listed.remember(source, await self._entries(source))

    async def read_item(self, source: MemorySourceEntry, item_id: str) -> SourceContent:
        return self._listed.recall(source, item_id)
