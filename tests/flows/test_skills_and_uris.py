"""The seed's skills and OpenViking addresses through the running system: GET /v1/skills, a write that
does not say its type classified, a candidate said again promoted, and viking:// URIs returned on
records and taken wherever an id is (REST and MCP)."""

from __future__ import annotations

import urllib.parse
import uuid

import pytest

from tests.conftest import System
from tests.consolidation.test_consolidation import Person


@pytest.fixture
async def person(system: System) -> Person:
    uid = f"sk_{uuid.uuid4().hex[:8]}"
    return Person(system, uid, await system.user(uid))


async def test_skills_are_listed_with_their_models(person: Person) -> None:
    listed = await person.system.client.get("/v1/skills", headers=person.h)
    assert listed.status_code == 200
    by_name = {s["name"]: s for s in listed.json()}
    assert len(by_name) == 10
    assert by_name["retrieve_context"]["input_schema"]["required"]
    one = await person.system.client.get("/v1/skills/classify_memory", headers=person.h)
    assert one.json()["alternatives"] == ["classify_memory.llm"]
    assert (await person.system.client.get("/v1/skills/nope", headers=person.h)).status_code == 404
    assert (await person.system.client.get("/v1/skills")).status_code == 401


async def test_a_write_that_does_not_say_its_type_is_classified(person: Person) -> None:
    h, client = person.h, person.system.client
    made = await client.post("/v1/memory", json={"content": "用户偏好简洁的中文回答。"}, headers=h)
    assert made.status_code == 201, made.text
    record = (await client.get(f"/v1/memory/{made.json()['id']}", headers=h)).json()
    assert (record["memory_type"], record["visibility"]) == ("preference", "private")
    asked = {"content": "The user prefers dark mode", "namespace": f"user/{person.user_id}/preferences"}
    filed = await client.post("/v1/memory", json=asked, headers=h)
    assert filed.json()["namespace"] == f"user/{person.user_id}/preferences"
    nowhere = await client.post("/v1/memory", json={"content": "x", "visibility": "workspace-shared"}, headers=h)
    assert nowhere.status_code == 400


async def test_a_candidate_said_again_in_another_session_is_promoted(person: Person) -> None:
    said = "We finished the isolation tests."  # rules: experience, importance 0.55 (< 0.6 asked below)
    await person.session(said, min_importance=0.6)
    assert [m["content"] for m in await person.memories("candidate")] == [said]
    await person.session(said, min_importance=0.6)
    [memory] = [m for m in await person.memories() if m["content"] == said]
    assert (memory["status"], memory["evidence_count"]) == ("active", 2)
    audit = (await person.system.admin("GET", "/v1/audit", params={"target": memory["id"], "limit": 50}))["items"]
    assert "promote" in {a["action"] for a in audit}


async def test_viking_uris_are_returned_and_taken_wherever_an_id_is(person: Person) -> None:
    h, client = person.h, person.system.client
    made = (await client.post("/v1/memory", json={"content": "Alice lives in Hangzhou"}, headers=h)).json()
    uri = made["uri"]
    assert uri == f"viking://memory/user/{person.user_id}/long_term/{made['id']}"
    for path in (uri, urllib.parse.quote(uri, safe="")):
        got = await client.get(f"/v1/memory/{path}", headers=h)
        assert (got.status_code, got.json()["uri"]) == (200, uri)
    history = await client.get(f"/v1/memory/{uri}/history", headers=h)
    assert history.status_code == 200
    assert history.json()
    feedback = await client.post(f"/v1/memory/{uri}/feedback", json={"feedback": "useful"}, headers=h)
    assert feedback.status_code == 200, feedback.text
    patched = await client.patch(f"/v1/memory/{uri}", json={"importance": 0.9}, headers=h)
    assert patched.json()["importance"] == 0.9
    hits = (await client.post("/v1/memory/search", json={"query": "Alice Hangzhou"}, headers=h)).json()["results"]
    assert uri in {hit["memory"]["uri"] for hit in hits}
    namespaces = {n["namespace"]: n["uri"] for n in (await client.get("/v1/namespaces", headers=h)).json()}
    assert namespaces[f"user/{person.user_id}/profile"] == f"viking://memory/user/{person.user_id}/profile"
    for bad in ("viking://memory/user/x/long_term", "viking://skills/memory-gateway/ingest", "mem 1"):
        assert (await client.get(f"/v1/memory/{urllib.parse.quote(bad, safe='')}", headers=h)).status_code == 422
    other = Person(person.system, "o", await person.system.user(f"o_{uuid.uuid4().hex[:8]}"))
    assert (await client.get(f"/v1/memory/{uri}", headers=other.h)).status_code == 404
    assert (await client.delete(f"/v1/memory/{uri}", headers=h)).json() == {"deleted": True, "id": made["id"]}
