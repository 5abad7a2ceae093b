"""The LLM's decision step against a local fake of the OpenAI protocol: each action is applied as the
model says, checked first; an answer outside the schema, a memory number not shown, an error or a
timeout falls back to the default's judgement, and nothing is lost."""

from __future__ import annotations

import asyncio
import dataclasses
import json
import uuid
from collections.abc import AsyncIterator
from typing import Any

import pytest
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from memgw.common import jobs
from memgw.common.domain import new_id
from memgw.common.events import SessionCommitted
from memgw.consolidator.main import consolidator_for
from memgw.consolidator.service import Consolidator
from tests.conftest import System
from tests.fakes import serve

# What the fake model answers, by a word of the new fact.
ANSWERS = {
    "Bristol": {"action": "supersede", "memory": 1, "reason": "a new home"},
    "Mancunian": {"action": "update", "memory": 1, "reason": "the same home"},
    "Salford": {"action": "review", "memory": 1, "reason": "unsure"},
    "weather": {"action": "none", "memory": None, "reason": "small talk"},
    "Leeds": {"action": "supersede", "memory": 7, "reason": "a memory never shown"},
    "Hull": "not json at all",
    "York": "slow",
}


def _completion(content: str) -> dict[str, Any]:
    message = {"role": "assistant", "content": content}
    return {
        "id": "c1",
        "object": "chat.completion",
        "choices": [{"index": 0, "finish_reason": "stop", "message": message}],
    }


@pytest.fixture
async def llm() -> AsyncIterator[tuple[str, list[dict[str, Any]]]]:
    seen: list[dict[str, Any]] = []

    async def chat(request: Request) -> Response:
        body = await request.json()
        seen.append(body)
        asked = body["messages"][1]["content"].split("\n")[0]
        answer = next((a for word, a in ANSWERS.items() if word in asked), {"action": "add", "memory": None})
        if answer == "slow":
            await asyncio.sleep(3)
            answer = {"action": "none", "memory": None, "reason": "too late"}
        return JSONResponse(_completion(answer if isinstance(answer, str) else json.dumps(answer)))

    async with serve(Starlette(routes=[Route("/v1/chat/completions", chat, methods=["POST"])])) as url:
        yield url, seen


def _consolidator(system: System, url: str) -> Consolidator:
    infra = system.infra
    asking = infra.settings.consolidation.model_copy(
        update={"llm_base_url": f"{url}/v1", "llm_model": "m", "llm_timeout_s": 1.0}
    )
    return consolidator_for(
        dataclasses.replace(infra, settings=infra.settings.model_copy(update={"consolidation": asking}))
    )


async def _fresh(system: System) -> tuple[str, str, str]:
    """A user with one memory, "I live in Manchester."; (user, key, its id)."""
    uid = f"ld_{uuid.uuid4().hex[:6]}"
    key = await system.user(uid)
    made = await system.client.post("/v1/memory", json={"content": "I live in Manchester."}, headers=system.auth(key))
    return uid, key, str(made.json()["id"])


async def _consolidate(system: System, consolidator: Consolidator, uid: str, key: str, text: str) -> dict[str, Any]:
    sid = f"s_{uuid.uuid4().hex[:8]}"
    posted = await system.client.post(
        "/v1/episodes", json={"session_id": sid, "content": text}, headers=system.auth(key)
    )
    assert posted.status_code == 201
    job_id = new_id("job")
    await jobs.create(system.infra.pool, job_id, kind="consolidate_session", user_id=uid, subject_id=sid)
    outcome = await consolidator.on_session_committed(SessionCommitted(job_id=job_id, session_id=sid, user_id=uid))
    assert outcome is not None
    return outcome.as_dict()


async def _memory(system: System, key: str, memory_id: str) -> dict[str, Any]:
    return dict((await system.client.get(f"/v1/memory/{memory_id}", headers=system.auth(key))).json())


async def test_each_decision_of_the_model_is_applied(system: System, llm: tuple[str, list[dict[str, Any]]]) -> None:
    url, seen = llm
    consolidator = _consolidator(system, url)
    try:
        uid, key, old = await _fresh(system)
        moved = await _consolidate(system, consolidator, uid, key, "I have moved to Bristol for good.")
        [new] = moved["promoted"]
        before, after = await _memory(system, key, old), await _memory(system, key, new)
        assert (before["status"], before["metadata"]["superseded_by"]) == ("archived", new)
        assert before["metadata"]["valid_to"] == after["metadata"]["valid_from"]
        assert seen[-1]["response_format"]["json_schema"]["name"] == "memory_decision"
        assert "I live in Manchester." in seen[-1]["messages"][1]["content"]  # the owner's memory was shown

        uid, key, old = await _fresh(system)
        same = await _consolidate(system, consolidator, uid, key, "I am a proud Mancunian and live there.")
        assert same["merged"] == [old]
        assert (await _memory(system, key, old))["evidence_count"] == 2

        uid, key, old = await _fresh(system)
        unsure = await _consolidate(system, consolidator, uid, key, "I live in Salford, next to it.")
        assert len(unsure["reviews"]) == 1
        assert (await _memory(system, key, old))["status"] == "needs_review"

        uid, key, _ = await _fresh(system)
        talk = await _consolidate(system, consolidator, uid, key, "I am sure the weather in my town is always grey.")
        assert talk["promoted"] == talk["candidates"] == talk["reviews"] == talk["merged"] == []
    finally:
        await consolidator.close()


@pytest.mark.parametrize("word", ["Leeds", "Hull", "York"])
async def test_an_unusable_decision_falls_back_to_the_default(
    system: System, llm: tuple[str, list[dict[str, Any]]], word: str
) -> None:
    url, _ = llm
    consolidator = _consolidator(system, url)
    try:
        uid, key, old = await _fresh(system)
        outcome = await _consolidate(system, consolidator, uid, key, f"I moved to {word} last month.")
        assert len(outcome["reviews"]) == 1  # the default: a new residence is a change for a person to decide
        assert (await _memory(system, key, old))["status"] == "needs_review"
    finally:
        await consolidator.close()


def test_the_docs_quote_the_prompts_as_sent() -> None:
    from pathlib import Path

    from memgw.common.extraction import _PROMPT as EXTRACT
    from memgw.consolidator.decide import PROMPT as DECIDE

    readme = (Path(__file__).resolve().parents[2] / "docs" / "formation.md").read_text()
    quoted = readme.replace("\n  > ", "\n")
    assert EXTRACT in quoted
    assert DECIDE in quoted
