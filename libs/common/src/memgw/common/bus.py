"""The bus layout (subjects and JetStream streams under one prefix) and how messages are settled.

One install owns one prefix: ``{prefix}.sync.requested`` and so on, streams ``{PREFIX}_SYNC`` ...
Tests take a random prefix, so parallel runs on one NATS server never see each other's messages.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass

import nats.js.api as js_api
from faststream.nats import JStream, NatsBroker, NatsMessage, PullSub, RetentionPolicy
from nats.aio.client import Client as NatsClient
from nats.js.errors import NotFoundError

from memgw.common.events import Event, Subject
from memgw.common.logging import CORRELATION_HEADER, get_logger

log = get_logger("memgw.bus")

MSG_ID_HEADER = "Nats-Msg-Id"  # JetStream de-duplicates on it inside the stream's window
_PREFIX_RE = re.compile(r"^[A-Za-z][A-Za-z0-9_-]{0,31}$")

# Which stream holds which subjects, and how long it keeps them.
_STREAMS: dict[str, tuple[tuple[Subject, ...], RetentionPolicy, float, float]] = {
    # name: (subjects, retention, max_age seconds, duplicate window seconds)
    "SYNC": ((Subject.SYNC_REQUESTED,), RetentionPolicy.WORK_QUEUE, 7 * 86400, 20 * 60),
    "EVENTS": ((Subject.SYNC_STAGE,), RetentionPolicy.LIMITS, 7 * 86400, 120),
    "MEMORY": (
        (
            Subject.SESSION_COMMITTED,
            Subject.MEMORY_CHANGED,
            Subject.MEMORY_FEEDBACK,
            Subject.REVIEW_REQUESTED,
            Subject.REVIEW_DECIDED,
        ),
        RetentionPolicy.LIMITS,
        30 * 86400,
        600,
    ),
    "DEAD": ((Subject.DEAD_LETTER,), RetentionPolicy.LIMITS, 30 * 86400, 120),
}


@dataclass(frozen=True)
class BusLayout:
    prefix: str = "memgw"
    ack_wait_s: float = 30.0
    max_deliver: int = 5

    def __post_init__(self) -> None:
        if not _PREFIX_RE.match(self.prefix):
            raise ValueError(f"bus prefix {self.prefix!r} must be a letter then letters, digits, _ or -")

    def subject(self, subject: Subject) -> str:
        if subject is Subject.DEAD_LETTER:
            return f"{self.prefix}.{subject.value}.>"
        return f"{self.prefix}.{subject.value}"

    def dead_letter_subject(self, original: str) -> str:
        return f"{self.prefix}.{Subject.DEAD_LETTER.value}.{original}"

    def stream_name(self, key: str) -> str:
        return f"{self.prefix.upper().replace('-', '_')}_{key}"

    def stream_names(self) -> list[str]:
        return [self.stream_name(key) for key in _STREAMS]

    def stream_of(self, subject: Subject) -> JStream:
        for key, (subjects, retention, max_age, dup) in _STREAMS.items():
            if subject in subjects:
                return JStream(
                    self.stream_name(key),
                    subjects=[self.subject(s) for s in subjects],
                    retention=retention,
                    max_age=max_age,
                    duplicate_window=dup,
                    declare=False,  # declared once by ensure_streams, with the full config
                )
        raise KeyError(subject)

    def durable_name(self, service: str, subject: Subject) -> str:
        return f"{self.prefix}-{service}-{subject.value.replace('.', '-')}"

    def pull_subscription(self) -> PullSub:
        """One message at a time: a long sync must not hold others hostage in a batch."""
        return PullSub(batch_size=1, timeout=1.0)

    def consumer_config(self) -> js_api.ConsumerConfig:
        return js_api.ConsumerConfig(
            ack_policy=js_api.AckPolicy.EXPLICIT,
            ack_wait=self.ack_wait_s,
            max_deliver=self.max_deliver + 1,  # one extra delivery lets settle() dead-letter it
        )


async def ensure_streams(nc: NatsClient, layout: BusLayout) -> None:
    """Create or update every stream of the layout; safe to run from several replicas at once."""
    js = nc.jetstream()
    for key, (subjects, retention, max_age, dup) in _STREAMS.items():
        config = js_api.StreamConfig(
            name=layout.stream_name(key),
            subjects=[layout.subject(s) for s in subjects],
            retention=js_api.RetentionPolicy(retention.value),
            max_age=max_age,
            duplicate_window=dup,
            storage=js_api.StorageType.FILE,
        )
        try:
            await js.stream_info(config.name or "")
            await js.update_stream(config)
        except NotFoundError:
            try:
                await js.add_stream(config)
            except Exception:  # another replica won the race; make sure it exists now
                await js.stream_info(config.name or "")


async def delete_streams(nc: NatsClient, layout: BusLayout) -> None:
    """Remove the layout's streams (tests clean up their own prefix)."""
    js = nc.jetstream()
    for key in _STREAMS:
        with contextlib.suppress(NotFoundError):
            await js.delete_stream(layout.stream_name(key))


def event_headers(event: Event) -> dict[str, str]:
    headers = {MSG_ID_HEADER: event.id}
    if event.correlation_id:
        headers[CORRELATION_HEADER] = event.correlation_id
    return headers


def _backoff(delivery: int) -> float:
    return float(min(60, 2 ** max(0, delivery - 1)))


@asynccontextmanager
async def settle(msg: NatsMessage, broker: NatsBroker, layout: BusLayout) -> AsyncIterator[None]:
    """Ack on success; on error nack with backoff, and after ``max_deliver`` tries park the message
    on the dead-letter subject and terminate it, so one poison message never blocks a consumer."""
    raw = msg.raw_message
    delivered = raw.metadata.num_delivered if raw.metadata else 1
    try:
        yield
    except asyncio.CancelledError:
        # Shutting down mid-message: leave it unacked so another replica gets it after ack_wait.
        raise
    except Exception as exc:
        if delivered >= layout.max_deliver:
            log.error("bus.message.dead_lettered", subject=raw.subject, deliveries=delivered, error=str(exc))
            await broker.publish(
                raw.data,
                layout.dead_letter_subject(raw.subject),
                headers={**(raw.headers or {}), "X-Error": str(exc)[:500]},
                stream=layout.stream_name("DEAD"),
            )
            await msg.reject()
        else:
            log.warning("bus.message.retry", subject=raw.subject, deliveries=delivered, error=str(exc))
            await msg.nack(delay=_backoff(delivered))
    else:
        await msg.ack()


def keep_alive(msg: NatsMessage, every_s: float) -> Callable[[], Awaitable[None]]:
    """Return a callable that tells JetStream the message is still being worked on (long syncs)."""
    loop = asyncio.get_running_loop()
    last = loop.time()

    async def touch() -> None:
        nonlocal last
        if loop.time() - last >= every_s:
            last = loop.time()
            await msg.in_progress()

    return touch
