"""The sync pipeline through the whole system: budgets, depth, refusals, a bad item named, source
scoping in the index, status and freshness."""

from __future__ import annotations

import os
import time
import uuid
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from memgw.common.memories import NewMemory
from memgw.common.sources import Freshness, freshness
from memgw.gateway import sources_service
from tests.conftest import StageWatcher, System


@pytest.fixture
async def owner(system: System) -> tuple[str, str]:
    uid = f"src_{uuid.uuid4().hex[:8]}"
    return uid, await system.user(uid)


def _write(folder: Path, n: int, words: int = 30) -> None:
    for i in range(n):
        (folder / f"n{i:02}.md").write_text(f"# Note {i}\n\n" + " ".join(f"word{i}x{j}" for j in range(words)))


async def test_a_token_budget_stops_a_sync_with_more_pending_and_the_next_run_finishes(
    system: System, stage_watcher: StageWatcher, files_dir: Path, owner: tuple[str, str]
) -> None:
    _, key = owner
    _write(files_dir, 6)
    sid = f"budget-{files_dir.name}"
    await system.folder_source(key, sid, files_dir, max_tokens_per_sync=150)
    first = await system.sync(key, sid, stage_watcher)
    assert first["stage"] == "Completed"
    assert first["more_pending"] is True
    assert 0 < first["counts"]["items_new"] < 6
    assert first["counts"]["tokens"] <= 150
    status = {
        s["source_id"]: s for s in (await system.client.get("/v1/sources/status", headers=system.auth(key))).json()
    }
    assert status[sid]["pending_items"] == 6 - first["counts"]["items_new"]

    await system.client.patch(f"/v1/sources/{sid}", json={"max_tokens_per_sync": None}, headers=system.auth(key))
    second = await system.sync(key, sid, stage_watcher)
    assert second["more_pending"] is False
    assert second["counts"]["items_new"] == 6 - first["counts"]["items_new"]
    status = {
        s["source_id"]: s for s in (await system.client.get("/v1/sources/status", headers=system.auth(key))).json()
    }
    assert status[sid]["pending_items"] == 0
    assert status[sid]["synced_items"] == 6
    assert status[sid]["freshness"] == "Active"


async def test_sync_depth_days_skips_old_items(
    system: System, stage_watcher: StageWatcher, files_dir: Path, owner: tuple[str, str]
) -> None:
    _, key = owner
    _write(files_dir, 3)
    old = time.time() - 10 * 86400
    os.utime(files_dir / "n00.md", (old, old))
    sid = f"depth-{files_dir.name}"
    await system.folder_source(key, sid, files_dir, sync_depth_days=2)
    final = await system.sync(key, sid, stage_watcher)
    assert final["counts"]["items_seen"] == 2


async def test_a_bad_item_is_counted_and_named_and_the_rest_goes_in(
    system: System, stage_watcher: StageWatcher, files_dir: Path, owner: tuple[str, str]
) -> None:
    _, key = owner
    _write(files_dir, 2)
    (files_dir / "binary.md").write_bytes(b"\x00\x00\x00")
    sid = f"bad-{files_dir.name}"
    await system.folder_source(key, sid, files_dir)
    final = await system.sync(key, sid, stage_watcher)
    assert final["stage"] == "Completed"
    assert final["counts"]["items_failed"] == 1
    assert final["counts"]["items_new"] == 2
    assert any("binary.md" in f for f in final["failed_items"])
    assert "binary.md" in final["detail"]


async def test_a_disabled_source_is_refused_and_a_second_request_returns_the_run_in_flight(
    system: System, files_dir: Path, owner: tuple[str, str]
) -> None:
    _, key = owner
    _write(files_dir, 1)
    sid = f"flight-{files_dir.name}"
    await system.folder_source(key, sid, files_dir, enabled=False)
    refused = await system.client.post(f"/v1/sources/{sid}/sync", headers=system.auth(key))
    assert refused.status_code == 409
    assert "disabled" in refused.json()["detail"]
    await system.client.patch(f"/v1/sources/{sid}", json={"enabled": True}, headers=system.auth(key))
    await system.infra.pool.execute(  # a run in flight (a worker is busy with it)
        "INSERT INTO sync_runs (id, source_id, stage) VALUES ($1, $2, 'Ingesting')", f"run_busy_{sid}", sid
    )
    again = (await system.client.post(f"/v1/sources/{sid}/sync", headers=system.auth(key))).json()
    assert again["created"] is False
    assert again["run"]["id"] == f"run_busy_{sid}"
    assert again["run"]["stage"] == "Ingesting"


async def test_an_agents_source_scope_hides_and_shows_the_right_chunks(
    system: System, stage_watcher: StageWatcher, work_dir: Path, owner: tuple[str, str]
) -> None:
    uid, key = owner
    tag = uuid.uuid4().hex[:6]
    folders = {}
    for name in ("work", "private"):
        folders[name] = work_dir / f"scope-{name}-{tag}"
        folders[name].mkdir()
        (folders[name] / "doc.md").write_text(f"zebra{tag} document from the {name} source")
        await system.folder_source(key, f"{name}-{tag}", folders[name])
        assert (await system.sync(key, f"{name}-{tag}", stage_watcher))["stage"] == "Completed"
    await system.client.post(
        "/v1/memory", json={"content": f"zebra{tag} a plain memory, not from a source"}, headers=system.auth(key)
    )
    agents = {
        "all": await system.agent(uid, f"all-{tag}"),
        "work_only": await system.agent(uid, f"work-{tag}", memory_sources=[f"work-{tag}"]),
        "none": await system.agent(uid, f"none-{tag}", memory_sources=[]),
    }
    seen = {}
    for name, agent_key in agents.items():
        hits = (
            await system.client.post(
                "/v1/memory/search", json={"query": f"zebra{tag} document", "limit": 20}, headers=system.auth(agent_key)
            )
        ).json()["results"]
        seen[name] = {h["memory"]["source_id"] for h in hits if f"zebra{tag}" in h["memory"]["content"]}
    assert seen["all"] == {f"work-{tag}", f"private-{tag}", None}
    assert seen["work_only"] == {f"work-{tag}", None}
    assert seen["none"] == {None}  # untagged records always pass


async def test_an_allowlist_may_name_the_upstreams_own_id_of_a_channel(system: System, owner: tuple[str, str]) -> None:
    """OpenHuman's source scoping matches a chunk's raw source id (``slack:#eng``, what a Composio
    Slack source writes) as well as its registry id."""
    uid, _ = owner
    tag = uuid.uuid4().hex[:6]
    store, embedder = system.infra.store, system.infra.embedder
    for channel in ("#eng", "#random"):
        text = f"okapi{tag} message in {channel}"
        [vector] = await store.embed_passages([text], embedder, tenant=uid)
        memory_id = f"mem_slack_{channel[1:]}_{tag}"
        async with system.infra.pool.acquire() as conn, conn.transaction():
            await store.insert(
                conn,
                NewMemory(
                    id=memory_id,
                    user_id=uid,
                    namespace=f"user/{uid}/long_term",
                    memory_type="resource",
                    content=text,
                    visibility="private",
                    embedding=vector,
                    embedding_model=embedder.name,
                    source="memory_source",
                    source_id=f"slack-{tag}",
                    source_scope=f"slack:{channel}",
                ),
                actor="test",
            )
        await store.sync_index(upserted=[memory_id])
    allowlists = {"eng": ["slack:#eng"], "registry": [f"slack-{tag}"], "other": ["slack:#sales"]}
    seen = {}
    for name, allowed in allowlists.items():
        agent_key = await system.agent(uid, f"{name}-{tag}", memory_sources=allowed)
        for path, body in (("/v1/memory/search", {"query": f"okapi{tag} message", "limit": 20}), ("/v1/memory", None)):
            if body is None:
                listed = await system.client.get(path, params={"limit": 100}, headers=system.auth(agent_key))
                found = {m["source_scope"] for m in listed.json()["items"] if f"okapi{tag}" in m["content"]}
                assert found == seen[name], path  # the index and Postgres render one rule
                continue
            hits = (await system.client.post(path, json=body, headers=system.auth(agent_key))).json()["results"]
            seen[name] = {h["memory"]["source_scope"] for h in hits if f"okapi{tag}" in h["memory"]["content"]}
    assert seen == {"eng": {"slack:#eng"}, "registry": {"slack:#eng", "slack:#random"}, "other": set()}


def test_freshness_labels_including_a_timestamp_in_the_future() -> None:
    now = datetime(2026, 11, 29, 12, 0, tzinfo=UTC)
    assert freshness(None, now) is Freshness.IDLE
    assert freshness(now - timedelta(seconds=30), now) is Freshness.ACTIVE
    assert freshness(now - timedelta(seconds=31), now) is Freshness.RECENT
    assert freshness(now - timedelta(minutes=5), now) is Freshness.RECENT
    assert freshness(now - timedelta(minutes=5, seconds=1), now) is Freshness.IDLE
    assert freshness(now + timedelta(days=3650), now) is Freshness.ACTIVE
    assert freshness(datetime.min.replace(tzinfo=UTC), datetime.max.replace(tzinfo=UTC)) is Freshness.IDLE


async def test_one_sources_status_failure_degrades_to_an_idle_zero_row(
    system: System, files_dir: Path, owner: tuple[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    _, key = owner
    for name in ("good", "broken"):
        await system.folder_source(key, f"{name}-{files_dir.name}", files_dir)
    real = sources_service.Sources._status_of

    async def flaky(self, entry, now):  # type: ignore[no-untyped-def]
        if entry.id.startswith("broken"):
            raise RuntimeError("chunk count query failed")
        return await real(self, entry, now)

    monkeypatch.setattr(sources_service.Sources, "_status_of", flaky)
    rows = {r["source_id"]: r for r in (await system.client.get("/v1/sources/status", headers=system.auth(key))).json()}
    broken = rows[f"broken-{files_dir.name}"]
    assert (broken["freshness"], broken["synced_chunks"], broken["pending_items"]) == ("Idle", 0, 0)
    assert broken["error"] == "chunk count query failed"
    assert rows[f"good-{files_dir.name}"]["error"] is None


async def test_an_item_larger_than_the_whole_budget_fails_alone_and_says_why(
    system: System, stage_watcher: StageWatcher, files_dir: Path, owner: tuple[str, str]
) -> None:
    """Reliability II: it completed with 0 chunks on every run, silently, and held back the rest."""
    _, key = owner
    (files_dir / "a-huge.md").write_text("# Huge\n\n" + " ".join(f"word{j}" for j in range(400)))
    (files_dir / "b-small.md").write_text("# Small\n\nA short note.")
    sid = f"toobig-{files_dir.name}"
    await system.folder_source(key, sid, files_dir, max_tokens_per_sync=60)
    for _ in range(2):  # the same on every run: never silent, never holding the rest back
        run = await system.sync(key, sid, stage_watcher)
        assert run["stage"] == "Completed"
        assert run["counts"]["items_failed"] == 1, run
        assert "a-huge.md" in run["detail"]
        assert "max_tokens_per_sync 60" in run["detail"]
    assert run["more_pending"] is False
