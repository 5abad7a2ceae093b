"""The isolation matrix of seed 004 §C, both ways (what must be visible is, what must not be is not),
for get, list, search, update, delete, history, audit and every MCP tool."""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from typing import Any

import pytest
import pytest_asyncio
from fastmcp import Client
from fastmcp.client.transports import StreamableHttpTransport
from fastmcp.exceptions import ToolError

from memgw.common.acl import read_where
from memgw.common.domain import Principal
from memgw.common.memories import RECORD_COLUMNS, index_point, vector_of
from tests.conftest import System

PRINCIPALS = ("alice", "a1", "a2", "bob", "b1", "carol")
MEMORIES = ("alice_private", "a1_agent", "ws_shared", "global", "bob_private")

# Who reads what (seed 004 §C): private = same user; agent-only = same user and agent;
# workspace-shared = member through an allowed agent (or no agent); global = everyone.
READS: dict[str, set[str]] = {
    "alice": {"alice_private", "ws_shared", "global"},
    "a1": {"alice_private", "a1_agent", "ws_shared", "global"},
    "a2": {"alice_private", "global"},
    "bob": {"bob_private", "ws_shared", "global"},
    "b1": {"bob_private", "ws_shared", "global"},
    "carol": {"global"},
}
# Who may change or delete what: global only by trusted writers, the rest as it is read.
WRITES: dict[str, set[str]] = {name: reads - {"global"} for name, reads in READS.items()}


@dataclass
class World:
    system: System
    tag: str
    keys: dict[str, str]
    users: dict[str, str]
    memories: dict[str, str]
    workspace: str
    suffix: str

    def headers(self, who: str) -> dict[str, str]:
        return self.system.auth(self.keys[who])

    def names(self, ids: set[str]) -> set[str]:
        by_id = {v: k for k, v in self.memories.items()}
        return {by_id[i] for i in ids if i in by_id}


async def _world(system: System) -> World:
    s = uuid.uuid4().hex[:6]
    users = {"alice": f"alice_{s}", "bob": f"bob_{s}", "carol": f"carol_{s}"}
    keys = {name: await system.user(uid) for name, uid in users.items()}
    keys["a1"] = await system.agent(users["alice"], f"a1_{s}")
    keys["a2"] = await system.agent(users["alice"], f"a2_{s}")
    keys["b1"] = await system.agent(users["bob"], f"b1_{s}")
    workspace = f"ws_{s}"
    created = await system.client.post(
        "/v1/workspaces",
        json={
            "workspace_id": workspace,
            "member_user_ids": [users["bob"]],
            "allowed_agent_ids": [f"a1_{s}"],
        },
        headers=system.auth(keys["alice"]),
    )
    assert created.status_code == 201, created.text
    # Bob was invited; he accepts, then brings his own agent in (nobody can do either for him).
    joined = await system.client.post(f"/v1/workspaces/{workspace}/join", headers=system.auth(keys["bob"]))
    assert joined.status_code == 200, joined.text
    allowed = await system.client.put(f"/v1/workspaces/{workspace}/agents/b1_{s}", headers=system.auth(keys["bob"]))
    assert allowed.status_code == 200, allowed.text
    tag = f"iso{s}"
    world = World(system, tag, keys, users, {}, workspace, s)
    specs: dict[str, tuple[str | None, dict[str, Any]]] = {
        "alice_private": ("alice", {"visibility": "private"}),
        "a1_agent": ("a1", {"visibility": "agent-only"}),
        "ws_shared": ("a1", {"visibility": "workspace-shared", "workspace_id": workspace}),
        "global": (None, {"visibility": "global"}),
        "bob_private": ("bob", {"visibility": "private"}),
    }
    for name, (who, extra) in specs.items():
        headers = world.headers(who) if who else system.auth()
        body = {"content": f"{tag} secret fact {name} 秘密 {tag}", "tags": [tag], **extra}
        response = await system.client.post("/v1/memory", json=body, headers=headers)
        assert response.status_code == 201, response.text
        world.memories[name] = response.json()["id"]
    return world


@pytest_asyncio.fixture(scope="module", loop_scope="session")
async def world(system: System) -> World:
    return await _world(system)


@pytest.mark.parametrize("who", PRINCIPALS)
async def test_get_shows_exactly_what_the_principal_may_read(world: World, who: str) -> None:
    visible = set()
    for name, memory_id in world.memories.items():
        response = await world.system.client.get(f"/v1/memory/{memory_id}", headers=world.headers(who))
        assert response.status_code in (200, 404), response.text
        if response.status_code == 200:
            visible.add(name)
    assert visible == READS[who]


@pytest.mark.parametrize("who", PRINCIPALS)
async def test_search_finds_exactly_what_the_principal_may_read(world: World, who: str) -> None:
    response = await world.system.client.post(
        "/v1/memory/search", json={"query": f"{world.tag} secret fact 秘密", "limit": 50}, headers=world.headers(who)
    )
    assert response.status_code == 200
    assert world.names({h["memory"]["id"] for h in response.json()["results"]}) == READS[who]


@pytest.mark.parametrize("who", PRINCIPALS)
async def test_list_and_history_show_exactly_what_the_principal_may_read(world: World, who: str) -> None:
    listed = await world.system.client.get(
        "/v1/memory", params={"tags": [world.tag], "limit": 50}, headers=world.headers(who)
    )
    assert world.names({m["id"] for m in listed.json()["items"]}) == READS[who]
    with_history = {
        name
        for name, memory_id in world.memories.items()
        if (await world.system.client.get(f"/v1/memory/{memory_id}/history", headers=world.headers(who))).status_code
        == 200
    }
    assert with_history == READS[who]


@pytest.mark.parametrize("who", PRINCIPALS)
async def test_updates_succeed_exactly_where_the_principal_may_write(world: World, who: str) -> None:
    changed = set()
    for name, memory_id in world.memories.items():
        response = await world.system.client.patch(
            f"/v1/memory/{memory_id}", json={"importance": 0.7}, headers=world.headers(who)
        )
        assert response.status_code in (200, 403, 404), response.text
        if response.status_code == 200:
            changed.add(name)
        elif name in READS[who]:
            assert response.status_code == 403  # visible but not writable: refused, not hidden
    assert changed == WRITES[who]


@pytest.mark.parametrize("who", PRINCIPALS)
async def test_the_mem0_facade_shows_exactly_what_the_principal_may_read(world: World, who: str) -> None:
    client = world.system.client
    platform = {"Authorization": f"Token {world.keys[who]}"}
    self_hosted = {"X-API-Key": world.keys[who]}
    for path, headers in (("/mem0/v1/memories/{}/", platform), ("/mem0/memories/{}", self_hosted)):
        got = set()
        for name, memory_id in world.memories.items():
            response = await client.get(path.format(memory_id), headers=headers)
            assert response.status_code in (200, 404), response.text
            if response.status_code == 200:
                got.add(name)
        assert got == READS[who], path
    query = {"query": f"{world.tag} secret fact 秘密", "top_k": 50}
    for path, headers in (("/mem0/v3/memories/search/", platform), ("/mem0/search", self_hosted)):
        found = (await client.post(path, json=query, headers=headers)).json()["results"]
        assert world.names({r["id"] for r in found}) == READS[who], path
    listed = (await client.post("/mem0/v3/memories/", json={}, headers=platform)).json()["results"]
    assert world.names({r["id"] for r in listed}) == READS[who]


async def test_a_mem0_client_with_a_default_identity_is_told_what_to_set(world: World) -> None:
    """Hermes' mem0 provider, with no MEM0_USER_ID / MEM0_AGENT_ID, sends "hermes-user" and "hermes"."""
    client = world.system.client
    for who, sent, told in (
        ("alice", {"user_id": "hermes-user"}, f"MEM0_USER_ID={world.users['alice']}"),
        ("a1", {"agent_id": "hermes"}, f"MEM0_AGENT_ID=a1_{world.suffix}"),
    ):
        body = {"query": "anything", **sent}
        refused = await client.post("/mem0/v3/memories/search/", json=body, headers=world.headers(who))
        assert refused.status_code == 403, refused.text
        assert told in refused.json()["detail"]


@pytest.mark.parametrize("who", PRINCIPALS)
async def test_the_mem0_facade_changes_exactly_what_the_principal_may_write(world: World, who: str) -> None:
    changed = set()
    for name, memory_id in world.memories.items():
        response = await world.system.client.put(
            f"/mem0/v1/memories/{memory_id}/",
            json={"metadata": {"touched_by": who}},
            headers={"Authorization": f"Token {world.keys[who]}"},
        )
        assert response.status_code in (200, 403, 404), response.text
        if response.status_code == 200:
            changed.add(name)
    assert changed == WRITES[who]


# EverMemOS speaks for one user at a time: a key sees its own user's memories there, of what it may read.
OWNER = {"alice_private": "alice", "a1_agent": "alice", "ws_shared": "alice", "global": "admin", "bob_private": "bob"}
USER_OF = {"alice": "alice", "a1": "alice", "a2": "alice", "bob": "bob", "b1": "bob", "carol": "carol"}


@pytest.mark.parametrize("who", PRINCIPALS)
async def test_the_evermemos_facade_shows_exactly_the_users_own_of_what_it_may_read(world: World, who: str) -> None:
    client, headers = world.system.client, world.headers(who)
    expected = {name for name in READS[who] if OWNER[name] == USER_OF[who]}
    query = {"query": f"{world.tag} secret fact 秘密", "top_k": 50, "memory_types": ["event_log"]}
    found = (await client.get("/evermemos/api/v0/memories/search", params=query, headers=headers)).json()
    assert world.names({m["id"] for m in found["result"]["memories"]}) == expected
    listed = await client.get("/evermemos/api/v0/memories", params={"limit": 100}, headers=headers)
    assert world.names({m["id"] for m in listed.json()["result"]["memories"]}) == expected
    other = world.users["bob"] if USER_OF[who] != "bob" else world.users["alice"]
    refused = await client.get("/evermemos/api/v0/memories", params={"user_id": other}, headers=headers)
    assert refused.status_code == 403


async def test_deletes_succeed_only_for_writers_and_refusals_are_audited(system: System) -> None:
    world = await _world(system)  # deleting needs a world of its own
    for who in ("carol", "a2", "bob"):
        for name, memory_id in world.memories.items():
            if name in WRITES[who]:
                continue
            response = await system.client.delete(f"/v1/memory/{memory_id}", headers=world.headers(who))
            assert response.status_code in (403, 404)
    denials = await system.admin("GET", "/v1/audit", params={"actor": world.users["carol"], "decision": "deny"})
    assert {row["action"] for row in denials["items"]} == {"memory_delete"}
    for name in ("alice_private", "ws_shared", "bob_private"):
        owner = {"alice_private": "alice", "ws_shared": "b1", "bob_private": "bob"}[name]
        response = await system.client.delete(f"/v1/memory/{world.memories[name]}", headers=world.headers(owner))
        assert response.status_code == 200, response.text
        gone = await system.client.get(f"/v1/memory/{world.memories[name]}", headers=world.headers(owner))
        assert gone.status_code == 404


@pytest.mark.parametrize("who", ["alice", "bob", "carol", "a1"])
async def test_audit_shows_users_only_their_own_actions(world: World, who: str) -> None:
    rows = (await world.system.client.get("/v1/audit", params={"limit": 100}, headers=world.headers(who))).json()
    user = world.users.get(who) or world.users["alice"]
    assert rows["items"]
    assert {row["actor_user_id"] for row in rows["items"]} == {user}


async def test_naming_another_user_agent_or_workspace_is_refused_and_audited(world: World) -> None:
    client, alice = world.system.client, world.headers("alice")
    attempts = [
        ("/v1/memory", {"content": "x", "user_id": world.users["bob"]}),
        ("/v1/memory", {"content": "x", "agent_id": f"b1_{world.suffix}"}),
        ("/v1/memory/search", {"query": "x", "user_id": world.users["bob"]}),
        ("/v1/memory", {"content": "x", "visibility": "workspace-shared", "workspace_id": "ws_nobody"}),
        ("/v1/memory", {"content": "x", "visibility": "global"}),
        ("/v1/memory", {"content": "x", "namespace": f"user/{world.users['bob']}/long_term"}),
    ]
    for path, body in attempts:
        response = await client.post(path, json=body, headers=alice)
        assert response.status_code == 403, (body, response.text)
        assert response.json()["error"] == "forbidden"
    denials = await world.system.admin(
        "GET", "/v1/audit", params={"actor": world.users["alice"], "decision": "deny", "limit": 100}
    )
    assert len(denials["items"]) >= len(attempts)
    assert all(row["reason"] for row in denials["items"])


async def test_an_agent_bound_key_may_not_mint_keys_or_change_its_scope(world: World) -> None:
    client = world.system.client
    minted = await client.post("/v1/keys", json={}, headers=world.headers("a1"))
    assert minted.status_code == 403
    widened = await client.patch(
        f"/v1/agents/a1_{world.suffix}", json={"memory_sources": None}, headers=world.headers("a1")
    )
    assert widened.status_code == 403


async def test_a_revoked_key_is_refused(system: System) -> None:
    key = await system.user(f"revoke_{uuid.uuid4().hex[:6]}")
    keys = (await system.client.get("/v1/keys", headers=system.auth(key))).json()
    assert len(keys) == 1
    assert (await system.client.delete(f"/v1/keys/{keys[0]['id']}", headers=system.auth(key))).status_code == 200
    response = await system.client.post("/v1/memory/search", json={"query": "x"}, headers=system.auth(key))
    assert response.status_code == 401
    assert response.json()["error"] == "unauthorized"


# -- MCP: the same matrix through every tool -----------------------------------------------------------------


def _mcp(world: World, who: str) -> Client:
    return Client(StreamableHttpTransport(f"{world.system.url}/mcp", headers=world.headers(who)))


@pytest.mark.parametrize("who", PRINCIPALS)
async def test_mcp_search_and_delete_follow_the_same_matrix(world: World, who: str) -> None:
    async with _mcp(world, who) as mcp:
        found = await mcp.call_tool("memory_search", {"query": f"{world.tag} secret fact 秘密", "limit": 50})
        ids = {hit["id"] for hit in found.structured_content["results"]}
        assert world.names(ids) == READS[who]
        for name in set(MEMORIES) - WRITES[who]:
            with pytest.raises(ToolError):
                await mcp.call_tool("memory_delete", {"memory_id": world.memories[name]})
        for name in set(MEMORIES) - READS[who]:
            with pytest.raises(ToolError, match="not_found"):
                await mcp.call_tool("memory_feedback", {"memory_id": world.memories[name], "feedback": "useful"})


async def test_mcp_search_takes_the_keys_own_identity_and_a_readable_workspace_and_refuses_others(
    world: World,
) -> None:
    query = {"query": f"{world.tag} secret fact 秘密", "limit": 50}

    async def found(who: str, **narrowed: str) -> set[str]:
        async with _mcp(world, who) as mcp:
            answer = await mcp.call_tool("memory_search", {**query, **narrowed})
        return world.names({hit["id"] for hit in answer.structured_content["results"]})

    own = {"user_id": world.users["alice"], "agent_id": f"a1_{world.suffix}"}
    assert await found("a1", **own) == READS["a1"]  # the seed's call, naming the key's own identity
    assert await found("alice", workspace_id=world.workspace) == {"ws_shared"}  # narrowed to the workspace
    for who, other in (
        ("alice", {"user_id": world.users["bob"]}),
        ("a1", {"agent_id": f"a2_{world.suffix}"}),
        ("carol", {"workspace_id": world.workspace}),
    ):
        async with _mcp(world, who) as mcp:
            with pytest.raises(ToolError, match="forbidden"):
                await mcp.call_tool("memory_search", {**query, **other})


async def test_mcp_tools_take_no_principal_and_refuse_other_users_and_unknown_keys(world: World) -> None:
    bob = world.users["bob"]
    async with _mcp(world, "alice") as mcp:
        for tool in await mcp.list_tools():  # the key decides who asks: no tool lets a model name someone
            if tool.name != "memory_search":  # the seed's example: it may name the key's own identity
                assert not {"user_id", "agent_id"} & set(tool.inputSchema["properties"]), tool.name
        with pytest.raises(ToolError, match="invalid_request"):
            await mcp.call_tool("memory_upsert", {"content": "x", "user_id": bob})
        with pytest.raises(ToolError, match="forbidden"):
            await mcp.call_tool(
                "memory_upsert", {"content": "x", "visibility": "workspace-shared", "workspace_id": "ws_nobody"}
            )
        own = await mcp.call_tool(
            "memory_append_episode", {"session_id": f"s_{world.tag}", "content": "我们讨论了 ACL"}
        )
        assert own.structured_content["namespace"] == f"session/s_{world.tag}/episodic"
        namespaces = (await mcp.call_tool("memory_list_namespaces", {})).structured_content["result"]
        assert {n["namespace"] for n in namespaces} >= {
            f"user/{world.users['alice']}/long_term",
            f"workspace/{world.workspace}/shared",
        }
        assert not any(bob in n["namespace"] for n in namespaces)
        created = await mcp.call_tool("memory_upsert", {"content": f"{world.tag} via mcp", "tags": [world.tag]})
        assert created.structured_content["namespace"] == f"user/{world.users['alice']}/long_term"
        profile = await mcp.call_tool("memory_get_profile", {})
        assert profile.structured_content["user_id"] == world.users["alice"]
    async with _mcp(world, "bob") as mcp:  # a session id is its user's: Bob's "s_…" is a session of his own
        theirs = await mcp.call_tool("memory_append_episode", {"session_id": f"s_{world.tag}", "content": "intrude"})
        assert theirs.structured_content["namespace"] == f"session/s_{world.tag}/episodic"
    alices = await world.system.client.get(f"/v1/sessions/s_{world.tag}/episodes", headers=world.headers("alice"))
    assert [e["content"] for e in alices.json()] == ["我们讨论了 ACL"]
    async with Client(
        StreamableHttpTransport(f"{world.system.url}/mcp", headers={"Authorization": "Bearer nope"})
    ) as mcp:
        with pytest.raises(ToolError, match="unauthorized"):
            await mcp.call_tool("memory_list_namespaces", {})


@pytest.mark.parametrize("mode", ["sparse", "dense", "hybrid"])
async def test_postgres_rechecks_every_hit_of_every_list_even_when_the_index_lets_it_through(
    system: System, mode: str
) -> None:
    """The index filters by read keys, but Postgres is the truth: a point the index wrongly files under
    another reader (a bug, a stale or tampered shard) is still never answered to that reader, whichever
    list finds it."""
    s = uuid.uuid4().hex[:6]
    owner, intruder = f"owner_{s}", f"intruder_{s}"
    owner_key, intruder_key = await system.user(owner), await system.user(intruder)
    text = f"the vault combination is {s} purple walrus"
    written = await system.client.post("/v1/memory", json={"content": text}, headers=system.auth(owner_key))
    assert written.status_code == 201, written.text
    memory_id = written.json()["id"]
    body = {"query": f"vault combination {s} purple walrus", "mode": mode, "limit": 20}
    own = await system.client.post("/v1/memory/search", json=body, headers=system.auth(owner_key))
    assert own.status_code == 200, own.text
    assert memory_id in [h["memory"]["id"] for h in own.json()["results"]]  # the query finds it
    row = await system.infra.pool.fetchrow(f"SELECT {RECORD_COLUMNS}, embedding FROM memories WHERE id = $1", memory_id)
    await system.infra.index.upsert([index_point({**dict(row), "user_id": intruder})])  # filed as the intruder's

    seen = await system.client.post("/v1/memory/search", json=body, headers=system.auth(intruder_key))
    assert seen.status_code == 200, seen.text
    assert memory_id not in [h["memory"]["id"] for h in seen.json()["results"]]
    # The index does hand it to the intruder: without the re-check it would have been answered.
    hits = await system.infra.index.search(
        where=read_where(Principal(user_id=intruder)),
        limit=20,
        **({"dense": vector_of(row["embedding"]).tolist()} if mode == "dense" else {"text": body["query"]}),
    )
    assert memory_id in [h.memory_id for h in hits]


async def test_another_tenants_writes_do_not_move_a_readers_keyword_scores(system: System) -> None:
    """What a reader is answered may depend only on what it may read: if another tenant's memories weighed in
    a reader's scores, the reader could tell whether anyone else wrote a word (its own hit's score falls, as it
    did with BM25's IDF counted by Qdrant over the whole index; a word's rarity is now the reader's own)."""
    s = uuid.uuid4().hex[:6]
    word = f"zorblax{s}"
    reader_key, other_key = await system.user(f"reader_{s}"), await system.user(f"other_{s}")
    for text in (f"{word} project kickoff notes", "lunch on friday", "the quarterly plan"):
        written = await system.client.post("/v1/memory", json={"content": text}, headers=system.auth(reader_key))
        assert written.status_code == 201, written.text
    body = {"query": word, "mode": "sparse", "explain": True}

    async def own_score() -> float:
        answer = await system.client.post("/v1/memory/search", json=body, headers=system.auth(reader_key))
        assert answer.status_code == 200, answer.text
        (hit,) = answer.json()["results"]
        return float(hit["explain"]["bm25_score"])

    alone = await own_score()
    others = {"memories": [{"content": f"{word} memo {n}"} for n in range(20)]}
    written = await system.client.post("/v1/memory/batch", json=others, headers=system.auth(other_key))
    assert written.status_code == 200, written.text
    assert written.json()["failed"] == 0, written.text
    assert await own_score() == pytest.approx(alone, rel=1e-6)
