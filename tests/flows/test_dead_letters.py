"""A message no consumer can take is dead-lettered by the one settling middleware — a payload that is
not its event at once, with a log line — and can be listed and replayed (`memgw dead`)."""

from __future__ import annotations

import asyncio
import json
import os
import sys
import uuid
from pathlib import Path
from typing import Any

import nats
import structlog.testing

from memgw.common.bus import MSG_ID_HEADER, DeadLetter, dead_letters, replay
from memgw.common.events import Subject
from tests.conftest import System


async def _dead_letter_for(nc: Any, system: System, marker: str) -> DeadLetter:
    async with asyncio.timeout(20):
        while True:
            for letter in await dead_letters(nc, system.infra.layout):
                if marker.encode() in letter.data:
                    return letter
            await asyncio.sleep(0.1)


async def test_a_poison_message_is_dead_lettered_at_once_and_can_be_replayed(system: System) -> None:
    infra = system.infra
    subject = infra.layout.subject(Subject.SESSION_COMMITTED)
    marker = f"poison-{uuid.uuid4().hex}"
    nc = await nats.connect(infra.nats_url)
    try:
        with structlog.testing.capture_logs() as logs:
            await infra.broker.publish(
                {"type": "SessionCommitted", "job_id": marker},  # no session, no user: not a SessionCommitted
                subject,
                headers={MSG_ID_HEADER: marker},
                stream=infra.layout.stream_of(Subject.SESSION_COMMITTED).name,
            )
            letter = await _dead_letter_for(nc, system, marker)
        assert letter.subject == subject
        assert letter.error.startswith("poison:")
        assert any(line["event"] == "bus.message.dead_lettered" and line["subject"] == subject for line in logs)

        # Run without blocking the loop: the gateway under test is served on it.
        command = await asyncio.create_subprocess_exec(
            str(Path(sys.executable).parent / "memgw"),
            "dead",
            "list",
            env={**os.environ, "MEMGW_NATS_URL": infra.nats_url, "MEMGW_BUS_PREFIX": infra.layout.prefix},
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
        )
        out, err = await command.communicate()
        assert command.returncode == 0, err.decode()
        listed = out.decode()
        assert f"{letter.seq}\t" in listed
        assert subject in listed

        arrived: list[bytes] = []

        async def seen(msg: Any) -> None:
            arrived.append(msg.data)

        watch = await nc.subscribe(subject, cb=seen)
        await replay(nc, infra.layout, letter.seq)
        again = await _dead_letter_for(nc, system, marker)  # still poison: it dies again, as a new letter
        await watch.unsubscribe()
        assert again.seq != letter.seq
        assert letter.seq not in [d.seq for d in await dead_letters(nc, infra.layout)]
        assert any(json.loads(data)["job_id"] == marker for data in arrived)
    finally:
        await nc.close()
