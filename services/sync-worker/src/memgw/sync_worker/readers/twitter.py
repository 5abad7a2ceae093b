"""TwitterQuery: a saved search. The reader exists; a sync fails with a clear "not configured"
error until a bearer token is configured (seed 000), and then reads the recent-search API."""

from __future__ import annotations

import json
from datetime import datetime
from urllib.parse import quote

from memgw.common.net import GuardedFetcher, OutboundRefused
from memgw.common.settings import SourceSettings
from memgw.common.sources import MemorySourceEntry, SourceKind
from memgw.sync_worker.readers.base import SourceContent, SourceError, SourceItem, operator_credential
from memgw.sync_worker.readers.listed import ListedContent


class TwitterReader:
    kind = SourceKind.TWITTER_QUERY

    def __init__(self, settings: SourceSettings, fetcher: GuardedFetcher):
        self._settings = settings
        self._fetcher = fetcher
        self._listed = ListedContent()

    async def _tweets(self, source: MemorySourceEntry) -> list[SourceContent]:
        if not self._settings.twitter_bearer_token:
            raise SourceError("TwitterQuery is not configured: set MEMGW_TWITTER_BEARER_TOKEN to sync it")
        token = operator_credential(
            self._settings, "MEMGW_TWITTER_BEARER_TOKEN", self._settings.twitter_bearer_token, source
        )
        url = (
            f"{self._settings.twitter_api_url.rstrip('/')}/2/tweets/search/recent?query="
            f"{quote(str(source.fields['query']))}&max_results=50&tweet.fields=created_at,author_id"
        )
        try:
            answer = await self._fetcher.fetch(url, headers={"Authorization": f"Bearer {token}"})
        except OutboundRefused as exc:
            raise SourceError(str(exc)) from exc
        if answer.status_code != 200:
            raise SourceError(f"Twitter answered {answer.status_code}: {answer.text[:200]}")
        data = json.loads(answer.content).get("data", [])
        return [
            SourceContent(
                item_id=f"tweet:{t['id']}",
                title=t.get("text", "")[:80],
                text=t.get("text", ""),
                updated_at=datetime.fromisoformat(t["created_at"].replace("Z", "+00:00"))
                if t.get("created_at")
                else None,
            )
            for t in data
            if isinstance(t, dict) and t.get("id")
        ]

    async def list_items(self, source: MemorySourceEntry) -> list[SourceItem]:
        return self._listed.remember(source, await self._tweets(source))

    async def read_item(self, source: MemorySourceEntry, item_id: str) -> SourceContent:
        return self._listed.recall(source, item_id)
