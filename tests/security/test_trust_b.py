"""Issue "Trust B": inputs that used to answer 500 answer a clear 4xx; body limits hold on the
stream whatever its framing; anything unforeseen is a logged 500 with a correlation id and no stack;
the outbound guard's address table."""

from __future__ import annotations

import asyncio
import base64
import ipaddress
import json
import os
import uuid
from collections.abc import AsyncIterator
from typing import Any

import pytest

from memgw.common.events import AccessChanged, Subject
from memgw.common.logging import current_correlation_id
from memgw.common.net import is_public
from memgw.gateway import memory_service
from memgw.gateway.identity import KeyRing, hash_key
from tests.conftest import System

NUL = "\x00"


@pytest.fixture
async def key(system: System) -> str:
    return await system.user(f"tb_{uuid.uuid4().hex[:8]}")


def _cursor(created: Any, key: Any) -> str:
    return base64.urlsafe_b64encode(json.dumps([created, key]).encode()).decode().rstrip("=")


NOW = "2026-01-01T00:00:00+00:00"
# (method, path, json body or None, query params or None)
BAD_INPUTS: list[tuple[str, str, Any, Any]] = [
    ("POST", "/v1/memory", {"content": f"a{NUL}b"}, None),
    ("POST", "/v1/memory", {"content": "x", "summary": f"s{NUL}"}, None),
    ("POST", "/v1/memory", {"content": "x", "tags": [f"t{NUL}"]}, None),
    ("POST", "/v1/memory", {"content": "x", "metadata": {f"k{NUL}": 1}}, None),
    ("POST", "/v1/memory", {"content": "x", "metadata": {"k": f"v{NUL}"}}, None),
    ("POST", "/v1/memory", {"content": "x", "metadata": {"k": float("nan")}}, None),
    ("POST", "/v1/memory", {"content": "x", "metadata": {"k": float("inf")}}, None),
    ("POST", "/v1/memory", {"content": "x", "metadata": {"k": 2**70}}, None),
    ("POST", "/v1/memory", {"content": "x", "source": f"s{NUL}"}, None),
    ("POST", "/v1/memory", {"content": "x", "expires_at": "9999-12-31T23:59:59-12:00"}, None),
    ("POST", "/v1/memory", {"content": "x", "expires_at": "0001-01-01T00:00:00+14:00"}, None),
    ("POST", "/v1/memory/search", {"query": f"q{NUL}"}, None),
    ("POST", "/v1/memory/search", {"query": "q", "namespaces": [f"n{NUL}"]}, None),
    ("GET", "/v1/memory", None, {"namespace": f"n{NUL}"}),
    ("GET", "/v1/memory", None, {"tags": [f"t{NUL}"]}),
    ("GET", "/v1/memory", None, {"memory_type": f"t{NUL}"}),
    ("GET", "/v1/memory", None, {"until": "9999-12-31T23:59:59-12:00"}),
    ("GET", "/v1/memory", None, {"since": "0001-01-01T00:00:00+14:00"}),
    ("GET", "/v1/memory", None, {"cursor": _cursor(NOW, 17)}),
    ("GET", "/v1/memory", None, {"cursor": _cursor(NOW, [1])}),
    ("GET", "/v1/memory", None, {"cursor": _cursor("0001-01-01T00:00:00", "m")}),
    ("GET", "/v1/memory", None, {"cursor": "!!!"}),
    ("GET", "/v1/audit", None, {"cursor": _cursor(NOW, "not-an-int")}),
    ("GET", "/v1/audit", None, {"actor": f"a{NUL}"}),
    ("GET", "/v1/audit", None, {"until": "9999-12-31T23:59:59-12:00"}),
    ("GET", "/v1/users", None, {"cursor": _cursor(NOW, 5)}),
    ("GET", "/v1/memory/mem%00x", None, None),
    ("PATCH", "/v1/memory/mem%00x", {"content": "x"}, None),
    ("POST", "/v1/episodes", {"session_id": "s1", "content": f"e{NUL}"}, None),
    ("POST", "/v1/sources", {"id": "f1", "kind": "Folder", "fields": {"path": f"/tmp/a{NUL}b"}}, None),
    ("POST", "/v1/sources", {"id": "f2", "kind": "Folder", "fields": {"path": "/tmp"}, "label": f"l{NUL}"}, None),
    (
        "POST",
        "/v1/sources",
        {"id": "f3", "kind": "RssFeed", "fields": {"url": "https://x.y/"}, "max_tokens_per_sync": 2**70},
        None,
    ),
    (
        "POST",
        "/v1/sources",
        {"id": "f4", "kind": "RssFeed", "fields": {"url": "https://x.y/"}, "sync_depth_days": 2**40},
        None,
    ),
    ("POST", "/v1/sources", {"id": "f5", "kind": "RssFeed", "fields": {"url": {"a": {"b": 1}}}}, None),
    ("POST", "/v1/reviews/rev_x/decision", {"decision": "edit", "edited_content": f"x{NUL}"}, None),
    ("GET", "/v1/reviews", None, {"status": f"open{NUL}"}),
]


@pytest.mark.parametrize(
    ("method", "path", "body", "params"), BAD_INPUTS, ids=[f"{m} {p} #{n}" for n, (m, p, _, _) in enumerate(BAD_INPUTS)]
)
async def test_bad_input_is_a_clear_4xx(
    system: System, key: str, method: str, path: str, body: Any, params: Any
) -> None:
    content = None if body is None else json.dumps(body).encode()  # json.dumps writes NaN and Infinity as given
    as_key = None if path == "/v1/users" else key  # the admin lists users with cursors
    response = await system.client.request(
        method,
        path,
        content=content,
        params=params,
        headers={**system.auth(as_key), "content-type": "application/json"},
    )
    assert 400 <= response.status_code < 500, response.text
    assert set(response.json()) == {"error", "detail"}


async def test_nested_tables_in_an_import_are_reported_not_a_crash(system: System, key: str) -> None:
    toml = '[[memory_sources]]\nid = "n1"\nkind = "RssFeed"\nurl = "https://x.y/"\n[memory_sources.extra]\na = 1\n'
    answer = await system.client.post(
        "/v1/sources/import", content=toml, headers={**system.auth(key), "content-type": "text/plain"}
    )
    assert answer.status_code == 200, answer.text
    assert answer.json()["errors"][0]["id"] == "n1"


async def _chunks(data: bytes, size: int = 64 * 1024) -> AsyncIterator[bytes]:
    for start in range(0, len(data), size):
        yield data[start : start + size]


@pytest.mark.parametrize(
    ("path", "content_type", "payload"),
    [
        ("/v1/memory", "application/json", json.dumps({"content": "x" * 3_000_000}).encode()),
        (
            "/v1/sources/import",
            "text/plain",
            b'[[memory_sources]]\nid = "big"\nkind = "Folder"\npath = "' + b"x" * 3_000_000 + b'"\n',
        ),
        ("/mcp", "application/json", json.dumps({"jsonrpc": "2.0", "id": 1, "method": "x" * 3_000_000}).encode()),
    ],
)
async def test_the_body_limit_holds_for_chunked_bodies(
    system: System, key: str, path: str, content_type: str, payload: bytes
) -> None:
    headers = {**system.auth(key), "content-type": content_type, "accept": "application/json, text/event-stream"}
    answer = await system.client.post(path, content=_chunks(payload), headers=headers)
    assert answer.status_code == 413, answer.text[:300]
    sized = await system.client.post(path, content=payload, headers=headers)
    assert sized.status_code == 413


async def test_a_body_under_the_limit_still_arrives_whole_when_chunked(system: System, key: str) -> None:
    text = ("分块传输的内容 " * 2000)[:6000]
    answer = await system.client.post(
        "/v1/memory",
        content=_chunks(json.dumps({"content": text}).encode(), 1000),
        headers={**system.auth(key), "content-type": "application/json"},
    )
    assert answer.status_code == 201, answer.text
    stored = await system.client.get(f"/v1/memory/{answer.json()['id']}", headers=system.auth(key))
    assert stored.json()["content"] == text


async def test_every_answer_carries_its_correlation_id_and_the_requests_log_lines_carry_it_too(
    system: System, key: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen: list[str | None] = []

    async def listing(*_: Any, **__: Any) -> dict[str, Any]:
        seen.append(current_correlation_id())  # what the request's log lines are bound to
        return {"items": [], "next_cursor": None}

    monkeypatch.setattr(memory_service.Memories, "list_memories", listing)
    given = await system.client.get("/v1/memory", headers={**system.auth(key), "X-Correlation-ID": "cid-given"})
    assert given.status_code == 200, given.text
    assert given.headers["X-Correlation-ID"] == "cid-given"
    fresh = await system.client.get("/v1/memory", headers=system.auth(key))
    made = fresh.headers["X-Correlation-ID"]
    assert made
    assert made != "cid-given"
    assert seen == ["cid-given", made]


async def test_an_unforeseen_error_is_a_logged_500_with_a_correlation_id_and_no_stack(
    system: System, key: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def broken(*_: Any, **__: Any) -> None:
        raise RuntimeError("something nobody foresaw")

    monkeypatch.setattr(memory_service.Memories, "list_memories", broken)
    answer = await system.client.get("/v1/memory", headers={**system.auth(key), "X-Correlation-ID": "cid-trust-b"})
    assert answer.status_code == 500
    assert answer.json()["error"] == "internal"
    assert "cid-trust-b" in answer.json()["detail"]
    assert "Traceback" not in answer.text
    assert "something nobody foresaw" not in answer.text


# The outbound guard's address table (#8): Python's is_global plus IPv4 addresses carried inside IPv6.
ADDRESSES = [
    ("8.8.8.8", True),
    ("2606:4700:4700::1111", True),
    ("127.0.0.1", False),
    ("10.1.2.3", False),
    ("169.254.169.254", False),
    ("100.100.100.200", False),  # shared address space (100.64/10): a cloud's metadata service
    ("100.64.0.1", False),
    ("192.0.2.1", False),  # documentation
    ("0.0.0.0", False),
    ("224.0.0.1", False),
    ("::1", False),
    ("fe80::1", False),
    ("fc00::1", False),
    ("::ffff:127.0.0.1", False),  # IPv4-mapped
    ("::ffff:8.8.8.8", True),
    ("::127.0.0.1", False),  # IPv4-compatible
    ("2002:7f00:1::", False),  # 6to4 of 127.0.0.1
    ("2002:a9fe:a9fe::1", False),  # 6to4 of 169.254.169.254
    ("2002:0808:0808::1", True),  # 6to4 of 8.8.8.8
    ("64:ff9b::a9fe:a9fe", False),  # NAT64 of 169.254.169.254
    ("64:ff9b::0a00:0001", False),  # NAT64 of 10.0.0.1
    ("64:ff9b:1::a00:1", False),  # local-use NAT64
    ("2001:0:4136:e378:8000:63bf:3fff:fdd2", False),  # Teredo
]


@pytest.mark.unit
@pytest.mark.parametrize(("address", "public"), ADDRESSES)
def test_the_outbound_guard_knows_which_addresses_are_public(address: str, public: bool) -> None:
    assert is_public(ipaddress.ip_address(address)) is public


# 3 and 4: bounded, fair embedding; no timing that tells one tenant about another ---------------------------


@pytest.mark.parametrize("text", ["😀" * 32_000, "长" * 9_000, "ab " * 10_000])
async def test_content_is_limited_in_tokens_and_the_answer_names_the_limit(system: System, key: str, text: str) -> None:
    answer = await system.client.post("/v1/memory", json={"content": text}, headers=system.auth(key))
    assert answer.status_code == 422, answer.text[:200]
    assert "8192" in answer.text


def test_the_embedder_reads_no_further_than_its_window(system: System) -> None:
    inner = system.infra.embedder.inner  # type: ignore[attr-defined]
    for text in ("x" * 8_000, "中文内容" * 2_000, "😀" * 5_000, "short"):
        fitted = inner.fit_window(text)
        assert text.startswith(fitted)
        assert inner._model.token_count(fitted) <= 512
    assert inner.fit_window("short") == "short"


async def test_stored_embeddings_are_reused_only_within_one_tenant(
    system: System, passages_embedded: list[str]
) -> None:
    embedded = passages_embedded
    guess = f"the locker is number {uuid.uuid4().hex[:6]}"
    a = await system.user(f"tn_{uuid.uuid4().hex[:8]}")
    b = await system.user(f"tn_{uuid.uuid4().hex[:8]}")
    for who in (a, b, b):
        assert (
            await system.client.post("/v1/memory", json={"content": guess}, headers=system.auth(who))
        ).status_code == 201
    assert embedded.count(guess) == 2  # once for each tenant, never across


@pytest.mark.unit
async def test_the_query_cache_is_kept_per_asker() -> None:
    from memgw.common.embedding.base import QueryCache

    calls: list[str] = []

    class Counting:
        name, dim, shares_cores = "counting", 2, False

        async def embed_passages(self, texts: Any) -> list[list[float]]:
            return [[0.0, 1.0] for _ in texts]

        async def embed_query(self, text: str, *, scope: str = "") -> list[float]:
            calls.append(text)
            return [1.0, 0.0]

        async def close(self) -> None:
            return None

    cache = QueryCache(Counting())
    await cache.embed_query("what did alice ask", scope="alice")
    await cache.embed_query("what did alice ask", scope="alice")
    await cache.embed_query("what did alice ask", scope="mallory")
    assert calls == ["what did alice ask", "what did alice ask"]


# 5: a bad item fails only itself -----------------------------------------------------------------------------


async def test_a_file_name_that_is_not_utf8_fails_only_itself(
    system: System, key: str, files_dir: Any, stage_watcher: Any
) -> None:
    (files_dir / "good.md").write_text("# Good\n\n好的文件内容 good content", encoding="utf-8")
    os.close(os.open(os.fsencode(files_dir) + b"/bad-\xff\xfe.md", os.O_CREAT | os.O_WRONLY, 0o644))
    (files_dir / "nul.md").write_bytes(b"# Nul\n\nbefore\x00after")
    source_id = f"badnames-{uuid.uuid4().hex[:6]}"
    await system.folder_source(key, source_id, files_dir)
    listed = await system.client.get(f"/v1/sources/{source_id}/items", headers=system.auth(key))
    assert listed.status_code == 200, listed.text
    errors = {item["id"]: item["error"] for item in listed.json()}
    assert errors["good.md"] is None
    assert [e for i, e in errors.items() if i.startswith("bad-")] == ["file name is not valid UTF-8 text"]
    final = await system.sync(key, source_id, stage_watcher)
    assert final["stage"] == "Completed", final
    assert final["counts"]["items_failed"] == 2  # the odd name, and the file of binary content
    assert any("not valid UTF-8" in f for f in final["failed_items"])
    rows = await system.infra.pool.fetch("SELECT content FROM memories WHERE source_id = $1", source_id)
    contents = " ".join(r["content"] for r in rows)
    assert "好的文件内容" in contents
    again = await system.sync(key, source_id, stage_watcher)  # and the next sync of the folder is fine too
    assert again["stage"] == "Completed"


async def test_an_upstream_that_refuses_connections_fails_the_run_not_the_worker(
    system: System, key: str, stage_watcher: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from memgw.launcher.embedded.process import free_port

    port = free_port()  # nothing listens there
    body = {"id": f"dead-{uuid.uuid4().hex[:6]}", "kind": "RssFeed", "fields": {"url": f"http://127.0.0.1:{port}/feed"}}
    assert (await system.client.post("/v1/sources", json=body, headers=system.auth(key))).status_code == 201
    final = await system.sync(key, body["id"], stage_watcher)
    assert final["stage"] == "Failed"
    assert final["detail"]
    preview = await system.client.get(f"/v1/sources/{body['id']}/items", headers=system.auth(key))
    assert preview.status_code == 400, preview.text


@pytest.mark.unit
def test_nul_characters_from_upstream_are_dropped_before_the_store() -> None:
    from memgw.sync_worker.readers.base import SourceContent
    from memgw.sync_worker.service import _clean

    cleaned = _clean(SourceContent(item_id="i", title="t\x00", text="issue body\x00 with NUL"))
    assert (cleaned.title, cleaned.text) == ("t", "issue body with NUL")


# 6: live streams outlive neither their key nor their rights --------------------------------------------------


async def _closing_reason(system: System, key: str, opened: asyncio.Event) -> str:
    """Follow an SSE stream until it closes; return the reason it gave."""
    event = None
    async with system.client.stream("GET", "/v1/events", headers=system.auth(key), timeout=None) as stream:
        async for line in stream.aiter_lines():
            if line.startswith(": connected"):
                opened.set()
            elif line.startswith("event: "):
                event = line[7:]
            elif line.startswith("data: ") and event == "closed":
                return str(json.loads(line[6:])["reason"])
    return ""


async def test_a_stream_closes_with_its_reason_when_its_key_is_revoked(system: System) -> None:
    user = f"sse_{uuid.uuid4().hex[:6]}"
    await system.user(user)
    created = await system.admin("POST", "/v1/keys", json={"user_id": user})
    opened = asyncio.Event()
    follow = asyncio.create_task(_closing_reason(system, created["api_key"], opened))
    await asyncio.wait_for(opened.wait(), 10)
    await system.admin("DELETE", f"/v1/keys/{created['id']}")
    reason = await asyncio.wait_for(follow, 10)
    assert "revoked" in reason


async def test_a_stream_closes_when_its_member_leaves_the_workspace(system: System) -> None:
    s = uuid.uuid4().hex[:6]
    owner, member = f"wso_{s}", f"wsm_{s}"
    owner_key, member_key = await system.user(owner), await system.user(member)
    await system.client.post(
        "/v1/workspaces", json={"workspace_id": f"wss_{s}", "member_user_ids": [member]}, headers=system.auth(owner_key)
    )
    await system.client.post(f"/v1/workspaces/wss_{s}/join", headers=system.auth(member_key))
    opened = asyncio.Event()
    follow = asyncio.create_task(_closing_reason(system, member_key, opened))
    await asyncio.wait_for(opened.wait(), 10)
    left = await system.client.delete(f"/v1/workspaces/wss_{s}/members/{member}", headers=system.auth(member_key))
    assert left.status_code == 200
    reason = await asyncio.wait_for(follow, 10)
    assert "access changed" in reason


async def test_the_periodic_recheck_closes_a_stream_whose_key_was_revoked_behind_its_back(system: System) -> None:
    user = f"tick_{uuid.uuid4().hex[:6]}"
    await system.user(user)
    created = await system.admin("POST", "/v1/keys", json={"user_id": user})
    opened = asyncio.Event()
    follow = asyncio.create_task(_closing_reason(system, created["api_key"], opened))
    await asyncio.wait_for(opened.wait(), 10)
    # Revoked straight in the database (another gateway's announcement lost): the next check finds it.
    await system.infra.pool.execute("UPDATE api_keys SET revoked_at = now() WHERE id = $1", created["id"])
    await system.app.state.services.stage_relay.recheck()
    assert "revoked" in await asyncio.wait_for(follow, 10)


# -- principals remembered: forgotten whenever rights change -------------------------------------------------


async def _revoked_behind_the_api(system: System, key: str) -> None:
    await system.infra.pool.execute("UPDATE api_keys SET revoked_at = now() WHERE key_hash = $1", hash_key(key))


async def test_a_remembered_principal_is_forgotten_when_rights_change_and_a_refused_key_never_is(
    system: System,
) -> None:
    key = await system.user(f"ring_{uuid.uuid4().hex[:6]}")
    ring = KeyRing(system.infra.pool, known_s=3600)
    assert await ring.principal("mgw_not-a-key") is None
    assert (await ring.principal(key)) is not None
    await _revoked_behind_the_api(system, key)
    assert (await ring.principal(key)) is not None  # remembered: nothing said that rights changed
    ring.forget()
    assert await ring.principal(key) is None


async def test_a_remembered_principal_is_resolved_again_after_its_time(system: System) -> None:
    key = await system.user(f"ring_{uuid.uuid4().hex[:6]}")
    ring = KeyRing(system.infra.pool, known_s=0.05)
    assert (await ring.principal(key)) is not None
    await _revoked_behind_the_api(system, key)
    await asyncio.sleep(0.3)
    assert await ring.principal(key) is None


async def test_a_lookup_under_way_when_rights_change_is_not_remembered(system: System) -> None:
    key = await system.user(f"ring_{uuid.uuid4().hex[:6]}")
    ring = KeyRing(system.infra.pool, known_s=3600)
    lookup = asyncio.create_task(ring.principal(key))
    await asyncio.sleep(0)  # the lookup is in Postgres now, reading the rights as they were
    ring.forget()
    assert (await lookup) is not None
    await _revoked_behind_the_api(system, key)
    assert await ring.principal(key) is None


async def test_another_gateways_announcement_makes_this_one_resolve_keys_again(
    system: System, monkeypatch: pytest.MonkeyPatch
) -> None:
    ring: KeyRing = system.app.state.services.keys
    monkeypatch.setattr(ring, "_known_s", 3600.0)  # only the announcement can make it look again
    key = await system.user(f"ring_{uuid.uuid4().hex[:6]}")
    search = {"query": "anything", "limit": 1}
    assert (await system.client.post("/v1/memory/search", json=search, headers=system.auth(key))).status_code == 200
    await _revoked_behind_the_api(system, key)
    change = AccessChanged(user_id=None, reason="a key revoked through another gateway")
    await system.infra.broker.publish(
        change.model_dump(mode="json"), system.infra.layout.subject(Subject.ACCESS_CHANGED)
    )
    async with asyncio.timeout(10):
        while (await system.client.post("/v1/memory/search", json=search, headers=system.auth(key))).status_code != 401:
            await asyncio.sleep(0.05)
