"""The two clients: the same calls (``memgw.client.calls``), sent by httpx synchronously or not."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Iterator
from types import TracebackType
from typing import Any, Self, cast

import httpx

from memgw.client import calls
from memgw.client.types import (
    Created,
    Episode,
    Feedback,
    Hit,
    Memory,
    MemoryType,
    Namespace,
    SearchMode,
    SourceStatus,
    Visibility,
)

DEFAULT_TIMEOUT = 60.0


def _headers(api_key: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {api_key}"}


class MemoryGateway:
    """Synchronous client; use it as a context manager or call ``close()``."""

    def __init__(self, url: str, *, api_key: str, timeout: float = DEFAULT_TIMEOUT, transport: Any = None):
        self._http = httpx.Client(base_url=url, headers=_headers(api_key), timeout=timeout, transport=transport)

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *_: type[BaseException] | BaseException | TracebackType | None) -> None:
        self.close()

    def close(self) -> None:
        self._http.close()

    def _do(self, call: calls.Call) -> Any:
        return call.answer(self._http.send(call.request(self._http)))

    def me(self) -> dict[str, Any]:
        return cast(dict[str, Any], self._do(calls.me()))

    def remember(
        self,
        content: str,
        *,
        memory_type: MemoryType = "fact",
        visibility: Visibility = "private",
        workspace_id: str | None = None,
        summary: str | None = None,
        tags: list[str] | None = None,
        importance: float | None = None,
        confidence: float | None = None,
        session_id: str | None = None,
    ) -> Created:
        return cast(Created, self._do(calls.remember(content, **calls.memory_fields(locals()))))

    def search(
        self, query: str, *, limit: int = 10, namespaces: list[str] | None = None, mode: SearchMode = "hybrid"
    ) -> list[Hit]:
        return cast(list[Hit], self._do(calls.search(query, limit=limit, namespaces=namespaces, mode=mode)))

    def get(self, memory_id: str) -> Memory:
        return cast(Memory, self._do(calls.get(memory_id)))

    def update(self, memory_id: str, *, version: int | None = None, **changes: Any) -> Memory:
        return cast(Memory, self._do(calls.update(memory_id, version, changes)))

    def delete(self, memory_id: str, *, version: int | None = None) -> None:
        self._do(calls.delete(memory_id, version))

    def history(self, memory_id: str) -> list[dict[str, Any]]:
        return cast(list[dict[str, Any]], self._do(calls.history(memory_id)))

    def memories(self, **filters: Any) -> Iterator[Memory]:
        """Every memory the key may read (newest first), fetched a page at a time as you iterate."""
        cursor = None
        while True:
            page = self._do(calls.page(cursor, **filters))
            yield from page["items"]
            cursor = page.get("next_cursor")
            if not cursor:
                return

    def feedback(self, memory_id: str, feedback: Feedback, comment: str | None = None) -> dict[str, Any]:
        return cast(dict[str, Any], self._do(calls.feedback(memory_id, feedback, comment)))

    def append_episode(
        self, session_id: str, content: str, *, summary: str = "", tags: list[str] | None = None
    ) -> Episode:
        return cast(Episode, self._do(calls.append_episode(session_id, content, summary=summary, tags=tags)))

    def commit(self, session_id: str, *, min_importance: float | None = None) -> dict[str, Any]:
        return cast(dict[str, Any], self._do(calls.commit(session_id, min_importance=min_importance)))

    def job(self, job_id: str) -> dict[str, Any]:
        return cast(dict[str, Any], self._do(calls.job(job_id)))

    def profile(self, user_id: str | None = None) -> dict[str, Any]:
        return cast(dict[str, Any], self._do(calls.profile(user_id)))

    def namespaces(self) -> list[Namespace]:
        return cast(list[Namespace], self._do(calls.namespaces()))

    def source_status(self) -> list[SourceStatus]:
        return cast(list[SourceStatus], self._do(calls.source_status()))

    def sync(self, source_id: str) -> dict[str, Any]:
        return cast(dict[str, Any], self._do(calls.sync(source_id)))

    def import_openhuman(self, toml: str) -> dict[str, Any]:
        return cast(dict[str, Any], self._do(calls.import_openhuman(toml)))

    def export_openhuman(self) -> str:
        return cast(str, self._do(calls.export_openhuman()))

    def events(self, source_id: str | None = None) -> Iterator[dict[str, Any] | None]:
        """Live sync stage events the key may see; ``None`` first, once the stream is live."""
        params = {"source_id": source_id} if source_id else {}
        with self._http.stream("GET", "/v1/events", params=params, timeout=None) as stream:
            if stream.status_code >= 400:
                stream.read()
                calls.Call("GET", "/v1/events").answer(stream)  # raises GatewayError
            for line in stream.iter_lines():
                if line.startswith(": connected"):
                    yield None
                elif line.startswith("data: "):
                    yield json.loads(line[6:])


class AsyncMemoryGateway:
    """Asynchronous client; ``async with`` it or ``await close()``."""

    def __init__(self, url: str, *, api_key: str, timeout: float = DEFAULT_TIMEOUT, transport: Any = None):
        self._http = httpx.AsyncClient(base_url=url, headers=_headers(api_key), timeout=timeout, transport=transport)

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(self, *_: type[BaseException] | BaseException | TracebackType | None) -> None:
        await self.close()

    async def close(self) -> None:
        await self._http.aclose()

    async def _do(self, call: calls.Call) -> Any:
        return call.answer(await self._http.send(call.request(self._http)))

    async def me(self) -> dict[str, Any]:
        return cast(dict[str, Any], await self._do(calls.me()))

    async def remember(
        self,
        content: str,
        *,
        memory_type: MemoryType = "fact",
        visibility: Visibility = "private",
        workspace_id: str | None = None,
        summary: str | None = None,
        tags: list[str] | None = None,
        importance: float | None = None,
        confidence: float | None = None,
        session_id: str | None = None,
    ) -> Created:
        return cast(Created, await self._do(calls.remember(content, **calls.memory_fields(locals()))))

    async def search(
        self, query: str, *, limit: int = 10, namespaces: list[str] | None = None, mode: SearchMode = "hybrid"
    ) -> list[Hit]:
        return cast(list[Hit], await self._do(calls.search(query, limit=limit, namespaces=namespaces, mode=mode)))

    async def get(self, memory_id: str) -> Memory:
        return cast(Memory, await self._do(calls.get(memory_id)))

    async def update(self, memory_id: str, *, version: int | None = None, **changes: Any) -> Memory:
        return cast(Memory, await self._do(calls.update(memory_id, version, changes)))

    async def delete(self, memory_id: str, *, version: int | None = None) -> None:
        await self._do(calls.delete(memory_id, version))

    async def history(self, memory_id: str) -> list[dict[str, Any]]:
        return cast(list[dict[str, Any]], await self._do(calls.history(memory_id)))

    async def memories(self, **filters: Any) -> AsyncIterator[Memory]:
        """Every memory the key may read (newest first), fetched a page at a time as you iterate."""
        cursor = None
        while True:
            page = await self._do(calls.page(cursor, **filters))
            for item in page["items"]:
                yield item
            cursor = page.get("next_cursor")
            if not cursor:
                return

    async def feedback(self, memory_id: str, feedback: Feedback, comment: str | None = None) -> dict[str, Any]:
        return cast(dict[str, Any], await self._do(calls.feedback(memory_id, feedback, comment)))

    async def append_episode(
        self, session_id: str, content: str, *, summary: str = "", tags: list[str] | None = None
    ) -> Episode:
        return cast(Episode, await self._do(calls.append_episode(session_id, content, summary=summary, tags=tags)))

    async def commit(self, session_id: str, *, min_importance: float | None = None) -> dict[str, Any]:
        return cast(dict[str, Any], await self._do(calls.commit(session_id, min_importance=min_importance)))

    async def job(self, job_id: str) -> dict[str, Any]:
        return cast(dict[str, Any], await self._do(calls.job(job_id)))

    async def profile(self, user_id: str | None = None) -> dict[str, Any]:
        return cast(dict[str, Any], await self._do(calls.profile(user_id)))

    async def namespaces(self) -> list[Namespace]:
        return cast(list[Namespace], await self._do(calls.namespaces()))

    async def source_status(self) -> list[SourceStatus]:
        return cast(list[SourceStatus], await self._do(calls.source_status()))

    async def sync(self, source_id: str) -> dict[str, Any]:
        return cast(dict[str, Any], await self._do(calls.sync(source_id)))

    async def import_openhuman(self, toml: str) -> dict[str, Any]:
        return cast(dict[str, Any], await self._do(calls.import_openhuman(toml)))

    async def export_openhuman(self) -> str:
        return cast(str, await self._do(calls.export_openhuman()))
