"""Every call of the API as data (method, path, body, how to read the answer), written once for the
sync and the async client alike; and the one error type."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import httpx


class GatewayError(Exception):
    """The gateway refused or failed: ``status`` (HTTP), ``code`` (e.g. ``forbidden``), ``detail``."""

    def __init__(self, status: int, code: str, detail: str):
        super().__init__(f"{status} {code}: {detail}")
        self.status, self.code, self.detail = status, code, detail


def _json(response: httpx.Response) -> Any:
    return response.json()


@dataclass(frozen=True)
class Call:
    method: str
    path: str
    json: Any = None
    params: dict[str, Any] | None = None
    content: str | None = None
    headers: dict[str, str] = field(default_factory=dict)
    read: Callable[[httpx.Response], Any] = _json

    def request(self, client: httpx.Client | httpx.AsyncClient) -> httpx.Request:
        params = {k: v for k, v in (self.params or {}).items() if v is not None}
        return client.build_request(
            self.method, self.path, json=self.json, params=params, content=self.content, headers=self.headers
        )

    def answer(self, response: httpx.Response) -> Any:
        if response.status_code >= 400:
            try:
                body = response.json()
                code, detail = str(body.get("error", "error")), str(body.get("detail", response.text))
            except ValueError:
                code, detail = "error", response.text
            raise GatewayError(response.status_code, code, detail)
        return self.read(response) if response.content else None


def _given(**values: Any) -> dict[str, Any]:
    return {k: v for k, v in values.items() if v is not None}


def memory_fields(given: dict[str, Any]) -> dict[str, Any]:
    """A client method's keyword arguments (its ``locals()``) as the body fields they name."""
    return {k: v for k, v in given.items() if k not in ("self", "content", "__class__")}


def remember(content: str, **fields: Any) -> Call:
    return Call("POST", "/v1/memory", json=_given(content=content, **fields))


def search(query: str, **options: Any) -> Call:
    return Call("POST", "/v1/memory/search", json=_given(query=query, **options), read=lambda r: r.json()["results"])


def get(memory_id: str) -> Call:
    return Call("GET", f"/v1/memory/{memory_id}")


def update(memory_id: str, version: int | None, changes: dict[str, Any]) -> Call:
    headers = {"If-Match": f'"{version}"'} if version is not None else {}
    return Call("PATCH", f"/v1/memory/{memory_id}", json=changes, headers=headers)


def delete(memory_id: str, version: int | None) -> Call:
    headers = {"If-Match": f'"{version}"'} if version is not None else {}
    return Call("DELETE", f"/v1/memory/{memory_id}", headers=headers)


def history(memory_id: str) -> Call:
    return Call("GET", f"/v1/memory/{memory_id}/history")


def page(cursor: str | None, **filters: Any) -> Call:
    return Call("GET", "/v1/memory", params=_given(cursor=cursor, **filters))


def feedback(memory_id: str, kind: str, comment: str | None) -> Call:
    return Call("POST", f"/v1/memory/{memory_id}/feedback", json=_given(feedback=kind, comment=comment))


def append_episode(session_id: str, content: str, **fields: Any) -> Call:
    return Call("POST", "/v1/episodes", json=_given(session_id=session_id, content=content, **fields))


def commit(session_id: str, **options: Any) -> Call:
    return Call("POST", f"/v1/sessions/{session_id}/commit", json=_given(**options))


def job(job_id: str) -> Call:
    return Call("GET", f"/v1/jobs/{job_id}")


def profile(user_id: str | None) -> Call:
    return Call("GET", f"/v1/users/{user_id}/profile" if user_id else "/v1/me/profile")


def me() -> Call:
    return Call("GET", "/v1/me")


def namespaces() -> Call:
    return Call("GET", "/v1/namespaces")


def source_status() -> Call:
    return Call("GET", "/v1/sources/status")


def sync(source_id: str) -> Call:
    return Call("POST", f"/v1/sources/{source_id}/sync", read=lambda r: r.json()["run"])


def import_openhuman(toml: str) -> Call:
    return Call("POST", "/v1/sources/import", content=toml, headers={"content-type": "text/plain"})


def export_openhuman() -> Call:
    return Call("GET", "/v1/sources/export", read=lambda r: r.text)
