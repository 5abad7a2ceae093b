"""Fair shares between keys, on the middleware alone: a key past its rate or its slots gets 429 with
Retry-After, and another key is served meanwhile. Requests are held open by the test, not timed."""

from __future__ import annotations

import asyncio

import httpx
from starlette.types import Receive, Scope, Send

from memgw.gateway.fair_shares import FairShares, Limits


class Held:
    """An app whose answers wait until the test lets them go; counts what reached it."""

    def __init__(self) -> None:
        self.release = asyncio.Event()
        self.reached = 0

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        self.reached += 1
        if scope["path"] in ("/slow", "/v1/events"):
            await self.release.wait()
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b"ok"})


def _client(app: FairShares) -> httpx.AsyncClient:
    return httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://gw")


async def test_a_flood_queues_in_its_own_slots_and_the_rest_is_refused_while_others_are_served() -> None:
    held = Held()
    app = FairShares(held, Limits(rate_per_s=1000, burst=1000, max_in_flight=2, max_queued=3))
    flood = {"Authorization": "Bearer mgw_flooder"}
    async with _client(app) as client:
        pending = [asyncio.create_task(client.get("/slow", headers=flood)) for _ in range(10)]
        async with asyncio.timeout(10):
            while sum(t.done() for t in pending) < 5:  # 2 in flight, 3 waiting: the other 5 are refused
                await asyncio.sleep(0.01)
        refused = [t.result() for t in pending if t.done()]
        assert [r.status_code for r in refused] == [429] * 5
        assert all(r.headers["Retry-After"] == "1" for r in refused)
        assert refused[0].json()["error"] == "rate_limited"
        assert held.reached == 2

        other = await client.get("/fast", headers={"Authorization": "Bearer mgw_someone_else"})
        assert other.status_code == 200  # served while the flood holds its own two slots

        held.release.set()
        served = await asyncio.gather(*[t for t in pending if not t.done()])
        assert [r.status_code for r in served] == [200] * 5


async def test_a_key_past_its_rate_waits_as_long_as_retry_after_says() -> None:
    app = FairShares(Held(), Limits(rate_per_s=0.25, burst=3, max_in_flight=8, max_queued=8))
    async with _client(app) as client:
        h = {"X-API-Key": "mgw_busy"}
        answers = [await client.get("/fast", headers=h) for _ in range(4)]
        assert [a.status_code for a in answers] == [200, 200, 200, 429]
        assert answers[-1].headers["Retry-After"] == "4"  # one token comes every 4 s
        assert (await client.get("/fast", headers={"X-API-Key": "mgw_calm"})).status_code == 200


async def test_streams_hold_no_slot() -> None:
    held = Held()
    app = FairShares(held, Limits(rate_per_s=1000, burst=1000, max_in_flight=1, max_queued=0))
    async with _client(app) as client:
        h = {"Authorization": "Bearer mgw_listener"}
        listening = asyncio.create_task(client.get("/v1/events", headers=h))
        async with asyncio.timeout(10):
            while not held.reached:
                await asyncio.sleep(0.01)
        assert (await client.get("/fast", headers=h)).status_code == 200  # the one slot is free
        held.release.set()
        assert (await listening).status_code == 200
