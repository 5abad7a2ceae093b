"""Issue "Trust C": the vault, the bus and fair shares hold like the API does. Each test here failed on
the code before it: a request that reached past the policy module through an input it did not guard."""

from __future__ import annotations

import asyncio
import uuid
from pathlib import Path
from typing import Any

import pytest

from memgw.common.bus import MSG_ID_HEADER
from memgw.common.events import MemoryFeedbackGiven, Subject
from tests.conftest import StageWatcher, System


@pytest.fixture
async def pair(system: System) -> tuple[str, str, str, str]:
    """Two users, each with a key: (alice, alice's key, mallory, mallory's key)."""
    alice, mallory = f"tc_a_{uuid.uuid4().hex[:6]}", f"tc_m_{uuid.uuid4().hex[:6]}"
    return alice, await system.user(alice), mallory, await system.user(mallory)


async def _remember(system: System, key: str, content: str, **extra: Any) -> dict[str, Any]:
    answer = await system.client.post("/v1/memory", json={"content": content, **extra}, headers=system.auth(key))
    assert answer.status_code == 201, answer.text
    return dict(answer.json())


async def _version(system: System, memory_id: str) -> int:
    return int(await system.infra.pool.fetchval("SELECT version FROM memories WHERE id = $1", memory_id))


# -- N2: merging into a record needs the right to write it ----------------------------------------------


async def test_duplicate_feedback_cannot_merge_into_a_record_the_reader_may_not_write(
    system: System, pair: tuple[str, str, str, str]
) -> None:
    _, _, mallory, mallory_key = pair
    everyone = await _remember(system, system.admin_key, "The office closes at 18:00.", visibility="global")
    own = await _remember(system, mallory_key, "The office closes at 18:00, says mallory.", tags=["mine"])
    answer = await system.client.post(
        f"/v1/memory/{own['id']}/feedback",
        json={"feedback": "duplicate", "target_memory_id": everyone["id"]},
        headers=system.auth(mallory_key),
    )
    assert answer.status_code == 403, answer.text
    assert "trusted writers" in answer.json()["detail"]
    denied = await system.infra.pool.fetchval(
        "SELECT count(*) FROM audit_log WHERE actor_user_id = $1 AND decision = 'deny' AND action = 'memory_feedback'",
        mallory,
    )
    assert denied == 1
    assert await _version(system, everyone["id"]) == everyone["version"]


async def test_a_forged_duplicate_on_the_bus_changes_no_record_the_giver_may_not_write(
    system: System, pair: tuple[str, str, str, str]
) -> None:
    """The bus is an input: a message acting for a user is decided as that user, as they stand now."""
    alice, alice_key, mallory, mallory_key = pair
    theirs = await _remember(system, alice_key, "Alice takes the 8:05 train.")
    own = await _remember(system, mallory_key, "Mallory takes a train too.")
    infra = system.infra
    forged = MemoryFeedbackGiven(
        memory_id=own["id"],
        user_id=mallory,
        feedback="duplicate",
        target_memory_id=theirs["id"],
        given_by=mallory,
    )
    useful = MemoryFeedbackGiven(memory_id=theirs["id"], user_id=alice, feedback="useful", given_by=mallory)
    for event in (forged, useful):
        await infra.broker.publish(
            event.model_dump(mode="json"),
            infra.layout.subject(Subject.MEMORY_FEEDBACK),
            headers={MSG_ID_HEADER: event.id},
            stream=infra.layout.stream_of(Subject.MEMORY_FEEDBACK).name,
        )

    async def refused() -> int:
        return int(
            await infra.pool.fetchval(
                "SELECT count(*) FROM audit_log WHERE actor_user_id = $1 AND decision = 'deny'"
                " AND target_id = $2 AND reason LIKE 'not applied:%'",
                mallory,
                theirs["id"],
            )
        )

    async with asyncio.timeout(30):
        while await refused() < 2:
            await asyncio.sleep(0.1)
    assert await _version(system, theirs["id"]) == theirs["version"]
    assert await _version(system, own["id"]) == own["version"]


# -- N7: the last 500s ----------------------------------------------------------------------------------


async def test_deep_nesting_on_rpc_and_the_toml_import_is_a_clear_refusal(
    system: System, pair: tuple[str, str, str, str]
) -> None:
    _, key, _, _ = pair
    h = system.auth(key)
    deep_json = '{"jsonrpc": "2.0", "id": 1, "method": "x", "params": ' + "[" * 100_000 + "]" * 100_000 + "}"
    for body in (deep_json, '{"jsonrpc": "2.0", "id": 1, "method": "x", "params": ' + "[" * 40 + "]" * 40 + "}"):
        answer = await system.client.post("/rpc", content=body, headers={**h, "Content-Type": "application/json"})
        assert answer.status_code == 200, answer.text
        assert answer.json()["error"]["code"] == -32600
        assert "nested" in answer.json()["error"]["message"]
    for depth in (100_000, 40):
        toml = "x = " + "[" * depth + "]" * depth + "\n"
        answer = await system.client.post(
            "/v1/sources/import", content=toml, headers={**h, "Content-Type": "text/plain"}
        )
        assert answer.status_code == 400, answer.text
        assert "nested" in answer.json()["detail"]


async def test_a_binary_first_frame_on_the_events_websocket_is_an_unauthenticated_close(system: System) -> None:
    from websockets.asyncio.client import connect as ws_connect
    from websockets.exceptions import ConnectionClosed

    ws_url = system.url.replace("http://", "ws://") + "/v1/events/ws"
    async with ws_connect(ws_url) as ws:
        await ws.send(b"\x00\xff binary")
        with pytest.raises(ConnectionClosed) as closed:
            await asyncio.wait_for(ws.recv(), 10)
    assert closed.value.rcvd is not None
    assert closed.value.rcvd.code == 4401


# -- N8: one rule for a secret on every write path ------------------------------------------------------


async def test_every_write_path_stores_a_secret_redacted(
    system: System, pair: tuple[str, str, str, str], stage_watcher: StageWatcher, files_dir: Path
) -> None:
    alice, key, _, _ = pair
    made = await _remember(system, key, "Note to self: my password is hunter2")
    got = await system.client.get(f"/v1/memory/{made['id']}", headers=system.auth(key))
    assert got.json()["content"] == "Note to self: my [redacted]"
    patched = await system.client.patch(
        f"/v1/memory/{made['id']}", json={"content": "PIN: 4821"}, headers=system.auth(key)
    )
    assert patched.status_code == 200, patched.text
    assert patched.json()["content"] == "[redacted]"

    folder = files_dir
    (folder / "travel.md").write_text("# Travel\n\nHotel booked with card 4111 1111 1111 1111, room 12.\n")
    source_id = f"src_{uuid.uuid4().hex[:6]}"
    await system.folder_source(key, source_id, folder)
    final = await system.sync(key, source_id, stage_watcher)
    assert final["stage"] == "Completed", final
    chunks = await system.infra.pool.fetch("SELECT content FROM memories WHERE source_id = $1", source_id)
    assert chunks
    assert all("4111" not in c["content"] for c in chunks)
    assert any("[redacted]" in c["content"] for c in chunks)
    stored = await system.infra.pool.fetch("SELECT content FROM memories WHERE user_id = $1", alice)
    assert not any("hunter2" in r["content"] or "4821" in r["content"] for r in stored)


async def test_the_refuse_rule_answers_422_and_a_source_counts_what_it_left_out(
    system: System,
    pair: tuple[str, str, str, str],
    stage_watcher: StageWatcher,
    files_dir: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _, key, _, _ = pair
    monkeypatch.setattr(system.infra.store, "secrets_on_write", "refuse")
    answer = await system.client.post(
        "/v1/memory", json={"content": "stripe sk_live_51HqLyjWDarjtT1zdp7dcXYZ"}, headers=system.auth(key)
    )
    assert answer.status_code == 422, answer.text
    assert answer.json()["error"] == "secret_refused"

    folder = files_dir
    (folder / "a.md").write_text("The garden needs water on Sundays.\n")
    (folder / "b.md").write_text("The safe's PIN: 4821\n")
    source_id = f"src_{uuid.uuid4().hex[:6]}"
    await system.folder_source(key, source_id, folder)
    final = await system.sync(key, source_id, stage_watcher)
    assert final["counts"]["chunks"] == 1, final
    assert final["counts"]["chunks_refused"] == 1, final


# -- N9: mem0's add tells an agent nothing of a sibling's memories --------------------------------------


async def test_mem0_add_does_not_answer_with_a_sibling_agents_memory(
    system: System, pair: tuple[str, str, str, str]
) -> None:
    alice, _, _, _ = pair
    first, second = f"ag1_{uuid.uuid4().hex[:6]}", f"ag2_{uuid.uuid4().hex[:6]}"
    first_key, second_key = await system.agent(alice, first), await system.agent(alice, second)
    said = [{"role": "user", "content": "The staging database lives on port 6543."}]
    mine = await _remember(system, first_key, said[0]["content"], visibility="agent-only")
    again = await system.client.post(
        "/mem0/v3/memories/add/",
        json={"messages": said, "agent_id": second, "infer": False},
        headers={"Authorization": f"Token {second_key}"},
    )
    [theirs] = again.json()["results"]
    assert theirs["event"] == "ADD"
    assert theirs["id"] != mine["id"]


# -- N6: one user's big commit does not hold another's ----------------------------------------------------


async def _commit(system: System, key: str, text: str) -> str:
    sid = f"s_{uuid.uuid4().hex[:8]}"
    h = system.auth(key)
    assert (await system.client.post("/v1/episodes", json={"session_id": sid, "content": text}, headers=h)).is_success
    answer = await system.client.post(f"/v1/sessions/{sid}/commit", json={}, headers=h)
    assert answer.status_code == 202, answer.text
    return str(answer.json()["job"])


async def _job_state(system: System, key: str, job_url: str) -> str:
    return str((await system.client.get(job_url, headers=system.auth(key))).json()["state"])


async def test_a_users_commit_is_consolidated_while_anothers_is_still_running(
    system: System, pair: tuple[str, str, str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from memgw.consolidator.service import Consolidator

    alice, alice_key, _, mallory_key = pair
    release = asyncio.Event()
    original = Consolidator.on_session_committed

    async def slow_for_alice(self: Consolidator, event: Any) -> Any:
        if event.user_id == alice:
            await release.wait()  # a big commit, as long as the test wants
        return await original(self, event)

    monkeypatch.setattr(Consolidator, "on_session_committed", slow_for_alice)
    try:
        held = await _commit(system, alice_key, "I work at the harbour office as a pilot.")
        await asyncio.sleep(0.5)  # alice's commit is taken first
        other = await _commit(system, mallory_key, "I am allergic to shellfish.")
        async with asyncio.timeout(30):
            while await _job_state(system, mallory_key, other) not in ("done", "failed"):
                await asyncio.sleep(0.1)
        assert await _job_state(system, mallory_key, other) == "done"
        assert await _job_state(system, alice_key, held) not in ("done", "failed")
    finally:
        release.set()
    async with asyncio.timeout(30):
        while await _job_state(system, alice_key, held) not in ("done", "failed"):
            await asyncio.sleep(0.1)


# -- Lower: ids that differ only in case, an unbounded correlation id --------------------------------------


async def test_user_ids_that_differ_only_in_case_are_one_id(system: System) -> None:
    uid = f"Case_{uuid.uuid4().hex[:6]}"
    await system.admin("POST", "/v1/users", json={"user_id": uid})
    answer = await system.client.post("/v1/users", json={"user_id": uid.lower()}, headers=system.auth())
    assert answer.status_code == 409, answer.text


async def test_a_correlation_id_the_caller_sends_is_kept_only_when_plain_and_short(
    system: System, pair: tuple[str, str, str, str]
) -> None:
    _, key, _, _ = pair
    for sent, kept in (("req-42.a:b", True), ("x" * 10_000, False), ("has space", False)):
        answer = await system.client.get("/v1/memory", headers={**system.auth(key), "X-Correlation-ID": sent})
        assert answer.status_code == 200
        assert (answer.headers["X-Correlation-ID"] == sent) is kept
        assert len(answer.headers["X-Correlation-ID"]) <= 128


# -- N10: a session id is its user's ------------------------------------------------------------------------


async def test_a_session_id_another_user_took_first_is_still_free_for_each_user(
    system: System, pair: tuple[str, str, str, str]
) -> None:
    _, alice_key, _, mallory_key = pair
    sid = f"chat-{uuid.uuid4().hex[:6]}"
    for key, text in ((mallory_key, "squatting on the id"), (alice_key, "I prefer tea in the morning.")):
        answer = await system.client.post(
            "/v1/episodes", json={"session_id": sid, "content": text}, headers=system.auth(key)
        )
        assert answer.status_code == 201, answer.text
    alices = await system.client.get(f"/v1/sessions/{sid}/episodes", headers=system.auth(alice_key))
    assert [e["content"] for e in alices.json()] == ["I prefer tea in the morning."]
    committed = await system.client.post(f"/v1/sessions/{sid}/commit", json={}, headers=system.auth(alice_key))
    assert committed.status_code == 202, committed.text
    mallorys = await system.client.get(f"/v1/sessions/{sid}/episodes", headers=system.auth(mallory_key))
    assert [e["content"] for e in mallorys.json()] == ["squatting on the id"]


async def test_an_evermemos_group_session_cannot_be_taken_by_another_user(
    system: System, pair: tuple[str, str, str, str]
) -> None:
    from memgw.gateway.evermemos_service import session_of

    alice, alice_key, _, mallory_key = pair
    squatted = session_of(alice, "family")  # what anyone can compute
    taken = await system.client.post("/v1/sessions", json={"session_id": squatted}, headers=system.auth(mallory_key))
    assert taken.status_code == 201, taken.text
    message = {
        "message_id": f"m_{uuid.uuid4().hex[:6]}",
        "create_time": "2026-12-01T10:00:00Z",
        "sender": alice,
        "content": "We moved the family dinner to Sundays.",
        "group_id": "family",
    }
    answer = await system.client.post("/evermemos/api/v0/memories", json=message, headers=system.auth(alice_key))
    assert answer.status_code == 200, answer.text
    rows = await system.infra.pool.fetch(
        "SELECT user_id, content FROM episodes WHERE session_id = $1 ORDER BY user_id", squatted
    )
    assert [(r["user_id"], r["content"]) for r in rows] == [(alice, "We moved the family dinner to Sundays.")]


async def test_revoking_another_users_key_answers_as_a_missing_one(
    system: System, pair: tuple[str, str, str, str]
) -> None:
    _, alice_key, _, mallory_key = pair
    [alices] = (await system.client.get("/v1/keys", headers=system.auth(alice_key))).json()
    theirs = await system.client.delete(f"/v1/keys/{alices['id']}", headers=system.auth(mallory_key))
    missing = await system.client.delete("/v1/keys/key_does_not_exist", headers=system.auth(mallory_key))
    assert (
        (theirs.status_code, theirs.json()["error"])
        == (missing.status_code, missing.json()["error"])
        == (404, "not_found")
    )
    assert (await system.client.get("/v1/memory", headers=system.auth(alice_key))).status_code == 200


# -- Candidates follow the visibility of what they would become -------------------------------------------


async def test_an_agents_candidates_are_read_as_the_memories_they_would_become(
    system: System, pair: tuple[str, str, str, str]
) -> None:
    """A lesson of agent Y's session would become Y's agent-only memory: as a candidate, sibling agent X
    of the same user neither lists nor reads it. The user's own facts from that session would become
    the user's private memories, which every agent of the user reads: so do their candidates."""
    alice, _, _, _ = pair
    x, y = f"agx_{uuid.uuid4().hex[:6]}", f"agy_{uuid.uuid4().hex[:6]}"
    x_key, y_key = await system.agent(alice, x), await system.agent(alice, y)
    sid = f"s_{uuid.uuid4().hex[:8]}"
    lesson = "Lesson learned: the migration failed because the advisory lock was missing."
    for text in (lesson, "I am allergic to shellfish."):
        posted = await system.client.post(
            "/v1/episodes", json={"session_id": sid, "content": text}, headers=system.auth(y_key)
        )
        assert posted.status_code == 201, posted.text
    committed = await system.client.post(
        f"/v1/sessions/{sid}/commit?wait=true", json={"promote": False}, headers=system.auth(y_key)
    )
    assert committed.status_code == 200, committed.text

    async def candidates(key: str) -> dict[str, dict[str, Any]]:
        listed = await system.client.get("/v1/memory", params={"status": "candidate"}, headers=system.auth(key))
        return {m["content"]: m for m in listed.json()["items"]}

    mine = await candidates(y_key)
    assert mine[lesson]["visibility"] == "agent-only"
    theirs = await candidates(x_key)
    assert lesson not in theirs
    assert "I am allergic to shellfish." in theirs
    hidden = await system.client.get(f"/v1/memory/{mine[lesson]['id']}", headers=system.auth(x_key))
    assert hidden.status_code == 404
    asked = {"query": "migration advisory lock lesson", "statuses": ["candidate"], "limit": 20}
    found = await system.client.post("/v1/memory/search", json=asked, headers=system.auth(x_key))
    assert mine[lesson]["id"] not in [hit["memory"]["id"] for hit in found.json()["results"]]
    own_found = await system.client.post("/v1/memory/search", json=asked, headers=system.auth(y_key))
    assert mine[lesson]["id"] in [hit["memory"]["id"] for hit in own_found.json()["results"]]  # the query finds it


async def test_a_forged_review_decision_on_the_bus_is_decided_by_the_policy(
    system: System, pair: tuple[str, str, str, str]
) -> None:
    from memgw.common.events import ReviewDecided

    _, alice_key, mallory, _ = pair
    for text in ("我住在北京。", "我搬到上海了。"):
        await _commit(system, alice_key, text)
    async with asyncio.timeout(30):
        while not (reviews := (await system.client.get("/v1/reviews", headers=system.auth(alice_key))).json()):
            await asyncio.sleep(0.1)
    [review] = reviews
    forged = ReviewDecided(review_id=review["id"], decision="accept_new", decided_by=mallory)
    infra = system.infra
    await infra.broker.publish(
        forged.model_dump(mode="json"),
        infra.layout.subject(Subject.REVIEW_DECIDED),
        headers={MSG_ID_HEADER: forged.id},
        stream=infra.layout.stream_of(Subject.REVIEW_DECIDED).name,
    )
    async with asyncio.timeout(30):
        while not await infra.pool.fetchval(
            "SELECT 1 FROM audit_log WHERE actor_user_id = $1 AND target_id = $2 AND decision = 'deny'",
            mallory,
            review["id"],
        ):
            await asyncio.sleep(0.1)
    still = await system.client.get("/v1/reviews", params={"status": "open"}, headers=system.auth(alice_key))
    assert [r["id"] for r in still.json()] == [review["id"]]
