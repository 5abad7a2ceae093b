"""A small client of Composio's HTTP API (v3), through the outbound guard.

Used by the gateway (a new connection becomes a source; listing reconciles older ones) and by the
sync-worker's Composio reader (fetching a connection's data through Composio tools).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote, urlencode

from memgw.common.net import GuardedFetcher


class ComposioError(Exception):
    pass


def _segment(value: str) -> str:
    """One path segment, encoded: an id never reaches another path of the API ('../..' stays an id)."""
    if not value or value in (".", ".."):
        raise ComposioError(f"{value!r} is not an id")
    return quote(value, safe="")


@dataclass(frozen=True)
class Connection:
    id: str
    toolkit: str
    status: str
    user_id: str | None


class ComposioClient:
    def __init__(self, fetcher: GuardedFetcher, base_url: str, api_key: str | None):
        self._fetcher = fetcher
        self._base = base_url.rstrip("/")
        self._api_key = api_key

    @property
    def configured(self) -> bool:
        return bool(self._api_key)

    async def _call(self, path: str, *, method: str = "GET", body: Any = None) -> Any:
        if not self._api_key:
            raise ComposioError("Composio is not configured: set MEMGW_COMPOSIO_API_KEY")
        answer = await self._fetcher.fetch(
            f"{self._base}{path}", method=method, json=body, headers={"x-api-key": self._api_key}
        )
        if answer.status_code >= 400:
            raise ComposioError(f"Composio answered {answer.status_code}: {answer.text[:300]}")
        try:
            return json.loads(answer.content)
        except ValueError as exc:
            raise ComposioError(f"Composio answered something that is not JSON: {exc}") from exc

    @staticmethod
    def _connection(item: dict[str, Any]) -> Connection:
        toolkit = item.get("toolkit") or {}
        return Connection(
            id=str(item["id"]),
            toolkit=str(toolkit.get("slug", "")).lower(),
            status=str(item.get("status", "")),
            user_id=item.get("user_id"),
        )

    async def connections(self, user_id: str) -> list[Connection]:
        found: list[Connection] = []
        cursor: str | None = None
        for _ in range(20):  # pages
            params = {"user_ids": user_id, "limit": "100", **({"cursor": cursor} if cursor else {})}
            query = f"/api/v3/connected_accounts?{urlencode(params)}"
            page = await self._call(query)
            found += [self._connection(item) for item in page.get("items", [])]
            cursor = page.get("next_cursor")
            if not cursor:
                break
        return found

    async def connection(self, connection_id: str) -> Connection:
        return self._connection(await self._call(f"/api/v3/connected_accounts/{_segment(connection_id)}"))

    async def execute(self, tool: str, connection_id: str, arguments: dict[str, Any]) -> Any:
        answer = await self._call(
            f"/api/v3/tools/execute/{_segment(tool)}",
            method="POST",
            body={"connected_account_id": connection_id, "arguments": arguments},
        )
        if not answer.get("successful", False):
            raise ComposioError(f"{tool} failed: {answer.get('error') or 'no reason given'}")
        return answer.get("data") or {}
