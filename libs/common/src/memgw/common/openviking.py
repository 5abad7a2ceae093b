"""The optional OpenViking adapter (seed 004 §G): accepted memories become resources of an OpenViking
server, and that server can be asked as one more retriever. Off unless MEMGW_OPENVIKING_URL is set.

It speaks OpenViking's HTTP API (``/api/v1/content/write``, ``/api/v1/fs``, ``/api/v1/search/find``)
with a user key of the account the gateway writes into; nothing of OpenViking's (AGPL) is imported.
Every resource carries the tag ``memgw_id=<memory id>``, which is how a hit is read back as a memory;
what a hit names is then re-checked in Postgres like any other candidate, so the adapter never
widens what a key may read. A memory that came from OpenViking (``source`` "openviking" or a
``viking://`` source_ref) is never written back: no import/export loop.
"""

from __future__ import annotations

from typing import Any

import httpx

from memgw.common.domain import MemoryRecord
from memgw.common.logging import get_logger
from memgw.common.settings import OpenVikingSettings
from memgw.common.viking import SCHEME

log = get_logger("memgw.openviking")
ID_TAG = "memgw_id="


class OpenVikingError(RuntimeError):
    """The server refused or failed a call."""


def from_openviking(record: MemoryRecord) -> bool:
    return record.source == "openviking" or (record.source_ref or "").startswith(SCHEME)


class OpenViking:
    def __init__(self, settings: OpenVikingSettings, transport: httpx.AsyncBaseTransport | None = None) -> None:
        assert settings.openviking_url
        self.settings = settings
        headers = {"X-API-Key": settings.openviking_api_key} if settings.openviking_api_key else {}
        self._client = httpx.AsyncClient(
            base_url=settings.openviking_url.rstrip("/") + "/api/v1/",
            headers=headers,
            timeout=settings.openviking_timeout_s,
            transport=transport,
        )

    async def close(self) -> None:
        await self._client.aclose()

    def resource_uri(self, record: MemoryRecord) -> str:
        """Where a memory lives in OpenViking: a note read from the vault at the seed's
        ``viking://resources/user/{user}/obsidian/{note}``, any other under the configured root by
        namespace."""
        if record.source_uri:
            return record.source_uri
        return f"{self.settings.openviking_root.rstrip('/')}/{record.namespace}/{record.id}.md"

    async def _call(self, method: str, path: str, **kwargs: Any) -> Any:
        try:
            response = await self._client.request(method, path, **kwargs)
        except httpx.HTTPError as exc:
            raise OpenVikingError(f"OpenViking {path}: {type(exc).__name__}: {exc}") from exc
        try:
            body = response.json()
        except ValueError:
            body = {}
        if response.status_code == 404:
            return None
        if response.status_code >= 400 or body.get("status") != "ok":
            error = body.get("error") or {}
            raise OpenVikingError(
                f"OpenViking {path}: {response.status_code} {error.get('message', response.text[:200])}"
            )
        return body.get("result")

    async def put(self, record: MemoryRecord) -> str:
        """Write (or rewrite) the memory as a resource, its summary as the heading; return its URI."""
        uri = self.resource_uri(record)
        heading = f"# {record.summary}\n\n" if record.summary else ""
        body = {
            "uri": uri,
            "content": f"{heading}{record.content}\n",
            "mode": "replace",
            "wait": self.settings.openviking_wait,
            "tags": [f"{ID_TAG}{record.id}", f"memgw_namespace={record.namespace}"],
        }
        await self._call("POST", "content/write", json=body)
        return uri

    async def remove(self, uri: str) -> None:
        await self._call("DELETE", "fs", params={"uri": uri})

    async def find(self, query: str, limit: int) -> list[tuple[str, float]]:
        """(memory id, score) of the resources OpenViking finds for ``query``, best first; what is
        not one of ours (no ``memgw_id`` tag: directory abstracts, other data) is left out."""
        result = await self._call("POST", "search/find", json={"query": query, "limit": limit})
        found: list[tuple[str, float]] = []
        for hit in (result or {}).get("resources", []):
            ids = [t[len(ID_TAG) :] for t in hit.get("tags") or [] if isinstance(t, str) and t.startswith(ID_TAG)]
            if ids:
                found.append((ids[0], float(hit.get("score") or 0.0)))
        return found


def openviking_for(settings: OpenVikingSettings) -> OpenViking | None:
    return OpenViking(settings) if settings.openviking_url else None
