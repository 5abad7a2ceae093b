"""Each reader against local files and local servers, hostile input included."""

from __future__ import annotations

import json
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from memgw.common.composio import ComposioClient
from memgw.common.net import GuardedFetcher
from memgw.common.settings import SourceSettings
from memgw.common.sources import MemorySourceEntry, SourceKind
from memgw.sync_worker.readers.base import ItemError, SourceError
from memgw.sync_worker.readers.composio import ComposioReader, scope_of
from memgw.sync_worker.readers.folder import FolderReader
from memgw.sync_worker.readers.github import GithubReader
from memgw.sync_worker.readers.rss import RssReader
from memgw.sync_worker.readers.textconv import html_to_text
from memgw.sync_worker.readers.twitter import TwitterReader
from memgw.sync_worker.readers.webpage import WebPageReader
from tests.fakes import composio_app, serve

pytestmark = pytest.mark.unit


def _source(kind: SourceKind, **fields: Any) -> MemorySourceEntry:
    return MemorySourceEntry(id=f"t-{kind.value.lower()}", kind=kind, owner_user_id="u", fields=fields)


# -- Folder --------------------------------------------------------------------------------------------------


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    root = tmp_path / "root"
    (root / "sub").mkdir(parents=True)
    (root / "a.md").write_text("# A\n\nplain markdown")
    (root / "sub" / "b.md").write_text("# B\n\n中文内容")
    (root / "page.html").write_text("<html><head><style>x{}</style></head><body><h1>T</h1><p>Para</p></body></html>")
    (root / "latin1.md").write_bytes("caf\xe9 ol\xe9".encode("latin-1"))  # invalid UTF-8
    (root / "blob.md").write_bytes(b"\x00\x01\x02binary")
    (root / "big.md").write_text("x" * 2048)
    (tmp_path / "secret.md").write_text("outside the root")
    (root / "escape.md").symlink_to(tmp_path / "secret.md")
    return root


def _folder_reader(tmp_path: Path) -> FolderReader:
    return FolderReader(SourceSettings(folder_roots={"*": [tmp_path]}, folder_max_file_bytes=1024))


async def test_folder_lists_by_glob_and_never_follows_a_link_out_of_the_root(tmp_path: Path, folder: Path) -> None:
    reader = _folder_reader(tmp_path)
    items = {i.id for i in await reader.list_items(_source(SourceKind.FOLDER, path=str(folder)))}
    assert items == {"a.md", "sub/b.md", "latin1.md", "blob.md", "big.md"}
    html = await reader.list_items(_source(SourceKind.FOLDER, path=str(folder), glob="*.html"))
    assert [i.id for i in html] == ["page.html"]


async def test_folder_reads_text_and_html_and_refuses_what_it_must(tmp_path: Path, folder: Path) -> None:
    reader = _folder_reader(tmp_path)
    source = _source(SourceKind.FOLDER, path=str(folder), glob="**/*")
    assert (await reader.read_item(source, "sub/b.md")).text == "# B\n\n中文内容"
    page = (await reader.read_item(source, "page.html")).text
    assert "Para" in page
    assert "x{}" not in page
    assert "caf\ufffd" in (await reader.read_item(source, "latin1.md")).text
    with pytest.raises(ItemError, match="binary"):
        await reader.read_item(source, "blob.md")
    with pytest.raises(ItemError, match="larger than 1024 bytes"):
        await reader.read_item(source, "big.md")
    for hostile in ("../secret.md", "escape.md", "/etc/passwd", "sub/../../secret.md"):
        with pytest.raises(ItemError):
            await reader.read_item(source, hostile)


async def test_folder_refuses_a_glob_or_root_that_leaves_the_allowed_roots(tmp_path: Path, folder: Path) -> None:
    reader = _folder_reader(folder / "sub")  # only sub/ is allowed
    with pytest.raises(SourceError, match="allowed folder root"):
        await reader.list_items(_source(SourceKind.FOLDER, path=str(folder)))
    reader = _folder_reader(tmp_path)
    with pytest.raises(SourceError, match="inside the folder"):
        await reader.list_items(_source(SourceKind.FOLDER, path=str(folder), glob="../**/*.md"))
    with pytest.raises(SourceError, match="does not exist"):
        await reader.list_items(_source(SourceKind.FOLDER, path=str(tmp_path / "missing")))


# -- GitHub --------------------------------------------------------------------------------------------------


def _github_app(state: dict[str, int]) -> Starlette:
    def commits(request: Request) -> Response:
        page = int(request.query_params.get("page", "1"))
        assert request.headers["authorization"] == "Bearer tok"
        body = [
            {
                "sha": f"{page}abc{n}",
                "commit": {
                    "message": f"fix {page}.{n}\n\nbody",
                    "author": {"name": "Ann", "date": f"2026-01-0{page}T00:00:00Z"},
                },
            }
            for n in range(2)
        ]
        headers = (
            {"link": f'<{request.base_url}repos/o/r/commits?per_page=100&page=2>; rel="next"'} if page == 1 else {}
        )
        return JSONResponse(body, headers=headers)

    def issues(_: Request) -> Response:
        state["issue_calls"] += 1
        if state["issue_calls"] == 1:  # rate limited once, resetting in a second
            return JSONResponse(
                {"message": "rate limit"},
                status_code=403,
                headers={"x-ratelimit-remaining": "0", "x-ratelimit-reset": str(int(time.time()) + 1)},
            )
        return JSONResponse(
            [
                {
                    "number": 1,
                    "title": "Bug",
                    "body": "它坏了",
                    "state": "open",
                    "user": {"login": "bo"},
                    "updated_at": "2026-02-01T00:00:00Z",
                },
                {
                    "number": 2,
                    "title": "Fix",
                    "body": "fixes #1",
                    "state": "closed",
                    "user": {"login": "cy"},
                    "pull_request": {},
                    "updated_at": "2026-02-02T00:00:00Z",
                },
            ]
        )

    return Starlette(
        routes=[
            Route("/repos/o/r/commits", commits),
            Route("/repos/o/r/issues", issues),
            Route("/repos/o/missing/commits", lambda _: JSONResponse({}, status_code=404)),
        ]
    )


async def test_github_reads_commits_issues_and_prs_across_pages_and_a_rate_limit() -> None:
    state = {"issue_calls": 0}
    async with serve(_github_app(state)) as url:
        fetcher = GuardedFetcher(allow=[url.removeprefix("http://")])
        reader = GithubReader(
            SourceSettings(github_api_url=url, github_token="tok", operator_credential_users=["u"]), fetcher
        )
        waited: list[float] = []

        async def wait(seconds: float) -> None:
            waited.append(seconds)

        reader._wait = wait  # type: ignore[method-assign]
        source = _source(SourceKind.GITHUB_REPO, repo="o/r")
        items = {i.id for i in await reader.list_items(source)}
        assert items == {"commit:1abc0", "commit:1abc1", "commit:2abc0", "commit:2abc1", "issue:1", "pr:2"}
        issue = await reader.read_item(source, "issue:1")
        assert "它坏了" in issue.text
        assert issue.text.startswith("# Issue #1: Bug")
        assert state["issue_calls"] == 2
        [wait] = waited  # once, until the window resets (a second from the fake's now)
        assert 1 <= wait <= 2
        only_prs = await reader.list_items(_source(SourceKind.GITHUB_REPO, repo="o/r", include=["pulls"]))
        assert [i.id for i in only_prs] == ["pr:2"]
        with pytest.raises(SourceError, match="no repository o/missing"):
            await reader.list_items(_source(SourceKind.GITHUB_REPO, repo="o/missing", include=["commits"]))
        with pytest.raises(SourceError, match="owner/name"):
            await reader.list_items(_source(SourceKind.GITHUB_REPO, repo="../../etc"))
        await fetcher.close()


# -- RSS / Atom ----------------------------------------------------------------------------------------------

RSS = """<?xml version="1.0"?><rss version="2.0"><channel><title>Blog</title>
<item><guid>p1</guid><title>First 第一</title>
<description>&lt;p&gt;Hello &lt;b&gt;world&lt;/b&gt;&lt;/p&gt;</description>
<pubDate>Mon, 02 Mar 2026 10:00:00 GMT</pubDate><link>https://blog.example/p1</link></item>
<item><guid>p2</guid><title>Second</title><description>Two</description></item>
<item><guid>p3</guid><title>Third</title><description>Three</description></item>
</channel></rss>"""
ATOM = """<?xml version="1.0" encoding="utf-8"?><feed xmlns="http://www.w3.org/2005/Atom"><title>A</title>
<entry><id>urn:a1</id><title>Atom entry</title><updated>2026-03-01T00:00:00Z</updated>
<content type="html">&lt;p&gt;atom body&lt;/p&gt;</content></entry></feed>"""


@pytest.fixture
async def feeds() -> AsyncIterator[str]:
    app = Starlette(
        routes=[
            Route("/rss", lambda _: Response(RSS, media_type="application/rss+xml")),
            Route("/atom", lambda _: Response(ATOM, media_type="application/atom+xml")),
            Route("/broken", lambda _: Response("<rss><channel><<<item>>>&&& not xml at all", media_type="text/xml")),
            Route("/big", lambda _: Response("<rss>" + "x" * 4096 + "</rss>", media_type="text/xml")),
        ]
    )
    async with serve(app) as url:
        yield url


async def test_rss_and_atom_entries_become_items_up_to_max_items(feeds: str) -> None:
    fetcher = GuardedFetcher(allow=[feeds.removeprefix("http://")])
    reader = RssReader(SourceSettings(), fetcher)
    source = _source(SourceKind.RSS_FEED, url=f"{feeds}/rss", max_items=2)
    items = await reader.list_items(source)
    assert len(items) == 2
    first = await reader.read_item(source, items[0].id)
    assert first.text.startswith("# First 第一")
    assert "Hello world" in first.text
    assert first.updated_at is not None
    atom = _source(SourceKind.RSS_FEED, url=f"{feeds}/atom")
    [entry] = await reader.list_items(atom)
    assert "atom body" in (await reader.read_item(atom, entry.id)).text
    with pytest.raises(SourceError, match="malformed feed"):
        await reader.list_items(_source(SourceKind.RSS_FEED, url=f"{feeds}/broken"))
    small = RssReader(SourceSettings(feed_max_bytes=1024), fetcher)
    with pytest.raises(SourceError, match="over 1024 bytes"):
        await small.list_items(_source(SourceKind.RSS_FEED, url=f"{feeds}/big"))
    await fetcher.close()


async def test_a_feed_redirecting_to_a_local_address_is_refused(feeds: str) -> None:
    fetcher = GuardedFetcher()  # nothing local allowed
    with pytest.raises(SourceError, match="private or local"):
        await RssReader(SourceSettings(), fetcher).list_items(_source(SourceKind.RSS_FEED, url=f"{feeds}/rss"))
    await fetcher.close()


# -- Web page ------------------------------------------------------------------------------------------------

PAGE = """<html><head><title>T</title><script>var x=1</script></head><body>
<nav>Home | About</nav><main><h1>记忆网关</h1><p>Main <b>text</b> here.</p><div class="note">Side note</div></main>
<footer>© 2026</footer></body></html>"""


async def test_a_web_page_keeps_its_main_text_or_what_the_selector_picks() -> None:
    async with serve(Starlette(routes=[Route("/p", lambda _: Response(PAGE, media_type="text/html"))])) as url:
        fetcher = GuardedFetcher(allow=[url.removeprefix("http://")])
        reader = WebPageReader(SourceSettings(), fetcher)
        page = await reader.read_item(_source(SourceKind.WEB_PAGE, url=f"{url}/p"), "page")
        assert "记忆网关" in page.text
        assert "Main text here." in page.text
        assert "Home | About" not in page.text
        assert "var x" not in page.text
        assert "© 2026" not in page.text
        note = await reader.read_item(_source(SourceKind.WEB_PAGE, url=f"{url}/p", selector="div.note"), "page")
        assert note.text == "Side note"
        with pytest.raises(ItemError, match="matches nothing"):
            await reader.read_item(_source(SourceKind.WEB_PAGE, url=f"{url}/p", selector="#missing"), "page")
        await fetcher.close()


# -- Composio and Twitter ------------------------------------------------------------------------------------


async def test_composio_reads_a_connection_through_its_toolkit_tool() -> None:
    calls: list[str] = []
    settings = SourceSettings(operator_credential_users=["u"])
    async with serve(composio_app(calls, owners={"ca_1": "u"})) as url:
        fetcher = GuardedFetcher(allow=[url.removeprefix("http://")])
        reader = ComposioReader(ComposioClient(fetcher, url, "ck"), settings)
        source = _source(SourceKind.COMPOSIO, toolkit="gmail", connection_id="ca_1")
        items = await reader.list_items(source)
        assert [i.id for i in items] == ["gmail:m1", "gmail:m2"]
        first = await reader.read_item(source, "gmail:m1")
        assert "请在周五前付款" in first.text
        assert first.scope == "gmail"  # the upstream's own id, which agents' allowlists may name
        assert calls == ["GMAIL_FETCH_EMAILS:ca_1"]
        with pytest.raises(SourceError, match="no Composio feed"):
            await reader.list_items(_source(SourceKind.COMPOSIO, toolkit="fax", connection_id="x"))
        unconfigured = ComposioReader(ComposioClient(fetcher, url, None), settings)
        with pytest.raises(SourceError, match="not configured"):
            await unconfigured.list_items(source)
        await fetcher.close()


def test_a_composio_channel_is_scoped_as_the_upstream_names_it() -> None:
    slack = _source(SourceKind.COMPOSIO, toolkit="slack", connection_id="c", channel="#eng")
    assert scope_of("slack", slack) == "slack:#eng"
    assert scope_of("gmail", _source(SourceKind.COMPOSIO, toolkit="gmail", connection_id="c")) == "gmail"


async def test_twitter_fails_clearly_until_configured_then_reads_recent_search() -> None:
    fetcher = GuardedFetcher()
    with pytest.raises(SourceError, match="not configured"):
        await TwitterReader(SourceSettings(), fetcher).list_items(_source(SourceKind.TWITTER_QUERY, query="memgw"))
    tweets = {"data": [{"id": "9", "text": "记忆网关 is out", "created_at": "2026-03-01T00:00:00Z"}]}

    def search(request: Request) -> Response:
        assert request.query_params["query"] == "memgw lang:zh"
        return Response(json.dumps(tweets), media_type="application/json")

    async with serve(Starlette(routes=[Route("/2/tweets/search/recent", search)])) as url:
        fetcher = GuardedFetcher(allow=[url.removeprefix("http://")])
        reader = TwitterReader(
            SourceSettings(twitter_api_url=url, twitter_bearer_token="t", operator_credential_users=["*"]), fetcher
        )
        source = _source(SourceKind.TWITTER_QUERY, query="memgw lang:zh")
        assert [i.id for i in await reader.list_items(source)] == ["tweet:9"]
        assert (await reader.read_item(source, "tweet:9")).text == "记忆网关 is out"
        await fetcher.close()


@pytest.mark.parametrize(
    ("html", "options", "text"),
    [
        ("<p>One &amp; <b>two</b></p><p>Three</p>", {}, "One & two\n\nThree"),
        ("<div>a<br>b</div><script>x()</script><style>p{}</style>", {}, "a\n\nb"),
        ("<ul><li>中文</li><li>English</li></ul>", {}, "中文\n\nEnglish"),
        ("<nav>Menu</nav><main><h1>Title</h1><p>Body</p></main><footer>©</footer>", {"page": True}, "Title\n\nBody"),
        ("<nav>Menu</nav><div id='x'><p>Only this</p></div><p>not this</p>", {"selector": "#x"}, "Only this"),
        ("plain text, no tags", {}, "plain text, no tags"),
    ],
)
def test_html_becomes_readable_text_one_way(html: str, options: dict[str, Any], text: str) -> None:
    assert html_to_text(html, **options) == text
