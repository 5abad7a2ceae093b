"""Reliability II: a NATS outage of any length loses no event (the relay retries for as long as it
lasts, and says how long the oldest event has waited); readiness asks the bus, not its connection."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import uuid
from pathlib import Path
from typing import Any

import nats
import nats.errors
import pytest

from memgw.common.bus import BusLayout
from memgw.common.db import outbox
from memgw.common.db.outbox import OutboxRelay, enqueue, oldest_pending_age_s
from memgw.common.events import MemoryChanged
from memgw.launcher.embedded.nats import EmbeddedNats
from tests.conftest import System


class FlakyBus:
    """A broker whose first ``failures`` publishes time out, as NATS does while it is away."""

    def __init__(self, failures: int) -> None:
        self.failures, self.calls, self.published = failures, 0, []

    async def publish(self, payload: Any, subject: str, **_: Any) -> None:
        self.calls += 1
        if self.calls <= self.failures:
            raise nats.errors.TimeoutError
        self.published.append(payload)


async def test_an_outage_longer_than_any_count_of_tries_loses_no_event(
    system: System, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(outbox, "MAX_BACKOFF_S", 0.002)  # the test's outage is 80 tries, not minutes
    layout = BusLayout("tf" + uuid.uuid4().hex[:8])  # streams of its own: the system's relay leaves them
    event = MemoryChanged(
        memory_id=f"mem_{uuid.uuid4().hex[:6]}", user_id="u", namespace="user/u/long_term", change="created", version=1
    )
    async with system.infra.pool.acquire() as conn:
        await enqueue(conn, layout, event)
    bus = FlakyBus(failures=outbox.MAX_ATTEMPTS + 30)
    relay = OutboxRelay(system.infra.pool, bus, layout, poll_s=0.001)  # type: ignore[arg-type]
    await relay.start()
    try:
        async with asyncio.timeout(30):
            while bus.calls < outbox.MAX_ATTEMPTS:
                await asyncio.sleep(0.01)
            assert await oldest_pending_age_s(system.infra.pool, layout) > 0  # waiting, and said so
            while await oldest_pending_age_s(system.infra.pool, layout) > 0:  # published, and marked
                await asyncio.sleep(0.01)
    finally:
        await relay.stop()
    assert [p["memory_id"] for p in bus.published] == [event.memory_id]
    row = await system.infra.pool.fetchrow("SELECT attempts, published_at FROM outbox WHERE msg_id = $1", event.id)
    assert row["published_at"] is not None
    assert row["attempts"] == 0  # an outage is no fault of the row's


async def test_readiness_and_metrics_say_how_long_the_oldest_event_waited(system: System) -> None:
    ready = await system.client.get("/readyz")
    assert ready.status_code == 200, ready.text
    assert ready.json()["detail"]["outbox_oldest_pending_s"] >= 0
    metrics = await system.client.get("/metrics")
    assert "memgw_outbox_oldest_pending_seconds " in metrics.text


async def _stopped(pid: int) -> None:
    """Until the process is stopped: kill() only queues SIGSTOP, and a server running on the other core
    may still answer a ping it already holds."""
    async with asyncio.timeout(10):
        while Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] not in ("T", "t"):
            await asyncio.sleep(0.01)


async def test_a_frozen_bus_keeps_its_connection_but_answers_no_round_trip(tmp_path: Path) -> None:
    """Why readiness flushes: a frozen server's connection still looks connected."""
    server = EmbeddedNats(tmp_path)
    url = await server.start()
    nc = await nats.connect(url, allow_reconnect=False)
    pid = int((tmp_path / "nats" / "nats-server.pid").read_text())
    try:
        await nc.flush(timeout=2)
        os.kill(pid, signal.SIGSTOP)
        try:
            await _stopped(pid)
            assert nc.is_connected
            with pytest.raises(nats.errors.TimeoutError):
                await nc.flush(timeout=1)
        finally:
            os.kill(pid, signal.SIGCONT)
    finally:
        await nc.close()
        server.stop()


async def test_readiness_is_503_while_the_bus_answers_no_round_trip(
    system: System, monkeypatch: pytest.MonkeyPatch
) -> None:
    connection = system.infra.broker.connection

    async def frozen(timeout: int = 10) -> None:
        raise nats.errors.TimeoutError

    monkeypatch.setattr(connection, "flush", frozen)
    answer = await system.client.get("/readyz")
    assert answer.status_code == 503
    assert answer.json()["bus"] == "down (TimeoutError)"
    assert "Retry-After" in answer.headers


async def test_a_request_that_cannot_get_a_connection_answers_503_at_once(
    system: System, monkeypatch: pytest.MonkeyPatch
) -> None:
    """M1: every connection held (as by statements hanging on a frozen Postgres): a request waits a
    bounded moment for one and answers 503 with Retry-After, never for the length of the freeze."""
    from memgw.common.db import pool as pools

    key = await system.user(f"m1_{uuid.uuid4().hex[:6]}")
    monkeypatch.setattr(pools, "ACQUIRE_TIMEOUT_S", 0.5)
    db = system.infra.pool
    held = []
    with contextlib.suppress(TimeoutError):  # every connection the system does not hold itself
        while len(held) < db.get_max_size():
            held.append(await db.acquire(timeout=1))
    try:
        started = asyncio.get_running_loop().time()
        answer = await system.client.get("/v1/memory", headers=system.auth(key))
        waited = asyncio.get_running_loop().time() - started
    finally:
        for conn in held:
            await db.release(conn)
    assert answer.status_code == 503, answer.text
    assert answer.headers["Retry-After"] == "5"
    assert waited < 20  # bounded by the acquire's timeout, not by how long the connections are held
    assert (await system.client.get("/v1/memory", headers=system.auth(key))).status_code == 200


async def test_a_message_nested_deeper_than_any_parser_follows_dies_at_once(system: System) -> None:
    """No retry can mend it: dead-lettered on its first delivery, never retried."""
    import structlog

    from memgw.common.bus import MSG_ID_HEADER, dead_letters
    from memgw.common.events import Subject

    infra = system.infra
    marker = f"deep-{uuid.uuid4().hex}"
    payload = ('{"marker": "' + marker + '", "x": ' + "[" * 100_000 + "]" * 100_000 + "}").encode()
    nc = await nats.connect(infra.nats_url)
    try:
        with structlog.testing.capture_logs() as logs:
            await nc.jetstream().publish(
                infra.layout.subject(Subject.SESSION_COMMITTED), payload, headers={MSG_ID_HEADER: marker}
            )
            async with asyncio.timeout(30):
                while not any(marker.encode() in d.data for d in await dead_letters(nc, infra.layout)):
                    await asyncio.sleep(0.1)
        assert not [line for line in logs if line["event"] == "bus.message.retry"]
        [dead] = [line for line in logs if line["event"] == "bus.message.dead_lettered"]
        assert dead["deliveries"] == 1
    finally:
        await nc.close()
