"""The one outbound guard, against local servers: schemes, private addresses, redirects re-checked,
size and time limits."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest
from starlette.applications import Starlette
from starlette.responses import PlainTextResponse, RedirectResponse, Response, StreamingResponse
from starlette.routing import Route

from memgw.common.net import GuardedFetcher, OutboundRefused
from tests.fakes import serve

pytestmark = pytest.mark.unit


async def _huge(_: object) -> StreamingResponse:
    async def chunks() -> AsyncIterator[bytes]:
        for _ in range(50):  # 50 MB if anyone read it all
            yield b"x" * (1024 * 1024)

    return StreamingResponse(chunks(), media_type="text/html")


async def _slow(_: object) -> Response:
    await asyncio.sleep(0.5)  # five times the guard's limit below; the server's stop waits for it
    return PlainTextResponse("late")


def _app(other: str) -> Starlette:
    return Starlette(
        routes=[
            Route("/ok", lambda _: PlainTextResponse("hello 世界")),
            Route("/hop", lambda _: RedirectResponse("/ok")),
            Route("/to-other", lambda _: RedirectResponse(f"{other}/ok")),
            Route("/to-metadata", lambda _: RedirectResponse("http://169.254.169.254/latest/meta-data/")),
            Route("/loop", lambda _: RedirectResponse("/loop")),
            Route("/huge", _huge),
            Route("/declared-huge", lambda _: Response(b"x", headers={"content-length": str(50 * 1024 * 1024)})),
            Route("/slow", _slow),
        ]
    )


@pytest.fixture(scope="module")
async def servers() -> AsyncIterator[tuple[str, str]]:
    """Two local servers the guards are pointed at; they keep no state, so the module shares them."""
    async with serve(Starlette(routes=[Route("/ok", lambda _: PlainTextResponse("other"))])) as other:
        async with serve(_app(other)) as main:
            yield main, other


def _guard(allowed: str, **kwargs: object) -> GuardedFetcher:
    return GuardedFetcher(allow=[allowed.removeprefix("http://")], **kwargs)  # type: ignore[arg-type]


async def test_an_allowlisted_local_server_is_fetched_and_redirects_on_it_followed(servers: tuple[str, str]) -> None:
    main, _ = servers
    guard = _guard(main)
    assert (await guard.fetch(f"{main}/ok")).text == "hello 世界"
    hop = await guard.fetch(f"{main}/hop")
    assert hop.url == f"{main}/ok"
    assert hop.text == "hello 世界"
    await guard.close()


@pytest.mark.parametrize(
    "url",
    ["http://127.0.0.1:9/x", "http://localhost:9/", "http://10.0.0.8/", "http://[::1]:9/", "http://169.254.169.254/"],
)
async def test_private_loopback_and_link_local_addresses_are_refused_before_any_connection(url: str) -> None:
    guard = GuardedFetcher()
    with pytest.raises(OutboundRefused, match="private or local"):
        await guard.fetch(url)
    await guard.close()


@pytest.mark.parametrize("url", ["file:///etc/passwd", "ftp://example.org/x", "gopher://x/"])
async def test_only_http_and_https_are_fetched(url: str) -> None:
    guard = GuardedFetcher()
    with pytest.raises(OutboundRefused, match="only http and https"):
        await guard.fetch(url)
    await guard.close()


async def test_every_redirect_hop_is_checked_again(servers: tuple[str, str]) -> None:
    main, _ = servers
    guard = _guard(main)  # the other loopback port is not allowed
    with pytest.raises(OutboundRefused, match=r"127\.0\.0\.1"):
        await guard.fetch(f"{main}/to-other")
    with pytest.raises(OutboundRefused, match=r"169\.254\.169\.254"):
        await guard.fetch(f"{main}/to-metadata")
    with pytest.raises(OutboundRefused, match="redirects"):
        await guard.fetch(f"{main}/loop")
    await guard.close()


async def test_a_50_mb_page_is_cut_off_at_the_size_limit(servers: tuple[str, str]) -> None:
    main, _ = servers
    guard = _guard(main, max_bytes=2 * 1024 * 1024)
    with pytest.raises(OutboundRefused, match="byte limit"):
        await guard.fetch(f"{main}/huge")
    with pytest.raises(OutboundRefused, match="byte limit"):
        await guard.fetch(f"{main}/declared-huge")
    await guard.close()


async def test_a_slow_server_hits_the_time_limit(servers: tuple[str, str]) -> None:
    main, _ = servers
    guard = _guard(main, timeout_s=0.1)
    with pytest.raises(OutboundRefused, match="longer than"):
        await guard.fetch(f"{main}/slow")
    await guard.close()
