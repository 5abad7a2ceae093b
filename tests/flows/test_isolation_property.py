"""Property: for random principals, workspaces and memories, nothing a principal may not read ever
reaches it through get, list or search, and everything it may read is listed. The oracle below is
the seed's rule table written again, independently of ``memgw.common.acl``."""

from __future__ import annotations

import uuid
from dataclasses import dataclass

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.conftest import System

VISIBILITIES = ("private", "agent-only", "workspace-shared", "global")


@dataclass(frozen=True)
class Who:
    user: int
    agent: int | None  # index of the user's agent, None = a user key


@dataclass(frozen=True)
class Plan:
    users: int
    agents_per_user: tuple[int, ...]
    members: frozenset[int]  # users in the one workspace (user 0 owns it)
    allowed: frozenset[tuple[int, int]]  # (user, agent) allowed in the workspace
    memories: tuple[tuple[Who, str], ...]


@st.composite
def plans(draw: st.DrawFn) -> Plan:
    users = draw(st.integers(2, 3))
    agents = tuple(draw(st.integers(0, 2)) for _ in range(users))
    members = frozenset({0} | draw(st.frozensets(st.integers(1, users - 1))))
    all_agents = [(u, a) for u in range(users) for a in range(agents[u])]
    allowed = frozenset(draw(st.frozensets(st.sampled_from(all_agents)))) if all_agents else frozenset()
    principals = [Who(u, None) for u in range(users)] + [Who(u, a) for u, a in all_agents]
    writers = st.sampled_from(principals)
    memories = []
    for who in draw(st.lists(writers, min_size=1, max_size=6)):
        options = ["private"] + (["agent-only"] if who.agent is not None else [])
        if who.user in members and (who.agent is None or (who.user, who.agent) in allowed):
            options.append("workspace-shared")
        memories.append((who, draw(st.sampled_from(options))))
    return Plan(users, agents, members, allowed, tuple(memories))


def may_read(plan: Plan, reader: Who, writer: Who, visibility: str) -> bool:
    if visibility == "global":
        return True
    if visibility == "private":
        return reader.user == writer.user
    if visibility == "agent-only":
        return reader.user == writer.user and reader.agent is not None and reader.agent == writer.agent
    in_workspace = reader.user in plan.members
    agent_ok = reader.agent is None or (reader.user, reader.agent) in plan.allowed
    return in_workspace and agent_ok


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(plan=plans())
async def test_no_principal_ever_sees_a_memory_it_may_not_read(system: System, plan: Plan) -> None:
    s = uuid.uuid4().hex[:8]
    user_ids = [f"p{s}u{u}" for u in range(plan.users)]
    keys: dict[Who, str] = {}
    for u, uid in enumerate(user_ids):
        keys[Who(u, None)] = await system.user(uid)
        for a in range(plan.agents_per_user[u]):
            keys[Who(u, a)] = await system.agent(uid, f"{uid}a{a}")
    workspace = f"p{s}ws"
    # The operator's admin key provisions memberships and agents directly (users would invite and accept).
    created = await system.client.post(
        "/v1/workspaces",
        json={
            "workspace_id": workspace,
            "member_user_ids": [user_ids[u] for u in plan.members],
            "allowed_agent_ids": [f"{user_ids[u]}a{a}" for u, a in plan.allowed],
        },
        headers=system.auth(),
    )
    assert created.status_code == 201, created.text
    tag = f"prop{s}"
    written: dict[str, tuple[Who, str]] = {}
    for n, (writer, visibility) in enumerate(plan.memories):
        body = {"content": f"{tag} 记忆 number {n}", "tags": [tag], "visibility": visibility}
        if visibility == "workspace-shared":
            body["workspace_id"] = workspace
        response = await system.client.post("/v1/memory", json=body, headers=system.auth(keys[writer]))
        assert response.status_code == 201, response.text
        written[response.json()["id"]] = (writer, visibility)

    for reader, key in keys.items():
        expected = {mid for mid, (writer, vis) in written.items() if may_read(plan, reader, writer, vis)}
        headers = system.auth(key)
        listed = await system.client.get("/v1/memory", params={"tags": [tag], "limit": 100}, headers=headers)
        assert {m["id"] for m in listed.json()["items"]} == expected, reader
        found = await system.client.post(
            "/v1/memory/search", json={"query": f"{tag} 记忆", "limit": 100}, headers=headers
        )
        hits = found.json()["results"]
        returned = {h["memory"]["id"] for h in hits} | {d for h in hits for d in h["duplicates"]}  # folded twins
        assert returned & set(written) == expected, reader
        for mid in set(written) - expected:
            assert (await system.client.get(f"/v1/memory/{mid}", headers=headers)).status_code == 404
