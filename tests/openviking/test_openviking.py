"""The optional OpenViking tier: the real ``openviking`` server package, run here against a scripted
OpenAI-compatible embedding/VLM endpoint, and ``memgw up`` with the adapter on. Accepted memories
become OpenViking resources and leave it when deleted; OpenViking answers as one more retriever,
and what it finds still passes our ACL (another user gets nothing).

Skipped unless MEMGW_TEST_OPENVIKING_SERVER names an ``openviking-server`` executable (OpenViking is
AGPL and large, so it is not a dependency: see docs/openviking.md to install it in a
virtual environment of its own and run this tier).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import uuid
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from memgw.launcher.embedded.process import free_port
from tests.fakes import openai_compatible_app, serve
from tests.up_process import start_up, stop_up

SERVER = os.environ.get("MEMGW_TEST_OPENVIKING_SERVER", "")
pytestmark = [
    pytest.mark.slow,
    pytest.mark.timeout(600),
    pytest.mark.skipif(
        not (SERVER and os.access(SERVER, os.X_OK)),
        reason="set MEMGW_TEST_OPENVIKING_SERVER to an openviking-server executable (docs/openviking.md)",
    ),
]
ROOT_KEY = "memgw-test-root-key-0123456789"


@contextlib.asynccontextmanager
async def openviking_server(tmp: Path, model_url: str) -> AsyncIterator[tuple[str, str]]:
    """A running OpenViking server; yields its URL and a user key of a fresh account."""
    port = free_port()
    config = {
        "storage": {"workspace": str(tmp / "workspace")},
        "embedding": {
            "dense": {
                "provider": "openai",
                "api_base": f"{model_url}/v1",
                "api_key": "k",
                "model": "text-embedding-3-small",
                "dimension": 64,
            }
        },
        "vlm": {"provider": "openai", "api_base": f"{model_url}/v1", "api_key": "k", "model": "gpt-4o-mini"},
        "server": {"host": "127.0.0.1", "port": port, "root_api_key": ROOT_KEY},
    }
    tmp.mkdir(parents=True, exist_ok=True)
    (tmp / "ov.conf").write_text(json.dumps(config))
    log = (tmp / "openviking.log").open("ab")
    env = {**os.environ, "HOME": str(tmp)}  # its own ~/.openviking
    proc = await asyncio.create_subprocess_exec(
        SERVER, "--config", str(tmp / "ov.conf"), stdout=log, stderr=log, env=env
    )
    url = f"http://127.0.0.1:{port}"
    try:
        async with httpx.AsyncClient(base_url=url, timeout=10) as client:
            async with asyncio.timeout(120):
                while True:
                    with contextlib.suppress(httpx.HTTPError):
                        if (await client.get("/health")).status_code == 200:
                            break
                    assert proc.returncode is None, f"openviking-server exited; see {tmp / 'openviking.log'}"
                    await asyncio.sleep(0.5)
            made = await client.post(
                "/api/v1/admin/accounts",
                json={"account_id": "memgw", "admin_user_id": "gateway"},
                headers={"X-API-Key": ROOT_KEY},
            )
            assert made.status_code == 200, made.text
            yield url, made.json()["result"]["user_key"]
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            async with asyncio.timeout(30):
                await proc.wait()
        except TimeoutError:
            proc.kill()
        log.close()


async def _ours(viking: httpx.AsyncClient, query: str) -> set[str]:
    """The memory ids among what OpenViking finds for ``query``."""
    found = (await viking.post("/api/v1/search/find", json={"query": query, "limit": 20})).json()["result"]
    return {t.split("=", 1)[1] for r in found["resources"] for t in r.get("tags") or [] if t.startswith("memgw_id=")}


async def _until(check: Any, what: str) -> None:
    async with asyncio.timeout(60):
        while not await check():
            await asyncio.sleep(0.5)


async def test_accepted_memories_reach_openviking_and_it_answers_as_a_retriever(tmp_path: Path) -> None:
    async with (
        serve(openai_compatible_app()) as model_url,
        openviking_server(tmp_path / "ov", model_url) as (
            ov_url,
            ov_key,
        ),
    ):
        settings = {
            "MEMGW_OPENVIKING_URL": ov_url,
            "MEMGW_OPENVIKING_API_KEY": ov_key,
            "MEMGW_OPENVIKING_WAIT": "true",
        }
        proc, url, admin = await start_up(tmp_path / "data", free_port(), **settings)
        try:
            async with (
                httpx.AsyncClient(base_url=url, headers={"Authorization": f"Bearer {admin}"}, timeout=30) as gw,
                httpx.AsyncClient(base_url=ov_url, headers={"X-API-Key": ov_key}, timeout=30) as viking,
            ):
                keys = {}
                for user in ("alice", "bob"):
                    await gw.post("/v1/users", json={"user_id": user})
                    keys[user] = (await gw.post("/v1/keys", json={"user_id": user})).json()["api_key"]
                tag = uuid.uuid4().hex[:6]
                said = f"Alice keeps her bonsai{tag} collection in Kyoto"
                made = await gw.post(
                    "/v1/memory", json={"content": said}, headers={"Authorization": f"Bearer {keys['alice']}"}
                )
                memory_id = made.json()["id"]

                async def exported() -> bool:
                    return memory_id in await _ours(viking, f"bonsai{tag} Kyoto")

                await _until(exported, "the memory in OpenViking")
                query = {"query": f"bonsai{tag} Kyoto", "explain": True, "limit": 5}
                hits = (
                    await gw.post("/v1/memory/search", json=query, headers={"Authorization": f"Bearer {keys['alice']}"})
                ).json()["results"]
                [hit] = [h for h in hits if h["memory"]["id"] == memory_id]
                assert "openviking_rank" in hit["explain"]  # OpenViking answered as a retriever
                theirs = (
                    await gw.post("/v1/memory/search", json=query, headers={"Authorization": f"Bearer {keys['bob']}"})
                ).json()["results"]
                assert memory_id not in {h["memory"]["id"] for h in theirs}  # found there, refused here

                await gw.delete(f"/v1/memory/{memory_id}", headers={"Authorization": f"Bearer {keys['alice']}"})

                async def removed() -> bool:
                    return memory_id not in await _ours(viking, f"bonsai{tag} Kyoto")

                await _until(removed, "the memory gone from OpenViking")
        finally:
            assert await stop_up(proc, signal.SIGINT) == 0
