"""memgw.client, the Python client (also what the CLI uses), sync and async, against the running
gateway: every call it offers, its one error type, and the key's reach."""

from __future__ import annotations

import asyncio
import uuid

import pytest

from memgw.client import AsyncMemoryGateway, GatewayError, MemoryGateway
from tests.conftest import System


async def test_the_async_client_covers_the_memory_lifecycle(system: System) -> None:
    uid = f"cl_{uuid.uuid4().hex[:8]}"
    key = await system.user(uid)
    async with AsyncMemoryGateway(system.url, api_key=key) as gw:
        assert (await gw.me())["user_id"] == uid
        made = await gw.remember("我们决定用 NATS 做事件总线。", memory_type="decision", importance=0.8, tags=["arch"])
        assert made["namespace"] == f"user/{uid}/long_term"
        [hit] = [h for h in await gw.search("事件总线用什么", limit=20) if h["memory"]["id"] == made["id"]]
        assert hit["memory"]["memory_type"] == "decision"
        changed = await gw.update(made["id"], version=1, summary="事件总线")
        assert changed["version"] == 2
        with pytest.raises(GatewayError) as stale:
            await gw.update(made["id"], version=1, summary="stale")
        assert (stale.value.status, stale.value.code) == (409, "conflict")
        assert [v["version"] for v in await gw.history(made["id"])] == [2, 1]
        assert made["id"] in [m["id"] async for m in gw.memories(tags=["arch"])]
        assert (await gw.feedback(made["id"], "useful"))["applies_to"] == "record"
        episode = await gw.append_episode(f"s_{uid}", "We agreed on NATS JetStream.")
        assert episode["namespace"] == f"session/s_{uid}/episodic"
        committed = await gw.commit(f"s_{uid}")
        assert (await gw.job(committed["job_id"]))["kind"] == "consolidate_session"
        assert (await gw.profile())["user_id"] == uid
        assert any(n["namespace"] == f"user/{uid}/long_term" for n in await gw.namespaces())
        await gw.delete(made["id"])  # feedback is still being applied: no version to hold it to
        with pytest.raises(GatewayError) as gone:
            await gw.get(made["id"])
        assert gone.value.status == 404


async def test_the_sync_client_and_the_keys_reach(system: System) -> None:
    alice, bob = f"cl_{uuid.uuid4().hex[:8]}", f"cl_{uuid.uuid4().hex[:8]}"
    alice_key, bob_key = await system.user(alice), await system.user(bob)

    def as_alice() -> str:
        with MemoryGateway(system.url, api_key=alice_key) as gw:
            return gw.remember("Alice's locker is number 12.")["id"]

    def as_bob(memory_id: str) -> tuple[int, list[str]]:
        with MemoryGateway(system.url, api_key=bob_key) as gw:
            try:
                gw.get(memory_id)
                status = 200
            except GatewayError as exc:
                status = exc.status
            return status, [h["memory"]["id"] for h in gw.search("locker number")]

    memory_id = await asyncio.to_thread(as_alice)  # the gateway serves on this loop: block a thread, not it
    status, found = await asyncio.to_thread(as_bob, memory_id)
    assert status == 404
    assert memory_id not in found
    with pytest.raises(GatewayError) as refused:
        await asyncio.to_thread(lambda: MemoryGateway(system.url, api_key="mgw_nope").me())
    assert refused.value.status == 401
