"""The memory lifecycle over REST: versions, history, optimistic concurrency, listing, feedback,
errors and limits."""

from __future__ import annotations

import asyncio
import re
import uuid
from datetime import UTC, datetime
from typing import Any

import pytest
from jsonschema import Draft202012Validator
from openapi_spec_validator import validate

from memgw.gateway.search_order import MIN_MEASURES, Order, SearchOrder
from tests.conftest import System


@pytest.fixture
async def key(system: System) -> str:
    return await system.user(f"life_{uuid.uuid4().hex[:8]}")


async def test_every_change_is_a_new_version_kept_in_history(system: System, key: str) -> None:
    h = system.auth(key)
    created = (await system.client.post("/v1/memory", json={"content": "住在北京"}, headers=h)).json()
    mid = created["id"]
    first = await system.client.patch(f"/v1/memory/{mid}", json={"importance": 0.9, "version": 1}, headers=h)
    assert first.json()["version"] == 2
    second = await system.client.patch(
        f"/v1/memory/{mid}", json={"content": "搬到上海了"}, headers={**h, "If-Match": '"2"'}
    )
    assert second.status_code == 200
    assert second.json()["version"] == 3
    history = (await system.client.get(f"/v1/memory/{mid}/history", headers=h)).json()
    assert [v["version"] for v in history] == [3, 2, 1]
    assert history[-1]["snapshot"]["content"] == "住在北京"
    assert history[0]["snapshot"]["content"] == "搬到上海了"
    found = await system.client.post("/v1/memory/search", json={"query": "上海"}, headers=h)
    assert found.json()["results"][0]["memory"]["id"] == mid  # the new content was re-embedded and re-indexed


async def test_a_stale_write_gets_409_and_changes_nothing(system: System, key: str) -> None:
    h = system.auth(key)
    mid = (await system.client.post("/v1/memory", json={"content": "prefers tea"}, headers=h)).json()["id"]
    await system.client.patch(f"/v1/memory/{mid}", json={"summary": "tea", "version": 1}, headers=h)
    stale = await system.client.patch(f"/v1/memory/{mid}", json={"summary": "coffee", "version": 1}, headers=h)
    assert stale.status_code == 409
    assert stale.json()["error"] == "conflict"
    assert "version 2" in stale.json()["detail"]
    stale_delete = await system.client.delete(f"/v1/memory/{mid}", headers={**h, "If-Match": '"1"'})
    assert stale_delete.status_code == 409
    current = (await system.client.get(f"/v1/memory/{mid}", headers=h)).json()
    assert current["summary"] == "tea"


@pytest.mark.parametrize("header", ['"2"', "2", 'W/"2"'])
async def test_if_match_is_read_one_way_wherever_it_is_sent(system: System, key: str, header: str) -> None:
    h = system.auth(key)
    mid = (await system.client.post("/v1/memory", json={"content": "if-match"}, headers=h)).json()["id"]
    stale = await system.client.patch(f"/v1/memory/{mid}", json={"summary": "s"}, headers={**h, "If-Match": header})
    assert stale.status_code == 409
    sid = f"im-{uuid.uuid4().hex[:6]}"
    source = {"id": sid, "kind": "RssFeed", "fields": {"url": "https://example.com/feed"}}
    assert (await system.client.post("/v1/sources", json=source, headers=h)).status_code == 201
    stale_source = await system.client.patch(
        f"/v1/sources/{sid}", json={"label": "x"}, headers={**h, "If-Match": header}
    )
    assert stale_source.status_code == 409
    for path, body in ((f"/v1/memory/{mid}", {"summary": "s"}), (f"/v1/sources/{sid}", {"label": "x"})):
        bad = await system.client.patch(path, json=body, headers={**h, "If-Match": "three"})
        assert bad.status_code == 400, bad.text


async def test_a_delete_is_audited_and_the_memory_is_gone_everywhere(system: System, key: str) -> None:
    h = system.auth(key)
    mid = (await system.client.post("/v1/memory", json={"content": "短暂的记忆 ephemeral"}, headers=h)).json()["id"]
    assert (await system.client.delete(f"/v1/memory/{mid}", headers=h)).json() == {"deleted": True, "id": mid}
    assert (await system.client.get(f"/v1/memory/{mid}", headers=h)).status_code == 404
    found = await system.client.post("/v1/memory/search", json={"query": "短暂的记忆 ephemeral"}, headers=h)
    assert mid not in [r["memory"]["id"] for r in found.json()["results"]]
    audit = (await system.client.get("/v1/audit", params={"action": "memory_delete", "target": mid}, headers=h)).json()
    assert len(audit["items"]) == 1


async def test_listing_filters_and_pages_with_a_cursor(system: System, key: str) -> None:
    h = system.auth(key)
    tag = f"page{uuid.uuid4().hex[:6]}"
    ids = []
    for n in range(7):
        body = {"content": f"note {n}", "tags": [tag, "even" if n % 2 == 0 else "odd"], "memory_type": "note"}
        ids.append((await system.client.post("/v1/memory", json=body, headers=h)).json()["id"])
    seen, cursor = [], None
    while True:
        params = {"tags": [tag], "limit": 3, **({"cursor": cursor} if cursor else {})}
        page = (await system.client.get("/v1/memory", params=params, headers=h)).json()
        seen += [m["id"] for m in page["items"]]
        cursor = page["next_cursor"]
        if not cursor:
            break
    assert seen == list(reversed(ids))  # newest first, each exactly once
    evens = (await system.client.get("/v1/memory", params={"tags": [tag, "even"]}, headers=h)).json()
    assert len(evens["items"]) == 4
    bad = await system.client.get("/v1/memory", params={"cursor": "not-a-cursor"}, headers=h)
    assert bad.status_code == 400


async def test_incorrect_feedback_takes_a_memory_out_of_default_retrieval_at_once(system: System, key: str) -> None:
    h = system.auth(key)
    mid = (await system.client.post("/v1/memory", json={"content": "用户喜欢深夜开会"}, headers=h)).json()["id"]
    before = await system.client.post("/v1/memory/search", json={"query": "深夜开会"}, headers=h)
    assert before.json()["results"][0]["memory"]["id"] == mid
    answer = await system.client.post(
        f"/v1/memory/{mid}/feedback", json={"feedback": "incorrect", "comment": "这是一次临时偏好"}, headers=h
    )
    assert answer.json() == {"status": "ok", "memory_id": mid, "feedback": "incorrect", "applies_to": "record"}
    after = await system.client.post("/v1/memory/search", json={"query": "深夜开会"}, headers=h)
    assert mid not in [r["memory"]["id"] for r in after.json()["results"]]
    listed = await system.client.get("/v1/memory", params={"limit": 100}, headers=h)
    assert mid not in [m["id"] for m in listed.json()["items"]]
    still_own = await system.client.get(f"/v1/memory/{mid}", headers=h)  # the owner can still look at it
    assert still_own.json()["flags"] == ["incorrect"]


@pytest.mark.parametrize(
    ("body", "status", "field"),
    [
        ({"content": ""}, 422, "content"),
        ({"content": "x" * 32_001}, 422, "content"),
        ({"content": "x", "tags": [f"t{n}" for n in range(33)]}, 422, "tags"),
        ({"content": "x", "tags": ["y" * 65]}, 422, "tags"),
        ({"content": "x", "importance": 1.5}, 422, "importance"),
        ({"content": "x", "visibility": "public"}, 422, "visibility"),
        ({"content": "x", "surprise": 1}, 422, "surprise"),
        ({"content": "x", "visibility": "agent-only"}, 400, None),
        ({"content": "x", "memory_type": "banana"}, 422, "memory_type"),
    ],
)
async def test_bad_writes_are_refused_with_a_clear_4xx(
    system: System, key: str, body: dict, status: int, field: str | None
) -> None:
    response = await system.client.post("/v1/memory", json=body, headers=system.auth(key))
    assert response.status_code == status, response.text
    answer = response.json()
    assert set(answer) == {"error", "detail"}
    if field:
        assert any(problem["field"] == field for problem in answer["detail"])


async def test_an_unknown_type_is_refused_naming_the_allowed_ones(system: System, key: str) -> None:
    h = system.auth(key)
    made = await system.client.post("/v1/memory", json={"content": "x y z"}, headers=h)
    for answer in (
        await system.client.post("/v1/memory", json={"content": "x", "memory_type": "banana"}, headers=h),
        await system.client.patch(f"/v1/memory/{made.json()['id']}", json={"memory_type": "banana"}, headers=h),
    ):
        assert answer.status_code == 422, answer.text
        [problem] = answer.json()["detail"]
        assert all(kind in problem["message"] for kind in ("'fact'", "'preference'", "'decision'"))


async def test_a_wrong_route_or_method_answers_in_the_one_error_body(system: System, key: str) -> None:
    h = system.auth(key)
    for path in ("/v1/nothing-here", "/nothing-here"):
        missing = await system.client.get(path, headers=h)
        assert missing.status_code == 404, path
        assert missing.json()["error"] == "not_found"
        assert "/v1" in missing.json()["detail"]
    for path in ("/v1/memory/search", "/v1/memory/batch"):
        wrong = await system.client.get(path, headers=h)
        assert wrong.status_code == 405, path
        assert wrong.headers["allow"] == "POST"
        assert wrong.json()["error"] == "method_not_allowed"
    put = await system.client.put("/v1/memory", json={}, headers=h)
    assert put.status_code == 405
    assert put.json()["error"] == "method_not_allowed"


async def test_limits_on_query_page_size_and_body_size(system: System, key: str) -> None:
    h = system.auth(key)
    assert (await system.client.post("/v1/memory/search", json={"query": "q" * 2001}, headers=h)).status_code == 422
    assert (
        await system.client.post("/v1/memory/search", json={"query": "q", "limit": 101}, headers=h)
    ).status_code == 422
    assert (await system.client.get("/v1/memory", params={"limit": 1000}, headers=h)).status_code == 422
    huge = await system.client.post(
        "/v1/memory",
        content=b'{"content": "' + b"x" * 1_100_000 + b'"}',
        headers={**h, "content-type": "application/json"},
    )
    assert huge.status_code == 413
    assert huge.json()["error"] == "payload_too_large"


async def test_requests_without_a_key_get_401_with_a_hint(system: System) -> None:
    response = await system.client.post("/v1/memory/search", json={"query": "x"})
    assert response.status_code == 401
    assert "Authorization: Bearer" in response.json()["detail"]
    assert response.headers["www-authenticate"] == "Bearer"


async def test_the_openapi_document_describes_every_route_with_examples(system: System) -> None:
    spec = (await system.client.get("/openapi.json")).json()
    validate(spec)  # OpenAPI 3.1, with the security scheme and the error model
    paths = spec["paths"]
    for path in (
        "/v1/memory",
        "/v1/memory/search",
        "/v1/memory/{memory_id}",
        "/v1/memory/{memory_id}/history",
        "/v1/memory/{memory_id}/feedback",
        "/v1/episodes",
        "/v1/sessions/{session_id}/commit",
        "/v1/users/{user_id}/profile",
        "/v1/namespaces",
        "/v1/audit",
        "/v1/keys",
        "/v1/workspaces",
    ):
        assert path in paths, path
    schemas = spec["components"]["schemas"]
    assert schemas["MemoryCreate"]["examples"]
    assert schemas["SearchRequest"]["examples"]
    assert spec["components"]["securitySchemes"]["apiKey"] == {
        "type": "http",
        "scheme": "bearer",
        "description": spec["components"]["securitySchemes"]["apiKey"]["description"],
    }
    assert "HTTPValidationError" not in schemas  # what FastAPI would say, not what the API answers
    search = paths["/v1/memory/search"]["post"]
    assert search["security"] == [{"apiKey": []}]
    for code in ("401", "403", "422", "503"):
        [content] = search["responses"][code]["content"].values()
        assert content["schema"] == {"$ref": "#/components/schemas/ErrorBody"}
    assert "security" not in paths["/healthz"]["get"]


async def test_every_operation_shows_an_example_valid_against_its_schema(system: System) -> None:
    """Each parameter, request body and answer of every operation has an example (its own, its
    model's, or one recorded from a running gateway), and each example fits the schema it illustrates:
    an operation added without one, or a model changed under its example, fails here."""
    spec = (await system.client.get("/openapi.json")).json()
    components = spec["components"]
    missing, invalid = [], []

    def check(where: str, holder: dict[str, Any]) -> None:
        schema = holder.get("schema") or {}
        shown = [holder["example"]] if "example" in holder else list(holder.get("examples") or [])
        named = components["schemas"].get(schema.get("$ref", "").rsplit("/", 1)[-1], schema)
        shown += [] if shown else list(named.get("examples") or [])
        if not shown and schema.get("type") == "array":
            item = components["schemas"].get(schema["items"].get("$ref", "").rsplit("/", 1)[-1], {})
            shown = [[e] for e in item.get("examples") or []]
        if not shown:
            missing.append(where)
        validator = Draft202012Validator({**schema, "components": components})
        invalid.extend(f"{where}: {e.message[:120]}" for example in shown for e in validator.iter_errors(example))

    for path, operations in spec["paths"].items():
        for method, operation in operations.items():
            name = f"{method.upper()} {path}"
            for parameter in operation.get("parameters", []):
                check(f"{name} parameter {parameter['name']}", parameter)
            for media_type, media in operation.get("requestBody", {}).get("content", {}).items():
                check(f"{name} request {media_type}", media)
            answers = [(c, r) for c, r in operation["responses"].items() if c.startswith("2") and r.get("content")]
            for code, answer in answers:
                for media_type, media in answer["content"].items():
                    check(f"{name} {code} {media_type}", media)
    assert missing == []
    assert invalid == []


async def test_the_docs_page_needs_nothing_from_the_internet(system: System) -> None:
    page = await system.client.get("/docs")
    assert page.status_code == 200
    assets = re.findall(r"""(?:src|href)=["']([^"']+)["']""", page.text) + re.findall(r"url: '([^']+)'", page.text)
    assert assets
    for asset in assets:
        assert not asset.startswith(("http://", "https://", "//")), asset  # no CDN
        if asset.endswith((".js", ".css")):
            assert (await system.client.get(asset)).status_code == 200, asset


async def test_a_search_is_audited_a_moment_after_its_answer_and_a_refusal_before(system: System, key: str) -> None:
    h = system.auth(key)
    tag = uuid.uuid4().hex[:8]
    mid = (await system.client.post("/v1/memory", json={"content": f"audit probe {tag}"}, headers=h)).json()["id"]
    asked = datetime.now(UTC)
    for _ in range(3):  # three alike: three rows, never folded into one
        found = await system.client.post("/v1/memory/search", json={"query": f"audit probe {tag}"}, headers=h)
        hits = [hit["memory"]["id"] for hit in found.json()["results"]]
        assert mid in hits
    answered = datetime.now(UTC)
    async with asyncio.timeout(10):
        while len(rows := await _audit(system, h, action="memory_search", target=",".join(hits))) < 3:
            await asyncio.sleep(0.05)
    assert len(rows) == 3
    for row in rows:  # stamped when the search was answered, not when the row was written
        assert asked <= datetime.fromisoformat(row["created_at"]) <= answered, row
        assert (row["decision"], row["reason"].endswith("hits")) == ("allow", True)

    refused = await system.client.post(
        "/v1/memory/search", json={"query": "x", "user_id": f"someone_else_{tag}"}, headers=h
    )
    assert refused.status_code == 403
    assert await _audit(system, h, action="memory_search", decision="deny")  # already there: not behind


async def _audit(system: System, h: dict[str, str], **params: str) -> list[dict[str, Any]]:
    return list((await system.client.get("/v1/audit", params=params, headers=h)).json()["items"])


async def test_the_audit_pages_with_a_cursor_and_filters(system: System, key: str) -> None:
    h = system.auth(key)
    for n in range(5):
        await system.client.post("/v1/memory", json={"content": f"audited {n}"}, headers=h)
    seen, cursor = [], None
    while True:
        params = {"action": "memory_upsert", "limit": 2, **({"cursor": cursor} if cursor else {})}
        page = (await system.client.get("/v1/audit", params=params, headers=h)).json()
        seen += [row["id"] for row in page["items"]]
        cursor = page["next_cursor"]
        if not cursor:
            break
    assert len(seen) == len(set(seen)) == 5
    assert seen == sorted(seen, reverse=True)


async def test_a_write_without_a_version_is_not_failed_by_a_concurrent_change(system: System, key: str) -> None:
    """Feedback makes the consolidator change the memory in the background; a delete or patch that
    names no version must not fail for it (only one that names the version it read may get 409)."""
    auth = system.auth(key)
    for n in range(5):
        made = (await system.client.post("/v1/memory", json={"content": f"race {n}"}, headers=auth)).json()
        await system.client.post(f"/v1/memory/{made['id']}/feedback", json={"feedback": "useful"}, headers=auth)
        patched = await system.client.patch(f"/v1/memory/{made['id']}", json={"importance": 0.9}, headers=auth)
        assert patched.status_code == 200, patched.text
        same = await system.client.patch(f"/v1/memory/{made['id']}", json={"content": f"race {n}"}, headers=auth)
        assert same.status_code == 200, same.text  # the same text again: nothing written, no error
        deleted = await system.client.delete(f"/v1/memory/{made['id']}", headers=auth)
        assert deleted.status_code in (200, 204), deleted.text


def _server_timing(value: str) -> dict[str, list[float]]:
    """The timed steps (``name;dur=ms``), leaving out notes (``name;desc=…``)."""
    steps: dict[str, list[float]] = {}
    for part in value.split(","):
        name, timed, duration = part.strip().partition(";dur=")
        if timed:
            steps.setdefault(name, []).append(float(duration))
    return steps


async def test_answers_say_where_their_time_went_in_server_timing(system: System, key: str) -> None:
    h = system.auth(key)
    written = await system.client.post("/v1/memory", json={"content": "the deploy runs on Fridays"}, headers=h)
    assert written.status_code == 201, written.text
    write_steps = _server_timing(written.headers["Server-Timing"])
    assert {"auth", "check", "embed", "store", "index", "app"} <= write_steps.keys()

    found = await system.client.post("/v1/memory/search", json={"query": "when is the deploy"}, headers=h)
    steps = _server_timing(found.headers["Server-Timing"])
    assert {"auth", "embed", "bm25", "dense", "recheck", "rank", "app"} <= steps.keys()
    assert "audit" not in steps  # its row is written after the answer (the next test)
    assert "order;desc=" in found.headers["Server-Timing"]  # which way round the embedding and lists went
    assert all(d >= 0 for durations in steps.values() for d in durations)
    inside = sum(steps[name][0] for name in ("embed", "dense", "recheck", "rank"))
    assert inside <= steps["app"][0]  # the steps on the critical path happen within the request

    health = await system.client.get("/healthz")
    assert _server_timing(health.headers["Server-Timing"]).keys() == {"app"}  # no step of another request


@pytest.mark.parametrize(
    ("shares_cores", "beside_was_quicker", "order"),
    [(True, False, "alone"), (True, True, "beside"), (False, False, "beside")],
)
async def test_the_keyword_list_runs_beside_the_embedding_when_that_is_elsewhere_or_has_been_quicker(
    system: System,
    key: str,
    monkeypatch: pytest.MonkeyPatch,
    shares_cores: bool,
    beside_was_quicker: bool,
    order: str,
) -> None:
    """An embedder elsewhere leaves the keyword list to run meanwhile. One on this process's cores gets
    them alone, unless running the keyword list beside it has measured quicker here. Either way both
    lists answer, and the answer's Server-Timing says which order the search took."""
    h = system.auth(key)
    written = await system.client.post("/v1/memory", json={"content": "the kiln fires at dawn"}, headers=h)
    assert written.status_code == 201, written.text
    embedder, index = system.infra.embedder, system.infra.index
    chooser = SearchOrder()  # a gateway's own, fresh: what earlier searches took here, by order
    monkeypatch.setattr(system.app.state.services.memories.search_parts, "order", chooser)
    for _ in range(MIN_MEASURES):
        chooser.took(Order.ALONE, 0.040 if beside_was_quicker else 0.020)
        chooser.took(Order.BESIDE, 0.020 if beside_was_quicker else 0.040)
    seen: list[str] = []
    real_embed, real_search = embedder.embed_query, index.search

    async def embed_query(text: str, *, scope: str = "") -> list[float]:
        seen.append("embedding")
        vector = await real_embed(text, scope=scope)
        await asyncio.sleep(0.05)  # an embedding long enough for anything beside it to start
        seen.append("embedded")
        return vector

    async def search(**query: Any) -> Any:
        seen.append("keywords" if query.get("text") else "meaning")
        return await real_search(**query)

    monkeypatch.setattr(embedder, "shares_cores", shares_cores)
    monkeypatch.setattr(embedder, "embed_query", embed_query)
    monkeypatch.setattr(index, "search", search)
    found = await system.client.post("/v1/memory/search", json={"query": f"kiln {order}"}, headers=h)
    assert found.status_code == 200, found.text
    assert found.json()["results"][0]["memory"]["id"] == written.json()["id"]
    assert f"order;desc={order}" in found.headers["Server-Timing"]
    if order == "alone":
        assert seen.index("keywords") > seen.index("embedded")
    else:
        assert seen.index("keywords") < seen.index("embedded")
    explain = await system.client.post(
        "/v1/memory/search", json={"query": f"kiln dawn {order}", "explain": True}, headers=h
    )
    components = explain.json()["results"][0]["explain"]
    assert "bm25_rank" in components
    assert "dense_rank" in components


async def test_the_admin_counts_every_users_memories_a_user_only_what_they_may_read(system: System) -> None:
    """The admin's overview is the whole install's (counts, never content); a user's is their own."""
    counted, other = f"st_{uuid.uuid4().hex[:6]}", f"st_{uuid.uuid4().hex[:6]}"
    counted_key, other_key = await system.user(counted), await system.user(other)
    body = {"content": "A private note to be counted.", "memory_type": "note"}
    assert (await system.client.post("/v1/memory", json=body, headers=system.auth(counted_key))).status_code == 201

    def namespaces(stats: dict[str, Any]) -> set[str]:
        return {row["namespace"] for row in stats["by_namespace"]}

    mine = f"user/{counted}/long_term"
    assert mine in namespaces(await system.admin("GET", "/v1/stats"))
    assert mine not in namespaces((await system.client.get("/v1/stats", headers=system.auth(other_key))).json())
    assert mine in namespaces((await system.client.get("/v1/stats", headers=system.auth(counted_key))).json())
