"""The consolidator end to end over NATS: commit → extraction → promotion, dedup and merge,
contradictions to human review, feedback, decay, profile evolution, redelivery."""

from __future__ import annotations

import asyncio
import json
import uuid
from datetime import UTC, datetime, timedelta
from typing import Any

import nats
import pytest

from memgw.common.bus import MSG_ID_HEADER
from memgw.common.events import SessionCommitted, Subject
from memgw.consolidator.main import maintenance_for
from tests.conftest import System


class Person:
    def __init__(self, system: System, user_id: str, key: str):
        self.system, self.user_id, self.key = system, user_id, key

    @property
    def h(self) -> dict[str, str]:
        return self.system.auth(self.key)

    async def session(self, *episodes: str, **commit: Any) -> dict[str, Any]:
        """Append episodes to a new session, commit it, wait for the consolidator's job."""
        sid = f"s_{uuid.uuid4().hex[:8]}"
        for text in episodes:
            r = await self.system.client.post("/v1/episodes", json={"session_id": sid, "content": text}, headers=self.h)
            assert r.status_code == 201, r.text
        answer = await self.system.client.post(f"/v1/sessions/{sid}/commit", json=commit, headers=self.h)
        assert answer.status_code == 202, answer.text
        async with asyncio.timeout(30):
            while True:
                job = (await self.system.client.get(answer.json()["job"], headers=self.h)).json()
                if job["state"] in ("done", "failed"):
                    return {**job, "session_id": sid}
                await asyncio.sleep(0.05)

    async def memories(self, *statuses: str) -> list[dict[str, Any]]:
        params: dict[str, Any] = {"limit": 100}
        if statuses:
            params["status"] = list(statuses)
        return (await self.system.client.get("/v1/memory", params=params, headers=self.h)).json()["items"]


@pytest.fixture
async def person(system: System) -> Person:
    uid = f"cons_{uuid.uuid4().hex[:8]}"
    return Person(system, uid, await system.user(uid))


async def test_a_commit_promotes_what_matters_and_keeps_the_rest_as_candidates(person: Person) -> None:
    job = await person.session(
        "我们决定使用 Postgres 作为唯一的事实来源。",
        "The user prefers answers in Chinese, structured and short.",
        "Lesson learned: the migration failed because the advisory lock was missing.",
        "今天天气不错。",
        "We finished the isolation tests.",
        min_importance=0.6,
    )
    assert job["state"] == "done"
    assert job["result"]["method"] == "durable"
    active = {m["content"]: m for m in await person.memories()}
    assert "我们决定使用 Postgres 作为唯一的事实来源。" in active
    assert active["The user prefers answers in Chinese, structured and short."]["namespace"] == (
        f"user/{person.user_id}/long_term"
    )
    assert "今天天气不错。" not in active
    candidates = await person.memories("candidate")
    assert [m["content"] for m in candidates] == ["We finished the isolation tests."]
    found = await person.system.client.post(
        "/v1/memory/search", json={"query": "isolation tests finished"}, headers=person.h
    )
    assert all(h["memory"]["status"] == "active" for h in found.json()["results"])  # candidates never by default


async def test_an_agents_lessons_are_its_own(person: Person) -> None:
    """Seed 004 §C: lessons and tool experience from an agent's session go to its
    ``agent/{agent}/memory``, agent-only; the user's decisions stay the user's, for every agent."""
    s = uuid.uuid4().hex[:6]
    hermes = Person(person.system, person.user_id, await person.system.agent(person.user_id, f"hermes_{s}"))
    other = Person(person.system, person.user_id, await person.system.agent(person.user_id, f"other_{s}"))
    job = await hermes.session(
        "Lesson learned: the migration failed because the advisory lock was missing.",
        "我们决定使用 Postgres 作为唯一的事实来源。",
        min_importance=0.6,
    )
    assert job["state"] == "done", job
    mine = {m["content"]: m for m in await hermes.memories()}
    lesson = mine["Lesson learned: the migration failed because the advisory lock was missing."]
    assert (lesson["namespace"], lesson["visibility"]) == (f"agent/hermes_{s}/memory", "agent-only")
    decision = mine["我们决定使用 Postgres 作为唯一的事实来源。"]
    assert (decision["namespace"], decision["visibility"]) == (f"user/{person.user_id}/long_term", "private")
    theirs = {m["content"] for m in await other.memories()}
    assert lesson["content"] not in theirs
    assert decision["content"] in theirs


async def test_a_candidate_that_expires_unpromoted_is_archived_not_deleted(person: Person) -> None:
    """Seed 004 §H step 7: it stays findable on request (status archived) until the retention ends."""
    await person.session("We finished the isolation tests.", min_importance=0.6)
    [candidate] = await person.memories("candidate")
    await person.system.infra.pool.execute(
        "UPDATE memories SET expires_at = now() - interval '1 minute' WHERE id = $1", candidate["id"]
    )
    plan = await maintenance_for(person.system.infra).run(datetime.now(UTC), user_id=person.user_id)
    assert candidate["id"] in plan.expired_candidates
    assert candidate["id"] not in plan.deleted
    [archived] = [m for m in await person.memories("archived") if m["id"] == candidate["id"]]
    assert archived["expires_at"] is None


async def test_secrets_never_become_memories(person: Person) -> None:
    job = await person.session(
        "The deploy token is ghp_abcdefghijklmnopqrstuvwxyz0123456789, we decided to rotate it weekly.",
        "我们决定数据库密码: hunter2-secret 以后放进保险库。",
        "We decided to keep the staging cluster.",
    )
    contents = " ".join(m["content"] for m in await person.memories("active", "candidate"))
    assert "ghp_" not in contents
    episodes = (await person.system.client.get(f"/v1/sessions/{job['session_id']}/episodes", headers=person.h)).json()
    summaries = " ".join(e["summary"] for e in episodes)
    assert summaries  # the summarize step wrote them, with the secrets redacted
    assert "ghp_" not in summaries
    assert "hunter2" not in summaries
    assert "hunter2" not in contents
    assert "We decided to keep the staging cluster." in contents


async def test_ten_duplicate_candidates_end_as_one_or_two_long_term_memories(person: Person) -> None:
    variants = [
        "用户偏好中文输出。",
        "用户偏好中文输出",
        "用户偏好中文输出！",
        "用户 偏好中文输出。",
        "用户偏好中文输出。",
        "用户偏好中文输出。 ",
        "用户偏好中文输出。",
        "用户偏好中文输出；",
        "用户偏好中文输出。",
        "用户偏好中文输出!",
    ]
    for n in range(0, 10, 5):
        await person.session(*variants[n : n + 5])
    kept = [m for m in await person.memories("active", "candidate") if "中文输出" in m["content"]]
    assert 1 <= len(kept) <= 2
    assert sum(m["evidence_count"] for m in kept) == 10


async def _new_person(system: System) -> Person:
    uid = f"cons_{uuid.uuid4().hex[:8]}"
    return Person(system, uid, await system.user(uid))


async def test_a_contradiction_goes_to_review_and_each_decision_is_applied(system: System) -> None:
    """Each pair is one person's: across pairs the statements would contradict each other too
    (living in Shanghai and then in Paris is a change of residence as well)."""
    received: list[dict[str, Any]] = []
    nc = await nats.connect(system.infra.nats_url)

    async def on_review(msg: Any) -> None:
        received.append(json.loads(msg.data))

    await nc.subscribe(system.infra.layout.subject(Subject.REVIEW_REQUESTED), cb=on_review)
    pairs = {
        "accept_new": ("我住在北京。", "我搬到上海了。"),
        "keep_old": ("The user prefers tea.", "The user no longer drinks tea."),
        "keep_both": ("我喜欢喝咖啡。", "我不再喝咖啡了。"),
        "edit": ("The user lives in Paris.", "The user moved to Rome."),
    }
    people: dict[str, Person] = {}
    reviews: dict[str, str] = {}
    try:
        for decision, (old, new) in pairs.items():
            person = people[decision] = await _new_person(system)
            await person.session(old)
            job = await person.session(new)
            assert len(job["result"]["reviews"]) == 1, (decision, job["result"])
            review_id = reviews[decision] = job["result"]["reviews"][0]
            statuses = {m["content"]: m["status"] for m in await person.memories("needs_review")}
            assert statuses == {old: "needs_review", new: "needs_review"}
            body = {
                "decision": decision,
                **({"edited_content": "The user moved to Rome in 2026."} if decision == "edit" else {}),
            }
            answer = await system.client.post(f"/v1/reviews/{review_id}/decision", json=body, headers=person.h)
            assert answer.status_code == 202, answer.text
            async with asyncio.timeout(20):
                while await person.memories("needs_review"):
                    await asyncio.sleep(0.05)
        async with asyncio.timeout(10):
            while len({e["review_id"] for e in received} & set(reviews.values())) < 4:
                await asyncio.sleep(0.05)
    finally:
        await nc.close()

    async def contents(decision: str, *statuses: str) -> set[str]:
        return {m["content"] for m in await people[decision].memories(*statuses)}

    assert "我搬到上海了。" in await contents("accept_new")
    assert "我住在北京。" in await contents("accept_new", "archived")
    accepted = {m["content"]: m for m in await people["accept_new"].memories("active", "archived")}
    held_until = accepted["我住在北京。"]["metadata"]["valid_to"]  # when the old fact stopped holding
    assert accepted["我搬到上海了。"]["metadata"]["valid_from"] == held_until
    assert "The user prefers tea." in await contents("keep_old")
    assert "The user no longer drinks tea." in await contents("keep_old", "archived")
    assert {"我喜欢喝咖啡。", "我不再喝咖啡了。"} <= await contents("keep_both")
    assert "The user moved to Rome in 2026." in await contents("edit")
    assert "The user lives in Paris." in await contents("edit", "archived")
    for decision, person in people.items():
        listed = (await system.client.get("/v1/reviews", params={"status": "decided"}, headers=person.h)).json()
        assert [r["decision"] for r in listed] == [decision]
    keep_old = people["keep_old"]
    again = await system.client.post(
        f"/v1/reviews/{reviews['keep_old']}/decision", json={"decision": "accept_new"}, headers=keep_old.h
    )
    assert again.status_code == 409


async def _wait_status(person: Person, memory_id: str, status: str) -> dict[str, Any]:
    async with asyncio.timeout(20):
        while True:
            memory = (await person.system.client.get(f"/v1/memory/{memory_id}", headers=person.h)).json()
            assert "status" in memory, memory
            if memory["status"] == status:
                return memory
            await asyncio.sleep(0.05)


async def test_feedback_archives_merges_links_and_lifts(person: Person) -> None:
    async def remember(text: str, **extra: Any) -> str:
        r = await person.system.client.post("/v1/memory", json={"content": text, **extra}, headers=person.h)
        return str(r.json()["id"])

    wrong, dup, target, old, new, good = [
        await remember(t)
        for t in (
            "用户喜欢深夜开会",
            "likes green tea",
            "The user likes green tea",
            "Uses Python 3.9",
            "Uses Python 3.12",
            "Prefers short answers",
        )
    ]
    send = person.system.client.post
    await send(f"/v1/memory/{wrong}/feedback", json={"feedback": "incorrect"}, headers=person.h)
    await send(
        f"/v1/memory/{dup}/feedback", json={"feedback": "duplicate", "target_memory_id": target}, headers=person.h
    )
    await send(f"/v1/memory/{old}/feedback", json={"feedback": "outdated", "target_memory_id": new}, headers=person.h)
    await send(f"/v1/memory/{good}/feedback", json={"feedback": "useful"}, headers=person.h)
    assert (await _wait_status(person, wrong, "archived"))["status"] == "archived"
    assert (await _wait_status(person, dup, "archived"))["metadata"]["merged_into"] == target
    assert (await _wait_status(person, old, "archived"))["metadata"]["superseded_by"] == new
    merged = (await person.system.client.get(f"/v1/memory/{target}", headers=person.h)).json()
    assert merged["evidence_count"] == 2
    async with asyncio.timeout(20):
        while (await person.system.client.get(f"/v1/memory/{good}", headers=person.h)).json()["importance"] < 0.6:
            await asyncio.sleep(0.05)


async def test_importance_decays_with_time_unretrieved_and_archives_below_the_floor(person: Person) -> None:
    infra = person.system.infra

    async def remember(text: str, **extra: Any) -> str:
        r = await person.system.client.post(
            "/v1/memory", json={"content": text, "importance": 0.8, **extra}, headers=person.h
        )
        return str(r.json()["id"])

    plain, pinned, profile, chunk = (
        await remember("A plain fact"),
        await remember("A pinned fact", tags=["pinned"]),
        await remember("Profile fact", memory_type="profile"),
        await remember("A chunk whose life belongs to its source", memory_type="resource"),
    )
    maintenance = maintenance_for(infra)
    in_30_days = datetime.now(UTC) + timedelta(days=30)
    preview = await maintenance.run(in_30_days, user_id=person.user_id, dry_run=True)
    assert {d["id"] for d in preview.decayed} == {plain}
    assert (await person.system.client.get(f"/v1/memory/{plain}", headers=person.h)).json()["importance"] == 0.8

    await maintenance.run(in_30_days, user_id=person.user_id)
    decayed = (await person.system.client.get(f"/v1/memory/{plain}", headers=person.h)).json()
    assert decayed["importance"] == pytest.approx(0.4, abs=0.01)  # one half-life
    for untouched in (pinned, profile, chunk):
        assert (await person.system.client.get(f"/v1/memory/{untouched}", headers=person.h)).json()["importance"] == 0.8

    plan = await maintenance.run(datetime.now(UTC) + timedelta(days=200), user_id=person.user_id)
    assert plan.archived == [plain]
    archived = await person.system.client.get(f"/v1/memory/{plain}", headers=person.h)
    assert archived.json()["status"] == "archived", (archived.json(), plan)
    await maintenance.run(datetime.now(UTC) + timedelta(days=400), user_id=person.user_id)
    assert (await person.system.client.get(f"/v1/memory/{plain}", headers=person.h)).status_code == 404
    audit = (await person.system.admin("GET", "/v1/audit", params={"target": plain, "limit": 100}))["items"]
    assert {"decay", "archive", "prune"} <= {a["action"] for a in audit}


async def test_a_preference_enters_the_profile_only_with_evidence_from_several_sessions(person: Person) -> None:
    pref = "The user prefers dark mode."
    await person.session(pref)
    await person.session(pref)
    maintenance = maintenance_for(person.system.infra)
    await maintenance.run(datetime.now(UTC), user_id=person.user_id)
    profile = (await person.system.client.get(f"/v1/users/{person.user_id}/profile", headers=person.h)).json()
    assert pref not in profile["preferences"].values()  # evidence 2 < 3
    await person.session(pref)
    await maintenance.run(datetime.now(UTC), user_id=person.user_id)
    profile = (await person.system.client.get(f"/v1/users/{person.user_id}/profile", headers=person.h)).json()
    assert pref in profile["preferences"].values()
    assert profile["version"] == 1
    assert len(profile["updated_from_memory_ids"]) == 1

    one_conversation = "The user prefers light mode."
    await person.session(one_conversation, one_conversation, one_conversation)  # evidence 3, one session
    await maintenance.run(datetime.now(UTC), user_id=person.user_id)
    profile = (await person.system.client.get(f"/v1/users/{person.user_id}/profile", headers=person.h)).json()
    assert one_conversation not in profile["preferences"].values()
    assert profile["version"] == 1


async def test_the_profile_reads_by_attribute_as_the_seed_writes_it(person: Person) -> None:
    """Seed 004 §B ProfileRecord: preferences by attribute, working style, an id, the memories it was
    drawn from (each with evidence from three sessions)."""
    language = "The user prefers answers in Chinese."
    style = "The user prefers shipping a small POC first, then iterating."
    for _ in range(3):
        await person.session(language, style)
    await maintenance_for(person.system.infra).run(datetime.now(UTC), user_id=person.user_id)
    profile = (await person.system.client.get(f"/v1/users/{person.user_id}/profile", headers=person.h)).json()
    assert profile["id"] == f"profile_{person.user_id}"
    assert profile["preferences"] == {"language": language}
    assert profile["working_style"] == [style]
    assert len(profile["updated_from_memory_ids"]) == 2


async def test_session_committed_delivered_twice_changes_nothing_the_second_time(person: Person) -> None:
    job = await person.session("We decided to ship on Fridays.", "The user prefers green tea.")
    before = await person.memories("active", "candidate")
    event = SessionCommitted(job_id=job["id"], session_id=job["session_id"], user_id=person.user_id)
    infra = person.system.infra
    await infra.broker.publish(
        event.model_dump(mode="json"),
        infra.layout.subject(Subject.SESSION_COMMITTED),
        headers={MSG_ID_HEADER: f"again-{uuid.uuid4().hex}"},
        stream=infra.layout.stream_of(Subject.SESSION_COMMITTED).name,
    )
    await asyncio.sleep(1.5)
    after = await person.memories("active", "candidate")
    assert [(m["id"], m["version"], m["evidence_count"]) for m in after] == [
        (m["id"], m["version"], m["evidence_count"]) for m in before
    ]
