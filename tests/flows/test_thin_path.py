"""The thin path through the whole system: write and find by meaning; a Folder sync end to end."""

from __future__ import annotations

import uuid
from pathlib import Path

from tests.conftest import StageWatcher, System


async def _remember(system: System, content: str, **extra: object) -> str:
    response = await system.client.post("/v1/memory", json={"content": content, **extra}, headers=system.auth())
    assert response.status_code == 201, response.text
    return str(response.json()["id"])


async def _search(system: System, query: str, limit: int = 3) -> list[dict]:
    response = await system.client.post(
        "/v1/memory/search", json={"query": query, "limit": limit}, headers=system.auth()
    )
    assert response.status_code == 200, response.text
    return list(response.json()["results"])


async def test_a_chinese_query_finds_the_chinese_memory_and_an_english_one_the_english(system: System) -> None:
    zh = await _remember(system, "用户偏好中文输出，结构化但不要过度平台化。", memory_type="preference")
    en = await _remember(system, "The user drinks green tea every morning before work.")
    await _remember(system, "周末去爬山，天气很好。")
    await _remember(system, "The deployment pipeline runs on Kubernetes.")

    zh_hits = await _search(system, "中文输出的偏好")
    en_hits = await _search(system, "what does the user drink in the morning")

    assert zh_hits[0]["memory"]["id"] == zh
    assert zh_hits[0]["memory"]["namespace"] == "user/admin/long_term"  # seed 004 §B, §D
    assert en_hits[0]["memory"]["id"] == en


async def test_a_folder_sync_goes_through_every_stage_and_its_chunks_are_found(
    system: System, stage_watcher: StageWatcher, files_dir: Path
) -> None:
    (files_dir / "bus.md").write_text("# Architecture\n\nWe chose NATS JetStream as the event bus.\n")
    (files_dir / "sub").mkdir()
    (files_dir / "sub" / "db.md").write_text("# 决定\n\n我们选择 Postgres 作为唯一的事实来源，向量索引可以重建。\n")
    (files_dir / "ignored.txt").write_text("not matched by the default glob")
    source_id = f"notes-{files_dir.name}"
    added = await system.client.post(
        "/v1/sources",
        json={"id": source_id, "kind": "Folder", "fields": {"path": str(files_dir)}},
        headers=system.auth(),
    )
    assert added.status_code == 201, added.text

    answer = await system.client.post(f"/v1/sources/{source_id}/sync", headers=system.auth())
    assert answer.status_code == 202
    run_id = answer.json()["run"]["id"]
    final = await stage_watcher.wait_final(run_id)

    assert final["stage"] == "Completed", final
    stages = stage_watcher.stages(run_id)
    assert stages[:4] == ["Requested", "Fetching", "Stored", "Ingesting"]
    assert stages[-1] == "Completed"
    assert final["connection_id"] == source_id
    assert final["counts"]["items_seen"] == 2
    assert final["counts"]["items_new"] == 2
    assert final["counts"]["chunks"] == 2

    hits = await _search(system, "事实来源用的是哪个数据库")
    assert hits[0]["memory"]["source_id"] == source_id
    assert hits[0]["memory"]["source_ref"] == f"mem_src:{source_id}:sub/db.md"
    assert "memory_sources" in hits[0]["memory"]["tags"]
    run = await system.client.get(f"/v1/sources/{source_id}/runs/{run_id}", headers=system.auth())
    assert run.json()["stage"] == "Completed"


async def test_a_second_sync_skips_unchanged_files_and_removes_deleted_ones(
    system: System, stage_watcher: StageWatcher, files_dir: Path
) -> None:
    (files_dir / "keep.md").write_text("Stays the same between syncs.")
    (files_dir / "gone.md").write_text("Deleted before the second sync.")
    source_id = f"resync-{files_dir.name}"
    await system.client.post(
        "/v1/sources",
        json={"id": source_id, "kind": "Folder", "fields": {"path": str(files_dir)}},
        headers=system.auth(),
    )
    first = (await system.client.post(f"/v1/sources/{source_id}/sync", headers=system.auth())).json()["run"]["id"]
    await stage_watcher.wait_final(first)
    (files_dir / "gone.md").unlink()

    second = (await system.client.post(f"/v1/sources/{source_id}/sync", headers=system.auth())).json()["run"]["id"]
    final = await stage_watcher.wait_final(second)

    assert final["counts"]["items_unchanged"] == 1
    assert final["counts"]["items_deleted"] == 1
    left = await system.infra.pool.fetchval("SELECT count(*) FROM memories WHERE source_id = $1", source_id)
    assert left == 1


async def test_reindex_rebuilds_the_index_from_postgres_without_re_embedding(system: System) -> None:
    memory_id = await _remember(system, "重建索引之后这条记忆仍然可以被找到。")
    index = system.infra.index
    await index.clear()
    assert await index.count() == 0
    progress: list[tuple[int, int]] = []

    count = await system.infra.store.reindex(lambda done, total: progress.append((done, total)))

    total = await system.infra.pool.fetchval("SELECT count(*) FROM memories")
    assert count == total == await index.count()
    assert progress[-1] == (total, total)
    hits = await _search(system, "重建索引后还能找到吗")
    assert memory_id in [h["memory"]["id"] for h in hits]


async def test_the_same_content_is_never_embedded_twice(system: System, passages_embedded: list[str]) -> None:
    embedded = passages_embedded
    text = f"同一段内容只嵌入一次 {uuid.uuid4().hex}"
    first = await _remember(system, text)
    second = await _remember(system, text)
    assert first != second
    assert embedded.count(text) == 1
