"""The policy as a table: principal × resource × action → allow or deny, and the reason given.

Pure functions, no infrastructure. Every resource and action of ``policy.Action`` appears here; the
same decisions are seen through REST and MCP in tests/security/test_trust_a.py.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from memgw.common.domain import Principal
from memgw.common.policy import (
    ActingRef,
    Action,
    AgentGrantRef,
    AgentRef,
    AuditRef,
    ConnectionRef,
    CountsRef,
    CredentialRef,
    KeyRef,
    MembershipRef,
    MemoryRef,
    NamespaceRef,
    OwnedRef,
    PlacementRef,
    Resource,
    SessionRef,
    SkillRef,
    SourceRef,
    WorkspaceRef,
    decide,
)

pytestmark = pytest.mark.unit

ALICE = Principal(user_id="alice", workspace_ids=frozenset({"ws"}))
ALICE_AGENT = Principal(user_id="alice", agent_id="a_bot", workspace_ids=frozenset({"ws"}), memory_sources=("s1",))
ALICE_AGENT_OUT = Principal(user_id="alice", agent_id="a_other", workspace_ids=frozenset())  # not allowed in ws
BOB = Principal(user_id="bob", workspace_ids=frozenset({"ws"}))
MALLORY = Principal(user_id="mallory")
TRUSTED = Principal(user_id="tina", is_trusted=True)
ADMIN = Principal(user_id="admin", is_admin=True, is_trusted=True)

WS = WorkspaceRef("ws", "alice", members=frozenset({"alice", "bob"}), invited=frozenset({"ivy"}))
ALICE_SOURCE = SourceRef("s1", "alice", "ws", "alice")
BOB_SOURCE_IN_WS = SourceRef("s2", "bob", "ws", "alice")
PRIVATE_SOURCE = SourceRef("s3", "alice")
SESSION = SessionRef("sess", "alice", None)
AGENT_SESSION = SessionRef("sess2", "alice", "a_bot")

# (name, principal, action, resource, allowed, a word of the reason)
TABLE: list[tuple[str, Principal, Action, Resource, bool, str]] = [
    # acting for someone in a request body
    ("own user", ALICE, Action.ACT_FOR, ActingRef(user_id="alice"), True, "itself"),
    ("another user", MALLORY, Action.ACT_FOR, ActingRef(user_id="alice"), False, "may not act for user alice"),
    ("own agent", ALICE, Action.ACT_FOR, ActingRef(agent_id="a_bot", agent_owner_id="alice"), True, "itself"),
    ("another's agent", MALLORY, Action.ACT_FOR, ActingRef(agent_id="a_bot", agent_owner_id="alice"), False, "not an"),
    ("agent for agent", ALICE_AGENT, Action.ACT_FOR, ActingRef(agent_id="a_x", agent_owner_id="alice"), False, "key"),
    ("foreign workspace", MALLORY, Action.ACT_FOR, ActingRef(workspace_id="ws"), False, "not a member"),
    # memories
    ("own private", ALICE, Action.MEMORY_WRITE, MemoryRef("alice", None, "private", None), True, "own"),
    ("another's private", MALLORY, Action.MEMORY_WRITE, MemoryRef("alice", None, "private", None), False, "another"),
    ("other agent", ALICE_AGENT, Action.MEMORY_WRITE, MemoryRef("alice", "a_x", "agent-only", None), False, "agent"),
    ("workspace member", BOB, Action.MEMORY_WRITE, MemoryRef("alice", None, "workspace-shared", "ws"), True, "member"),
    ("non-member", MALLORY, Action.MEMORY_WRITE, MemoryRef("alice", None, "workspace-shared", "ws"), False, "member"),
    ("global untrusted", ALICE, Action.MEMORY_WRITE, MemoryRef("alice", None, "global", None), False, "trusted"),
    ("global trusted", TRUSTED, Action.MEMORY_WRITE, MemoryRef("tina", None, "global", None), True, "trusted"),
    # sources
    ("owner reads", ALICE, Action.SOURCE_READ, ALICE_SOURCE, True, "owner"),
    ("member reads", BOB, Action.SOURCE_READ, ALICE_SOURCE, True, "member"),
    ("stranger reads", MALLORY, Action.SOURCE_READ, ALICE_SOURCE, False, "another user"),
    ("member items", BOB, Action.SOURCE_ITEMS, ALICE_SOURCE, True, "member"),
    ("member runs", BOB, Action.SOURCE_RUNS, ALICE_SOURCE, True, "member"),
    ("private source, member", BOB, Action.SOURCE_READ, PRIVATE_SOURCE, False, "another user"),
    ("member patches", BOB, Action.SOURCE_PATCH, ALICE_SOURCE, False, "only the owner"),
    ("member syncs", BOB, Action.SOURCE_SYNC, ALICE_SOURCE, False, "only the owner"),
    ("member deletes", BOB, Action.SOURCE_DELETE, ALICE_SOURCE, False, "only the owner"),
    ("owner patches", ALICE, Action.SOURCE_PATCH, ALICE_SOURCE, True, "owner"),
    ("workspace owner removes", ALICE, Action.SOURCE_DELETE, BOB_SOURCE_IN_WS, True, "owner of workspace"),
    ("ws owner syncs other's", ALICE, Action.SOURCE_SYNC, BOB_SOURCE_IN_WS, False, "only the owner"),
    ("create for another", MALLORY, Action.SOURCE_CREATE, SourceRef("x", "alice"), False, "another user"),
    ("create own", MALLORY, Action.SOURCE_CREATE, SourceRef("x", "mallory"), True, "own"),
    ("agent in scope", ALICE_AGENT, Action.SOURCE_READ, ALICE_SOURCE, True, "owner"),
    ("agent out of scope", ALICE_AGENT, Action.SOURCE_READ, PRIVATE_SOURCE, False, "memory_sources"),
    ("agent patch out of scope", ALICE_AGENT, Action.SOURCE_PATCH, PRIVATE_SOURCE, False, "memory_sources"),
    ("place as member", BOB, Action.SOURCE_PLACE, PlacementRef("ws", "bob", True), True, "member"),
    ("place as stranger", MALLORY, Action.SOURCE_PLACE, PlacementRef("ws", "mallory", False), False, "not a member"),
    (
        "place, agent not allowed",
        ALICE_AGENT_OUT,
        Action.SOURCE_PLACE,
        PlacementRef("ws", "alice", True),
        False,
        "agent",
    ),
    # upstream accounts and credentials
    ("own connection", ALICE, Action.CONNECTION_USE, ConnectionRef("c", "alice", "alice"), True, "owner"),
    ("their connection", MALLORY, Action.CONNECTION_USE, ConnectionRef("c", "mallory", "alice"), False, "another"),
    ("ownerless connection", MALLORY, Action.CONNECTION_USE, ConnectionRef("c", "mallory", None), False, "no owner"),
    ("ownerless, admin", ADMIN, Action.CONNECTION_USE, ConnectionRef("c", "admin", None), True, "admin"),
    ("named user", ALICE, Action.CREDENTIAL_USE, CredentialRef("T", "alice", ("alice",)), True, "lets"),
    ("unnamed user", MALLORY, Action.CREDENTIAL_USE, CredentialRef("T", "mallory", ("alice",)), False, "named"),
    ("every user", MALLORY, Action.CREDENTIAL_USE, CredentialRef("T", "mallory", ("*",)), True, "lets"),
    ("admin unnamed", ADMIN, Action.CREDENTIAL_USE, CredentialRef("T", "admin", ()), False, "named"),
    # workspaces and membership
    ("create", ALICE, Action.WORKSPACE_CREATE, WS, True, "any user"),
    ("agent creates", ALICE_AGENT, Action.WORKSPACE_CREATE, WS, False, "agent-bound"),
    ("member reads ws", BOB, Action.WORKSPACE_READ, WS, True, "member"),
    ("invited reads ws", Principal(user_id="ivy"), Action.WORKSPACE_READ, WS, True, "invited"),
    ("stranger reads ws", MALLORY, Action.WORKSPACE_READ, WS, False, "not a member"),
    ("owner invites", ALICE, Action.WORKSPACE_INVITE, MembershipRef(WS, "carol"), True, "accept"),
    ("member invites", BOB, Action.WORKSPACE_INVITE, MembershipRef(WS, "carol"), False, "only the owner"),
    ("invited joins", Principal(user_id="ivy"), Action.WORKSPACE_JOIN, MembershipRef(WS, "ivy"), True, "accepts"),
    ("uninvited joins", MALLORY, Action.WORKSPACE_JOIN, MembershipRef(WS, "mallory"), False, "no invitation"),
    ("joins for another", ALICE, Action.WORKSPACE_JOIN, MembershipRef(WS, "ivy"), False, "only the invited"),
    ("member leaves", BOB, Action.WORKSPACE_REMOVE_MEMBER, MembershipRef(WS, "bob"), True, "always leave"),
    ("owner removes", ALICE, Action.WORKSPACE_REMOVE_MEMBER, MembershipRef(WS, "bob"), True, "owner removes"),
    ("member removes other", BOB, Action.WORKSPACE_REMOVE_MEMBER, MembershipRef(WS, "ivy"), False, "only the owner"),
    ("owner leaves", ALICE, Action.WORKSPACE_REMOVE_MEMBER, MembershipRef(WS, "alice"), False, "cannot leave"),
    ("own agent in", BOB, Action.WORKSPACE_ALLOW_AGENT, AgentGrantRef(WS, "b_bot", "bob"), True, "own agent"),
    ("other's agent in", ALICE, Action.WORKSPACE_ALLOW_AGENT, AgentGrantRef(WS, "b_bot", "bob"), False, "its owner"),
    ("agent in, not member", MALLORY, Action.WORKSPACE_ALLOW_AGENT, AgentGrantRef(WS, "m", "mallory"), False, "member"),
    ("unknown agent", ALICE, Action.WORKSPACE_ALLOW_AGENT, AgentGrantRef(WS, "ghost", None), False, "no agent"),
    ("withdraw own", BOB, Action.WORKSPACE_WITHDRAW_AGENT, AgentGrantRef(WS, "b_bot", "bob"), True, "always"),
    ("ws owner withdraws", ALICE, Action.WORKSPACE_WITHDRAW_AGENT, AgentGrantRef(WS, "b_bot", "bob"), True, "owner"),
    ("withdraw other's", MALLORY, Action.WORKSPACE_WITHDRAW_AGENT, AgentGrantRef(WS, "b", "bob"), False, "another"),
    # sessions and where commits write
    ("own session", ALICE, Action.SESSION_READ, SESSION, True, "own"),
    ("another's session", MALLORY, Action.SESSION_COMMIT, SESSION, False, "another user"),
    (
        "other agent's session",
        replace(ALICE_AGENT, agent_id="a_x"),
        Action.SESSION_WRITE,
        AGENT_SESSION,
        False,
        "agent",
    ),
    ("commit long-term", ALICE, Action.COMMIT_TARGET, NamespaceRef("user/alice/long_term", SESSION), True, "may"),
    ("commit to other user", ALICE, Action.COMMIT_TARGET, NamespaceRef("user/bob/long_term", SESSION), False, "not"),
    ("commit to member ws", ALICE, Action.COMMIT_TARGET, NamespaceRef("workspace/ws/shared", SESSION), True, "may"),
    ("commit to foreign ws", ALICE, Action.COMMIT_TARGET, NamespaceRef("workspace/x/shared", SESSION), False, "not"),
    ("commit to own agent", ALICE, Action.COMMIT_TARGET, NamespaceRef("agent/a_bot/memory", AGENT_SESSION), True, "m"),
    ("commit to other agent", ALICE, Action.COMMIT_TARGET, NamespaceRef("agent/x/memory", AGENT_SESSION), False, "n"),
    ("commit global", ALICE, Action.COMMIT_TARGET, NamespaceRef("global/public", SESSION), False, "may not"),
    ("commit session ns", ALICE, Action.COMMIT_TARGET, NamespaceRef("session/sess/episodic", SESSION), False, "not a"),
    # reviews, jobs, profiles, users
    ("own review", ALICE, Action.REVIEW_DECIDE, OwnedRef("review", "r", "alice"), True, "own review"),
    ("agent decides", ALICE_AGENT, Action.REVIEW_DECIDE, OwnedRef("review", "r", "alice"), False, "agent-bound"),
    ("other's review", MALLORY, Action.REVIEW_READ, OwnedRef("review", "r", "alice"), False, "belongs"),
    ("own job", ALICE, Action.JOB_READ, OwnedRef("job", "j", "alice"), True, "own job"),
    ("other's job", MALLORY, Action.JOB_READ, OwnedRef("job", "j", "alice"), False, "belongs"),
    ("own profile", ALICE_AGENT, Action.PROFILE_READ, OwnedRef("profile", "alice", "alice"), True, "own"),
    ("other's profile", MALLORY, Action.PROFILE_READ, OwnedRef("profile", "alice", "alice"), False, "belongs"),
    ("read self", ALICE, Action.USER_READ, OwnedRef("user", "alice", "alice"), True, "own"),
    ("create user", ALICE, Action.USER_CREATE, OwnedRef("user", "zed", "zed"), False, "only an admin"),
    ("admin creates user", ADMIN, Action.USER_CREATE, OwnedRef("user", "zed", "zed"), True, "admin"),
    # agents and keys
    ("own agent", ALICE, Action.AGENT_UPDATE, AgentRef("a_bot", "alice"), True, "own agent"),
    ("agent updates itself", ALICE_AGENT, Action.AGENT_UPDATE, AgentRef("a_bot", "alice"), False, "agent-bound"),
    ("other's agent", MALLORY, Action.AGENT_READ, AgentRef("a_bot", "alice"), False, "another user"),
    ("create agent for other", MALLORY, Action.AGENT_CREATE, AgentRef("x", "alice"), False, "another user"),
    ("own key", ALICE, Action.KEY_CREATE, KeyRef("alice", "a_bot", "alice"), True, "own key"),
    ("key for other's agent", MALLORY, Action.KEY_CREATE, KeyRef("mallory", "a_bot", "alice"), False, "not an agent"),
    ("key for other user", MALLORY, Action.KEY_CREATE, KeyRef("alice"), False, "may not manage"),
    ("agent lists keys", ALICE_AGENT, Action.KEY_LIST, KeyRef("alice"), False, "agent-bound"),
    ("revoke other's key", MALLORY, Action.KEY_REVOKE, KeyRef("alice"), False, "may not manage"),
    # audit
    ("own audit", ALICE, Action.AUDIT_READ, AuditRef("alice"), True, "own"),
    ("other's audit", ALICE, Action.AUDIT_READ, AuditRef("bob"), False, "only an admin"),
    ("admin audit", ADMIN, Action.AUDIT_READ, AuditRef(None), True, "admin"),
    ("a user counts everyone's memories", ALICE, Action.COUNTS_READ, CountsRef(), False, "only an admin"),
    ("the admin counts everyone's memories", ADMIN, Action.COUNTS_READ, CountsRef(), True, "admin"),
    ("any key reads the skills", ALICE, Action.SKILL_READ, SkillRef(), True, "every key"),
    ("any key reads one skill", ALICE, Action.SKILL_READ, SkillRef("classify_memory"), True, "every key"),
]


@pytest.mark.parametrize(
    ("principal", "action", "resource", "allowed", "reason"),
    [pytest.param(*row[1:], id=row[0]) for row in TABLE],
)
def test_the_policy_answers_with_its_reason(
    principal: Principal, action: Action, resource: Resource, allowed: bool, reason: str
) -> None:
    decision = decide(principal, action, resource)
    assert decision.allowed is allowed, decision.reason
    assert reason in decision.reason


def test_the_table_covers_every_action_and_resource() -> None:
    assert {row[2] for row in TABLE} == set(Action)
    assert {type(row[3]) for row in TABLE} == set(Resource.__args__)  # type: ignore[attr-defined]


def test_every_refusal_has_a_reason_to_audit() -> None:
    for _, principal, action, resource, _, _ in TABLE:
        assert decide(principal, action, resource).reason.strip()
