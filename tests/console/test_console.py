"""The web console in a real headless Chromium (Debian's, driven by Playwright) against the running
gateway: sign-in, live sync progress, a review decided on the page, search with explain, what an
agent key sees, both languages, a phone's width; and each task a person manages there: users,
agents and keys made and revoked, a workspace invitation sent and accepted, memories paged, edited
and followed to where they came from. The screenshots in the docs (docs/console.md) are taken here."""

from __future__ import annotations

import asyncio
import re
import shutil
import uuid
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio

from tests.conftest import System, running_system
from tests.fakes import outside_world, serve
from tests.infrastructure import private_install

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
SHOTS = Path(__file__).resolve().parents[2] / "docs" / "console"
pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="Debian's chromium is needed (./dev test installs it as root)")


@pytest_asyncio.fixture(loop_scope="session")
async def browser() -> AsyncIterator[Any]:
    from playwright.async_api import async_playwright

    async with async_playwright() as playwright:
        chromium = await playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield chromium
        await chromium.close()


@pytest_asyncio.fixture
async def page(browser: Any) -> AsyncIterator[Any]:
    context = await browser.new_context(viewport={"width": 1280, "height": 860}, locale="en-US")
    page = await context.new_page()
    yield page
    await context.close()


async def sign_in(page: Any, system: System, key: str, where: str = "overview") -> None:
    await page.goto(f"{system.url}/#/{where}")
    await page.locator("input[name=api_key]").fill(key)  # whatever the page's language
    await page.locator("form button[type=submit]").click()
    await page.get_by_test_id("who").wait_for()  # and the page the address names is shown


async def shoot(page: Any, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    await page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=False)


async def test_sign_in_and_a_wrong_key_is_refused(page: Any, system: System) -> None:
    uid = f"web_{uuid.uuid4().hex[:6]}"
    key = await system.user(uid)
    await page.goto(system.url)
    await page.get_by_label("API key").fill("mgw_not_a_key")
    await page.get_by_role("button", name="Sign in").click()
    await page.get_by_role("alert").filter(has_text="unknown or revoked API key").wait_for()
    await page.get_by_label("API key").fill(key)
    await page.get_by_role("button", name="Sign in").click()
    assert await page.get_by_test_id("who").inner_text() == uid
    stored = await page.evaluate("() => [sessionStorage.getItem('memgw.key'), document.cookie, location.href]")
    assert stored[0] == key
    assert key not in stored[1] + stored[2]  # never in a cookie or the URL
    await page.get_by_role("button", name="中文").click()
    await page.get_by_role("link", name="概览").wait_for()
    await page.get_by_role("button", name="English").click()


async def test_a_folder_sync_moves_its_progress_bar_and_ends_completed(
    page: Any, system: System, files_dir: Path
) -> None:
    uid = f"web_{uuid.uuid4().hex[:6]}"
    key = await system.user(uid)
    for n in range(40):
        (files_dir / f"note-{n:02}.md").write_text(f"# Note {n}\n\n" + "Sync progress is shown live. " * 30)
    source = f"web-{files_dir.name}"
    await system.folder_source(key, source, files_dir, max_tokens_per_sync=500_000)
    await sign_in(page, system, key, "sources")
    row = page.locator(f'tr[data-source="{source}"]')
    await row.wait_for()
    await asyncio.sleep(0.3)  # the live WebSocket is authenticated before the sync is asked for
    await row.get_by_role("button", name="Sync").click()
    await page.wait_for_function(
        f"() => document.querySelector('tr[data-source=\"{source}\"]').dataset.stages.includes('Completed')",
        timeout=60_000,
    )
    stages = (await row.get_attribute("data-stages")).split(",")
    assert stages[0] == "Requested"
    assert "Ingesting" in stages
    assert stages[-1] == "Completed"
    bar = row.locator("progress")
    assert await bar.get_attribute("value") == await bar.get_attribute("max") == "40"
    used, limit = (await row.get_by_test_id("budget").inner_text()).removesuffix(" tok").split(" / ")
    assert int(used) > 0  # the budget's use, counted live
    assert limit == "500000"
    await shoot(page, "sources")


async def _contradiction(system: System, key: str) -> str:
    auth = system.auth(key)
    job: dict[str, Any] = {}
    for text in ("I live in Berlin.", "I moved to Vienna."):
        sid = f"s_{uuid.uuid4().hex[:8]}"
        await system.client.post("/v1/episodes", json={"session_id": sid, "content": text}, headers=auth)
        url = (await system.client.post(f"/v1/sessions/{sid}/commit", json={}, headers=auth)).json()["job"]
        async with asyncio.timeout(30):
            while (job := (await system.client.get(url, headers=auth)).json())["state"] not in ("done", "failed"):
                await asyncio.sleep(0.05)
    return str(job["result"]["reviews"][0])


async def test_a_contradiction_is_decided_on_the_reviews_page(page: Any, system: System) -> None:
    key = await system.user(f"web_{uuid.uuid4().hex[:6]}")
    review_id = await _contradiction(system, key)
    await sign_in(page, system, key, "overview")
    await page.get_by_test_id("reviews-waiting").filter(has_text="1 reviews wait for you").wait_for()
    assert await page.get_by_test_id("reviews-badge").inner_text() == "1"  # on every page's Reviews link
    await page.get_by_test_id("reviews-waiting").get_by_role("link").click()
    card = page.locator(f'section[data-review="{review_id}"]')
    await card.get_by_text("I live in Berlin.").wait_for()
    await card.get_by_text("I moved to Vienna.").first.wait_for()
    await shoot(page, "reviews")
    await card.get_by_role("button", name="Take the new").click()
    await card.get_by_text("Decision sent.").wait_for()
    auth = system.auth(key)
    async with asyncio.timeout(20):
        while True:
            decided = (await system.client.get("/v1/reviews", params={"status": "decided"}, headers=auth)).json()
            if [r["decision"] for r in decided if r["id"] == review_id] == ["accept_new"]:
                break
            await asyncio.sleep(0.1)
    active = (await system.client.get("/v1/memory", params={"limit": 50}, headers=auth)).json()["items"]
    assert "I moved to Vienna." in [m["content"] for m in active]
    assert "I live in Berlin." not in [m["content"] for m in active]


async def test_search_explains_and_an_agent_key_sees_only_its_own(page: Any, system: System) -> None:
    uid = f"web_{uuid.uuid4().hex[:6]}"
    await system.user(uid)
    mine, other = await system.agent(uid, f"a1_{uid}"), await system.agent(uid, f"a2_{uid}")
    stranger = await system.user(f"web_{uuid.uuid4().hex[:6]}")
    tag = uuid.uuid4().hex[:6]
    for key, text in ((mine, "a1 keeps the deploy checklist"), (other, "a2 keeps the release notes")):
        body = {"content": f"{text} {tag}", "visibility": "agent-only", "memory_type": "note", "tags": [tag]}
        assert (await system.client.post("/v1/memory", json=body, headers=system.auth(key))).status_code == 201
    body = {"content": f"a stranger's diary {tag}", "tags": [tag]}
    assert (await system.client.post("/v1/memory", json=body, headers=system.auth(stranger))).status_code == 201
    await sign_in(page, system, mine, "memories")
    await page.get_by_label("Tags (comma separated)").fill(tag)
    await page.get_by_role("button", name="Find").click()
    await page.get_by_text(f"a1 keeps the deploy checklist {tag}").wait_for()
    listed = await page.locator(".hit").all_inner_texts()
    assert not any("a2 keeps" in text or "stranger" in text for text in listed)
    await page.get_by_label("Tags (comma separated)").fill("")
    await page.get_by_label("Search").fill(f"deploy checklist {tag}")
    await page.get_by_label("Explain ranking").check()
    await page.get_by_role("button", name="Find").click()
    explain = page.get_by_test_id("explain").first
    await explain.wait_for()
    assert "fused=" in await explain.inner_text()
    assert not any("stranger" in text for text in await page.locator(".hit").all_inner_texts())
    await shoot(page, "memories")


async def test_overview_activity_and_a_phone_width(browser: Any, system: System) -> None:
    long_id = f"web_{uuid.uuid4().hex}_" + "x" * 80  # an audit target that does not break by itself
    await system.admin("POST", "/v1/users", json={"user_id": long_id})
    context = await browser.new_context(viewport={"width": 390, "height": 844}, locale="zh-CN")
    page = await context.new_page()
    try:
        await sign_in(page, system, system.admin_key)
        await page.get_by_role("link", name="概览").wait_for()  # the browser's language decides
        await page.get_by_test_id("chart").wait_for()
        wide = await page.evaluate("() => document.documentElement.scrollWidth")
        assert wide <= 392  # nothing runs off a phone's screen (tables scroll inside their frame)
        await shoot(page, "overview-phone")
        await page.set_viewport_size({"width": 1280, "height": 860})
        await page.get_by_role("button", name="English").click()
        await page.goto(f"{system.url}/#/activity")
        await page.get_by_role("heading", name="Activity").wait_for()
        await page.get_by_role("columnheader", name="Reason").wait_for()
        for column in ("Decision", "Reason"):  # ids wrap in their cells: nothing pushed off a laptop's screen
            box = await page.get_by_role("columnheader", name=column).bounding_box()
            assert box is not None
            assert box["x"] + box["width"] <= 1280, (column, box)
        await shoot(page, "activity")
        await page.goto(f"{system.url}/#/overview")
        await page.get_by_test_id("chart").wait_for()
        legend = await page.get_by_test_id("chart-legend").inner_text()
        assert "Memories made per day: " in legend  # each series named, with its total
        assert "Syncs per day: " in legend
        await shoot(page, "overview")
    finally:
        await context.close()


async def _fill(form: Any, values: dict[str, str]) -> None:
    for name, value in values.items():
        await form.locator(f"[name={name}]").fill(value)
    await form.get_by_role("button", name="Create").click()


async def test_an_admin_makes_a_user_an_agent_and_a_key_and_the_user_revokes_one(
    page: Any, browser: Any, system: System
) -> None:
    uid, tag = f"web_{uuid.uuid4().hex[:6]}", uuid.uuid4().hex[:6]
    await sign_in(page, system, system.admin_key, "access")
    await _fill(page.get_by_role("form", name="New user"), {"user_id": uid, "display_name": "Web Ana"})
    await page.get_by_role("cell", name=uid, exact=True).wait_for()
    await _fill(page.get_by_role("form", name="New agent"), {"agent_id": f"bot_{tag}", "owner_user_id": uid})
    await page.get_by_role("cell", name=f"bot_{tag}", exact=True).first.wait_for()
    made = page.get_by_role("form", name="New key")
    await made.locator("[name=user_id]").fill(uid)
    await made.locator("[name=label]").fill("laptop")
    await made.get_by_role("button", name="Create").click()
    secret = await page.get_by_test_id("new-key").inner_text()
    me = await system.client.get("/v1/me", headers=system.auth(secret))
    assert (me.status_code, me.json()["user_id"]) == (200, uid)  # the key shown once works
    spare = (await system.admin("POST", "/v1/keys", json={"user_id": uid, "label": "old phone"}))["api_key"]

    context = await browser.new_context(viewport={"width": 1280, "height": 860}, locale="en-US")
    mine = await context.new_page()
    try:
        await sign_in(mine, system, secret, "access")
        row = mine.locator("tr", has_text="old phone")
        mine.once("dialog", lambda dialog: asyncio.ensure_future(dialog.accept()))
        await row.get_by_role("button", name="Revoke").click()
        await mine.locator("tr", has_text="old phone").get_by_text("revoked").wait_for()
        await shoot(mine, "access")
    finally:
        await context.close()
    assert (await system.client.get("/v1/me", headers=system.auth(spare))).status_code == 401
    assert (await system.client.get("/v1/me", headers=system.auth(secret))).status_code == 200


async def test_a_workspace_invitation_is_sent_and_accepted(page: Any, browser: Any, system: System) -> None:
    owner, guest = f"web_{uuid.uuid4().hex[:6]}", f"web_{uuid.uuid4().hex[:6]}"
    owner_key, guest_key = await system.user(owner), await system.user(guest)
    space = f"ws_{uuid.uuid4().hex[:6]}"
    await sign_in(page, system, owner_key, "access")
    await _fill(page.get_by_role("form", name="New workspace"), {"workspace_id": space, "name": "Household"})
    card = page.locator(f'section[data-workspace="{space}"]')
    await card.locator("[name=invitee]").fill(guest)
    await card.get_by_role("button", name="Invite").click()
    await page.locator(f'section[data-workspace="{space}"]').get_by_text(f"Invited: {guest}").wait_for()

    context = await browser.new_context(viewport={"width": 1280, "height": 860}, locale="en-US")
    theirs = await context.new_page()
    try:
        await sign_in(theirs, system, guest_key, "access")
        await (
            theirs.locator(f'section[data-workspace="{space}"]')
            .get_by_role("button", name="Accept the invitation")
            .click()
        )
        # The members line itself: the card's whole text ("Members: … Invited: <guest>") matches before the join.
        members = theirs.locator(f'section[data-workspace="{space}"] p').filter(
            has_text=re.compile(f"Members: .*{guest}")
        )
        await members.wait_for()
    finally:
        await context.close()
    workspace = (await system.client.get(f"/v1/workspaces/{space}", headers=system.auth(owner_key))).json()
    assert sorted(workspace["member_user_ids"]) == sorted([owner, guest])
    assert workspace["invited_user_ids"] == []


async def test_memories_page_through_edit_and_lead_to_their_origin(page: Any, system: System, files_dir: Path) -> None:
    key = await system.user(f"web_{uuid.uuid4().hex[:6]}")
    auth = system.auth(key)
    batch = {"memories": [{"content": f"Paged note number {n:02}.", "memory_type": "note"} for n in range(45)]}
    assert (await system.client.post("/v1/memory/batch", json=batch, headers=auth)).is_success
    sid = f"s_{uuid.uuid4().hex[:8]}"
    said = "User: I keep two beehives in my garden.\nAssistant: Lovely!"
    await system.client.post("/v1/episodes", json={"session_id": sid, "content": said}, headers=auth)
    committed = await system.client.post(f"/v1/sessions/{sid}/commit?wait=true", json={}, headers=auth)
    [kept] = committed.json()["promoted"]
    (files_dir / "garden.md").write_text("# Garden\n\nThe quince tree by the shed fruits in October.\n")
    await system.folder_source(key, f"web-{files_dir.name}", files_dir)
    await system.client.post(f"/v1/sources/web-{files_dir.name}/sync", headers=auth)
    async with asyncio.timeout(60):
        while not [
            m
            for m in (await system.client.get("/v1/memory", params={"limit": 100}, headers=auth)).json()["items"]
            if m["source_id"]
        ]:
            await asyncio.sleep(0.2)

    await sign_in(page, system, key, "memories")
    count = page.get_by_test_id("count")
    await count.filter(has_text="20 results").wait_for()
    await page.get_by_role("button", name="Next page").click()
    await count.filter(has_text="20 results · page 2").wait_for()
    await page.get_by_role("button", name="Next page").click()
    await count.filter(has_text="page 3").wait_for()
    assert await page.get_by_role("button", name="Next page").count() == 0  # 47 memories: the last page
    await page.get_by_role("button", name="Previous page").click()
    await count.filter(has_text="page 2").wait_for()

    await page.get_by_label("Search").fill("beehives garden")
    await page.get_by_role("button", name="Find").click()
    hit = page.locator(f'section[data-query="beehives garden"] .hit[data-memory="{kept["id"]}"]')
    await hit.get_by_role("button", name="Origin").click()
    await hit.get_by_test_id("origin").get_by_text(f"Session {sid}").wait_for()
    assert "I keep two beehives in my garden." in await hit.get_by_test_id("origin").inner_text()
    await hit.get_by_role("button", name="Edit").click()
    await hit.locator("textarea[name=content]").fill("I keep three beehives in my garden.")
    await hit.get_by_role("button", name="Save").click()
    await (
        page.locator(f'.hit[data-memory="{kept["id"]}"]').get_by_text("I keep three beehives in my garden.").wait_for()
    )
    edited = (await system.client.get(f"/v1/memory/{kept['id']}", headers=auth)).json()
    assert (edited["content"], edited["version"]) == ("I keep three beehives in my garden.", 2)

    await page.get_by_label("Search").fill("quince tree shed October")
    await page.get_by_role("button", name="Find").click()
    quince = page.locator('section[data-query="quince tree shed October"] .hit', has_text="quince tree").first
    await quince.get_by_role("button", name="Origin").click()
    origin = quince.get_by_test_id("origin")
    await origin.get_by_text("Source item").wait_for()
    assert "The quince tree by the shed fruits in October." in await origin.inner_text()


async def _add_source(page: Any, source_id: str, kind: str, fields: dict[str, str]) -> None:
    form = page.get_by_role("form", name="Add a source")
    await form.locator("[name=id]").fill(source_id)
    await form.locator("[name=kind]").select_option(kind)
    await form.get_by_role("group", name=f"Fields of a {kind}").wait_for()
    for name, value in fields.items():
        await form.locator(f'[name="field.{name}"]').fill(value)
    await form.get_by_role("button", name="Save").click()
    await page.locator(f'tr[data-source="{source_id}"]').wait_for()


@pytest_asyncio.fixture
async def worldly(work_dir: Path, pg_admin_url: str, nats_url: str) -> AsyncIterator[tuple[System, dict[str, str]]]:
    """A system of its own whose network readers reach a loopback stand-in for GitHub, a feed, a web
    page, Twitter and Composio (the shared system's guard rightly refuses loopback), with the map of
    Composio connections to the users Composio says own them."""
    owners: dict[str, str] = {}
    async with serve(outside_world(owners)) as upstream:
        outbound = {
            "outbound_allow": [upstream.removeprefix("http://")],
            "github_api_url": upstream,
            "twitter_api_url": upstream,
            "twitter_bearer_token": "tb",
            "composio_api_url": f"{upstream}/composio",
            "composio_api_key": "ck",
        }
        async with (
            private_install(work_dir, pg_admin_url, nats_url, sources=outbound) as infra,
            running_system(infra) as system,
        ):
            yield system, owners


async def test_each_source_kind_is_added_through_its_form_and_syncs(
    page: Any, worldly: tuple[System, dict[str, str]], work_dir: Path
) -> None:
    system, owners = worldly
    uid = f"web_{uuid.uuid4().hex[:6]}"
    key = await system.user(uid)
    owners["ca_mail"] = uid  # Composio says this connection is the user's own
    files_dir = work_dir / f"files-{uid}"
    files_dir.mkdir()
    (files_dir / "recipes.md").write_text("# Recipes\n\nRhubarb crumble wants a hot oven.\n")
    sid = f"s_{uid}"
    said = "User: I keep two beehives in my garden.\nAssistant: Lovely!"
    await system.client.post("/v1/episodes", json={"session_id": sid, "content": said}, headers=system.auth(key))
    await system.client.post(f"/v1/sessions/{sid}/commit?wait=true", json={}, headers=system.auth(key))

    await sign_in(page, system, key, "sources")
    form = page.get_by_role("form", name="Add a source")
    await form.locator("[name=kind]").select_option("GithubRepo")
    assert await form.locator('[name="field.token"]').get_attribute("type") == "password"  # a credential
    assert "write-only" in await form.locator("#help-token").inner_text()  # each field says what it takes
    upstream = system.infra.settings.sources.github_api_url
    forms = {
        "gh": ("GithubRepo", {"repo": "octo/hello", "token": "ghp_secret123", "include": "commits, issues"}),
        "rss": ("RssFeed", {"url": f"{upstream}/feed.xml", "max_items": "5"}),
        "web": ("WebPage", {"url": f"{upstream}/about", "selector": "main"}),
        "chat": ("Conversation", {}),
        "tw": ("TwitterQuery", {"query": "memory gateway"}),
        "mail": ("Composio", {"toolkit": "gmail", "connection_id": "ca_mail"}),
        "dir": ("Folder", {"path": str(files_dir)}),
    }
    for name, (kind, fields) in forms.items():
        await _add_source(page, name, kind, fields)
    stored = {s["id"]: s for s in (await system.client.get("/v1/sources", headers=system.auth(key))).json()}
    assert stored["gh"]["fields"] == {"repo": "octo/hello", "include": ["commits", "issues"]}
    assert stored["gh"]["credentials"] == ["token"]  # sealed, never shown again
    assert stored["rss"]["fields"] == {"url": f"{upstream}/feed.xml", "max_items": 5}
    assert stored["mail"]["credentials"] == ["connection_id"]

    await asyncio.sleep(0.3)  # the live WebSocket is authenticated before the syncs are asked for
    for name in forms:
        await page.locator(f'tr[data-source="{name}"]').get_by_role("button", name="Sync").click()
    for name in forms:  # each row's progress, live: the bar full and its stage Completed
        row = page.locator(f'tr[data-source="{name}"]')
        await row.get_by_test_id("stage").filter(has_text=re.compile("^(Completed|Failed)")).wait_for(timeout=60_000)
        assert await row.get_by_test_id("stage").inner_text() == "Completed", name
        bar = row.locator("progress")
        assert await bar.get_attribute("value") == await bar.get_attribute("max"), name
    # what each kind read is in memory, found by the words of its upstream
    for query, expected in {
        "hello page commit": "gh",
        "plum pruning": "rss",
        "grow quinces": "web",
        "beehives": "chat",
        "记忆网关": "tw",
        "付款": "mail",
        "rhubarb crumble": "dir",
    }.items():
        found = await system.client.post(
            "/v1/memory/search", json={"query": query, "limit": 3}, headers=system.auth(key)
        )
        assert expected in {hit["memory"]["source_id"] for hit in found.json()["results"]}, (query, found.text)

    row = page.locator('tr[data-source="dir"]')
    await row.get_by_role("button", name="Edit").click()
    edit = page.get_by_role("form", name="Edit dir")
    assert await edit.locator('[name="field.path"]').input_value() == str(files_dir)
    await edit.locator('[name="field.glob"]').fill("**/*.txt")
    await edit.get_by_role("button", name="Save").click()
    async with asyncio.timeout(20):
        while (await system.client.get("/v1/sources/dir", headers=system.auth(key))).json()["fields"].get(
            "glob"
        ) != "**/*.txt":
            await asyncio.sleep(0.1)
