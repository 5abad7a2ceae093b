"""Extraction through an OpenAI-compatible chat endpoint (a local fake of the protocol): good,
malformed, truncated, failing and slow answers; anything unusable falls back to the rules."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from typing import Any

import pytest
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from memgw.common.extraction import LlmExtractor
from memgw.common.settings import ConsolidationSettings
from tests.fakes import serve

EPISODES = ["我们决定使用 NATS JetStream 作为事件总线。", "The api key is sk-abcdefghijklmnopqrstuvwx, keep it safe."]
GOOD = {
    "summary": "Chose the bus.",
    "memories": [
        {
            "content": "团队决定使用 NATS JetStream 作为事件总线。",
            "memory_type": "decision",
            "importance": 0.9,
            "confidence": 0.95,
            "tags": ["architecture"],
        },
        {
            "content": "The API key is sk-abcdefghijklmnopqrstuvwx",
            "memory_type": "fact",
            "importance": 0.9,
            "confidence": 0.9,
        },
    ],
}


def _completion(content: str, finish: str = "stop") -> dict[str, Any]:
    return {
        "id": "c1",
        "object": "chat.completion",
        "model": "m",
        "choices": [{"index": 0, "finish_reason": finish, "message": {"role": "assistant", "content": content}}],
    }


@pytest.fixture
async def llm() -> AsyncIterator[tuple[str, list[dict[str, Any]]]]:
    seen: list[dict[str, Any]] = []

    async def chat(request: Request) -> Response:
        body = await request.json()
        seen.append(body)
        kind = request.headers.get("x-mode", "good")
        if kind == "good":
            return JSONResponse(_completion(json.dumps(GOOD)))
        if kind == "malformed":
            return JSONResponse(_completion("Sure! Here are the memories: {memories: [oops"))
        if kind == "truncated":
            return JSONResponse(_completion(json.dumps(GOOD)[:40], finish="length"))
        if kind == "error":
            return JSONResponse({"error": {"message": "overloaded"}}, status_code=503)
        await asyncio.sleep(3)  # slow
        return JSONResponse(_completion(json.dumps(GOOD)))

    async with serve(Starlette(routes=[Route("/v1/chat/completions", chat, methods=["POST"])])) as url:
        yield url, seen


def _extractor(url: str, mode: str) -> LlmExtractor:
    settings = ConsolidationSettings(llm_base_url=f"{url}/v1", llm_model="m", llm_timeout_s=1.0)
    extractor = LlmExtractor(settings)
    extractor._client.headers["x-mode"] = mode
    return extractor


async def test_a_good_structured_answer_is_used_and_secrets_are_dropped(llm: tuple[str, list]) -> None:
    url, seen = llm
    extractor = _extractor(url, "good")
    result = await extractor.extract(EPISODES)
    await extractor.close()
    assert result.method == "llm"
    assert [c.content for c in result.candidates] == ["团队决定使用 NATS JetStream 作为事件总线。"]
    assert result.candidates[0].memory_type == "decision"
    request = seen[-1]
    assert request["response_format"]["type"] == "json_schema"
    assert "sk-abcdefghijklmnopqrstuvwx" not in json.dumps(request)  # secrets are not even sent


@pytest.mark.parametrize("mode", ["malformed", "truncated", "error", "slow"])
async def test_an_unusable_answer_falls_back_to_the_rules_and_loses_nothing(llm: tuple[str, list], mode: str) -> None:
    url, _ = llm
    extractor = _extractor(url, mode)
    result = await extractor.extract(EPISODES)
    await extractor.close()
    assert result.method == "rules"
    assert [c.content for c in result.candidates] == ["我们决定使用 NATS JetStream 作为事件总线。"]
    assert "sk-" not in result.summary
