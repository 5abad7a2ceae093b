"""The source registry over the API: validation, patch semantics, concurrent patches, OpenHuman
import/export, Composio connections, item previews, removal."""

from __future__ import annotations

import asyncio
import tomllib
import uuid
from pathlib import Path

import pytest

from memgw.common.composio import ComposioClient
from memgw.common.net import GuardedFetcher
from memgw.common.sources import MemorySourceEntry, SourceKind, SourceValidationError, validate_source
from memgw.gateway.sources_service import composio_source_id
from tests.conftest import StageWatcher, System
from tests.fakes import composio_app, serve


@pytest.fixture
async def key(system: System) -> str:
    return await system.user(f"reg_{uuid.uuid4().hex[:8]}")


@pytest.mark.parametrize(
    ("kind", "fields", "budgets", "message"),
    [
        (SourceKind.FOLDER, {}, {}, "needs a non-empty 'path'"),
        (SourceKind.FOLDER, {"path": "  "}, {}, "needs a non-empty 'path'"),
        (SourceKind.FOLDER, {"path": "/x", "url": "http://x"}, {}, "'url' does not belong"),
        (SourceKind.COMPOSIO, {"toolkit": "gmail"}, {}, "'connection_id'"),
        (SourceKind.RSS_FEED, {"url": "http://x"}, {"max_tokens_per_sync": 0}, "max_tokens_per_sync must be > 0"),
        (SourceKind.RSS_FEED, {"url": "http://x"}, {"sync_depth_days": -1}, "sync_depth_days must be > 0"),
        (SourceKind.RSS_FEED, {"url": "http://x"}, {"max_cost_per_sync_usd": float("inf")}, "finite"),
        (SourceKind.RSS_FEED, {"url": "http://x"}, {"max_cost_per_sync_usd": -0.01}, ">= 0"),
        # each field in its kind's shape: a reader would read a string list character by character
        (SourceKind.GITHUB_REPO, {"repo": "o/r", "include": "issues"}, {}, "'include' must be a list"),
        (SourceKind.GITHUB_REPO, {"repo": "o/r", "include": ["issues", "wiki"]}, {}, "only commits, issues, pulls"),
        (SourceKind.RSS_FEED, {"url": "http://x", "max_items": "5"}, {}, "'max_items' must be a whole number"),
        (SourceKind.RSS_FEED, {"url": "http://x", "max_items": 0}, {}, "'max_items' must be a whole number"),
        (SourceKind.RSS_FEED, {"url": "http://x", "max_items": True}, {}, "'max_items' must be a whole number"),
        (SourceKind.WEB_PAGE, {"url": ["http://x"]}, {}, "'url' must be a string"),
        (SourceKind.TWITTER_QUERY, {"query": "a\x00b"}, {}, "NUL"),
    ],
)
def test_validate_refuses_what_does_not_fit_the_kind(
    kind: SourceKind, fields: dict, budgets: dict, message: str
) -> None:
    entry = MemorySourceEntry(id="s", kind=kind, owner_user_id="u", fields=fields, **budgets)
    with pytest.raises(SourceValidationError, match=message):
        validate_source(entry)


@pytest.mark.parametrize("bad_id", ["", "   ", "a:b", "tab\there", "x" * 129])
def test_ids_must_be_non_blank_without_colons_or_control_characters(bad_id: str) -> None:
    with pytest.raises(SourceValidationError, match="id"):
        validate_source(
            MemorySourceEntry(id=bad_id, kind=SourceKind.TWITTER_QUERY, owner_user_id="u", fields={"query": "q"})
        )


async def test_patch_keeps_absent_fields_clears_nulls_and_refuses_id_and_kind(
    system: System, key: str, files_dir: Path
) -> None:
    sid = f"patch-{files_dir.name}"
    await system.folder_source(
        key, sid, files_dir, label="Notes", fields={"path": str(files_dir), "glob": "*.md"}, max_tokens_per_sync=500
    )
    h = system.auth(key)
    patched = (await system.client.patch(f"/v1/sources/{sid}", json={"label": "My notes"}, headers=h)).json()
    assert patched["fields"] == {"path": str(files_dir), "glob": "*.md"}
    assert patched["max_tokens_per_sync"] == 500
    cleared = (
        await system.client.patch(
            f"/v1/sources/{sid}", json={"fields": {"glob": None}, "max_tokens_per_sync": None}, headers=h
        )
    ).json()
    assert cleared["fields"] == {"path": str(files_dir)}
    assert cleared["max_tokens_per_sync"] is None
    assert cleared["label"] == "My notes"
    for frozen in ({"id": "other"}, {"kind": "RssFeed"}):
        response = await system.client.patch(f"/v1/sources/{sid}", json=frozen, headers=h)
        assert response.status_code == 400
        assert "cannot change" in response.json()["detail"]
    invalid = await system.client.patch(f"/v1/sources/{sid}", json={"fields": {"path": None}}, headers=h)
    assert invalid.status_code == 400
    stale = await system.client.patch(f"/v1/sources/{sid}", json={"label": "x"}, headers={**h, "If-Match": '"1"'})
    assert stale.status_code == 409


async def test_concurrent_patches_never_lose_a_write(system: System, key: str, files_dir: Path) -> None:
    sid = f"race-{files_dir.name}"
    await system.folder_source(key, sid, files_dir)
    h = system.auth(key)
    patches = [
        {"label": "L"},
        {"fields": {"glob": "**/*.txt"}},
        {"max_tokens_per_sync": 99},
        {"sync_depth_days": 7},
        {"max_cost_per_sync_usd": 0.5},
        {"enabled": False},
    ]
    answers = await asyncio.gather(*(system.client.patch(f"/v1/sources/{sid}", json=p, headers=h) for p in patches))
    assert all(a.status_code == 200 for a in answers)
    final = (await system.client.get(f"/v1/sources/{sid}", headers=h)).json()
    assert (
        final["label"],
        final["fields"]["glob"],
        final["max_tokens_per_sync"],
        final["sync_depth_days"],
        final["max_cost_per_sync_usd"],
        final["enabled"],
    ) == ("L", "**/*.txt", 99, 7, 0.5, False)
    assert final["version"] == 1 + len(patches)


async def test_openhuman_config_toml_imports_and_exports_round_trip(system: System, key: str, files_dir: Path) -> None:
    h = system.auth(key)
    toml = f'''
[[memory_sources]]
id = "docs-{files_dir.name}"
kind = "Folder"
path = "{files_dir}"
glob = "**/*.md"
max_tokens_per_sync = 20000

[[memory_sources]]
id = "blog-{files_dir.name}"
kind = "RssFeed"
url = "https://example.com/feed.xml"
max_items = 20

[[memory_sources]]
id = "bad-{files_dir.name}"
kind = "WebPage"

[[memory_sources]]
id = "odd-{files_dir.name}"
kind = "Carrier pigeon"
'''
    report = (
        await system.client.post("/v1/sources/import", content=toml, headers={**h, "content-type": "text/plain"})
    ).json()
    assert sorted(report["added"]) == sorted([f"docs-{files_dir.name}", f"blog-{files_dir.name}"])
    assert {e["id"] for e in report["errors"]} == {f"bad-{files_dir.name}", f"odd-{files_dir.name}"}
    exported = (await system.client.get("/v1/sources/export", headers=h)).text
    tables = {t["id"]: t for t in tomllib.loads(exported)["memory_sources"]}
    assert tables[f"docs-{files_dir.name}"]["max_tokens_per_sync"] == 20000
    assert tables[f"blog-{files_dir.name}"]["url"] == "https://example.com/feed.xml"
    again = (
        await system.client.post("/v1/sources/import", content=exported, headers={**h, "content-type": "text/plain"})
    ).json()
    assert sorted(again["updated"]) == sorted(tables)
    assert again["errors"] == []


async def test_a_new_composio_connection_is_a_source_at_once_and_listing_reconciles_older_ones(
    system: System, key: str
) -> None:
    calls: list[str] = []
    user_id = (await system.client.get("/v1/users", headers=system.auth(key))).json()["items"][0]["id"]
    async with serve(composio_app(calls, owners={"ca_new": user_id, "ca_old": user_id})) as url:
        fetcher = GuardedFetcher(allow=[url.removeprefix("http://")])
        original = system.app.state.services.sources.composio
        system.app.state.services.sources.composio = ComposioClient(fetcher, url, "ck")
        try:
            h = system.auth(key)
            added = await system.client.post("/v1/sources/composio", json={"connection_id": "ca_new"}, headers=h)
            assert added.status_code == 201, added.text
            assert added.json()["fields"] == {"toolkit": "gmail"}  # the connection is a credential: never shown
            assert added.json()["credentials"] == ["connection_id"]
            missing = await system.client.post("/v1/sources/composio", json={"connection_id": "ca_missing"}, headers=h)
            assert missing.status_code == 400
            listed = {s["id"] for s in (await system.client.get("/v1/sources", headers=h)).json()}
            expected = {composio_source_id("gmail", "ca_new"), composio_source_id("gmail", "ca_old")}
            assert expected <= listed
        finally:
            system.app.state.services.sources.composio = original
            await fetcher.close()


async def test_items_can_be_previewed_and_a_removed_source_takes_its_chunks_along(
    system: System, key: str, files_dir: Path, stage_watcher: StageWatcher
) -> None:
    (files_dir / "one.md").write_text("# One\n\n第一个文件")
    sid = f"preview-{files_dir.name}"
    await system.folder_source(key, sid, files_dir)
    h = system.auth(key)
    items = (await system.client.get(f"/v1/sources/{sid}/items", headers=h)).json()
    assert [i["id"] for i in items] == ["one.md"]
    content = (await system.client.get(f"/v1/sources/{sid}/items/one.md", headers=h)).json()
    assert content["text"] == "# One\n\n第一个文件"
    escape = await system.client.get(f"/v1/sources/{sid}/items/..%2F..%2Fetc%2Fpasswd", headers=h)
    assert escape.status_code == 400
    await system.sync(key, sid, stage_watcher)
    assert await system.infra.pool.fetchval("SELECT count(*) FROM memories WHERE source_id = $1", sid) == 1
    removed = (await system.client.delete(f"/v1/sources/{sid}", headers=h)).json()
    assert removed["chunks_removed"] == 1
    assert await system.infra.pool.fetchval("SELECT count(*) FROM memories WHERE source_id = $1", sid) == 0
    other = await system.user(f"reg_{uuid.uuid4().hex[:8]}")
    assert (await system.client.get(f"/v1/sources/{sid}", headers=system.auth(other))).status_code == 404


async def test_a_folder_that_is_missing_or_a_file_is_refused_in_plain_words(
    system: System, key: str, files_dir: Path
) -> None:
    (files_dir / "a.md").write_text("# a file, not a folder")
    h = system.auth(key)
    for path, said in ((files_dir / "nowhere", "does not exist"), (files_dir / "a.md", "is a file, not a folder")):
        body = {"id": f"bad-{uuid.uuid4().hex[:6]}", "kind": "Folder", "fields": {"path": str(path)}}
        refused = await system.client.post("/v1/sources", json=body, headers=h)
        assert refused.status_code == 400, refused.text
        assert said in refused.json()["detail"]
        assert "Errno" not in refused.json()["detail"]
