"""The bus layout (subjects and JetStream streams under one prefix) and how messages are settled.

One install owns one prefix: ``{prefix}.sync.requested`` and so on, streams ``{PREFIX}_SYNC`` ...
Tests take a random prefix, so parallel runs on one NATS server never see each other's messages.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
import uuid
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import nats.js.api as js_api
from faststream.middlewares import AckPolicy, BaseMiddleware
from faststream.nats import JStream, NatsBroker, NatsRouter, PullSub, RetentionPolicy
from nats.aio.client import Client as NatsClient
from nats.errors import NotJSMessageError
from nats.js.errors import NotFoundError
from pydantic import ValidationError

from memgw.common.events import Event, Subject
from memgw.common.logging import CORRELATION_HEADER, get_logger
from memgw.common.outages import is_transient

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
            Subject.REVIEW_SETTLED,
        ),
        RetentionPolicy.LIMITS,
        30 * 86400,
        600,
    ),
    "DEAD": ((Subject.DEAD_LETTER,), RetentionPolicy.LIMITS, 30 * 86400, 120),
}
_STREAM_OF = {subject: key for key, (subjects, *_) in _STREAMS.items() for subject in subjects}


@dataclass(frozen=True)
class BusLayout:
    prefix: str = "memgw"
    ack_wait_s: float = 30.0
    max_deliver: int = 5
    replicas: int = 1  # copies of each stream (a NATS cluster)

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

    def stream_name_of(self, subject: Subject) -> str:
        """The name of the stream that holds ``subject`` (what the outbox writes per event)."""
        return self.stream_name(_STREAM_OF[subject])

    def stream_of(self, subject: Subject) -> JStream:
        key = _STREAM_OF[subject]
        subjects, retention, max_age, dup = _STREAMS[key]
        return JStream(
            self.stream_name(key),
            subjects=[self.subject(s) for s in subjects],
            retention=retention,
            max_age=max_age,
            duplicate_window=dup,
            declare=False,  # declared once by ensure_streams, with the full config
        )

    def durable_name(self, service: str, subject: Subject) -> str:
        return f"{self.prefix}-{service}-{subject.value.replace('.', '-')}"

    def pull_subscription(self) -> PullSub:
        """One message at a time: a long sync must not hold others hostage in a batch."""
        return PullSub(batch_size=1, timeout=1.0)

    def consumer_config(self) -> js_api.ConsumerConfig:
        return js_api.ConsumerConfig(
            ack_policy=js_api.AckPolicy.EXPLICIT,
            ack_wait=self.ack_wait_s,
            # Unlimited: the settling middleware decides when a message dies. JetStream's own limit
            # would silently stop redelivering a message whose handler waited out a long outage.
            max_deliver=-1,
        )


Handler = Callable[..., Awaitable[Any]]


def durable_consumer(
    router: NatsRouter,
    layout: BusLayout,
    subject: Subject,
    *,
    service: str,
    title: str,
    description: str | None = None,
    config: js_api.ConsumerConfig | None = None,
    workers: int | None = None,
) -> Callable[[Handler], Any]:
    """The one shape of a JetStream work consumer: durable, pulled one message at a time, and settled
    only by ``settling`` (which ``router`` must carry). ``workers`` handle messages at once, where
    the handler is safe for that."""
    return router.subscriber(
        layout.subject(subject),
        stream=layout.stream_of(subject),
        durable=layout.durable_name(service, subject),
        pull_sub=layout.pull_subscription(),
        config=config or layout.consumer_config(),
        ack_policy=AckPolicy.MANUAL,
        title=title,
        description=description,
        max_workers=workers,
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
            num_replicas=layout.replicas,
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


class PoisonMessage(Exception):
    """A handler's way to say: this message can never succeed; dead-letter it now, do not retry."""


# What no retry can mend: a payload that is not the event it claims to be (or nested deeper than any
# parser follows).
_POISON = (ValidationError, json.JSONDecodeError, UnicodeDecodeError, RecursionError, PoisonMessage)


def deliveries(msg: Any) -> int | None:
    """How many times JetStream delivered this message (1 = the first time); None for a message that
    did not come from JetStream (core NATS request-reply, the in-memory test broker)."""
    try:
        metadata = msg.raw_message.metadata
    except (AttributeError, NotJSMessageError):
        return None
    return int(metadata.num_delivered or 1)


def last_try(layout: BusLayout, msg: Any, exc: BaseException) -> bool:
    """Whether this failure is the message's last: the settling middleware dead-letters it now, so
    its run or job must say so. An outage of Postgres or NATS never is: the bus waits it out."""
    return not is_transient(exc) and (deliveries(msg) or 1) >= layout.max_deliver


def settling(layout: BusLayout, broker: NatsBroker) -> type[BaseMiddleware]:
    """The one way a JetStream message is settled, as a faststream middleware of every consumer
    (subscribers declare ``AckPolicy.MANUAL``, so this is the only acknowledgement):

    - the handler returned: ack;
    - the payload does not validate (or the handler raised PoisonMessage): dead-letter at once;
    - Postgres or NATS is down (``outages.is_transient``): nack with backoff, for as long as the
      outage lasts — the work was sound, so it is never dead-lettered for that;
    - anything else: nack with exponential backoff, and dead-letter once it has failed
      ``max_deliver`` times;
    - cancelled (shutting down mid-message): left unacked, so another replica gets it after ack_wait;
    - while the handler works, JetStream is told it is in progress every third of ack_wait, so a long
      sync or a slow embedder (a loaded machine) never makes a second replica take the same message.

    A dead letter keeps the payload and the original headers, and says where it came from and why
    (``X-Dead-Subject``, ``X-Error``); ``memgw dead list|replay`` shows and resends them."""

    class Settle(BaseMiddleware):
        async def consume_scope(self, call_next: Any, msg: Any) -> Any:
            raw = msg.raw_message
            delivered = deliveries(msg)
            if delivered is None:  # not from JetStream: nothing to settle
                return await call_next(msg)
            beat = asyncio.create_task(_heartbeat(msg, max(0.2, layout.ack_wait_s / 3)))
            try:
                result = await call_next(msg)
            except asyncio.CancelledError:
                raise
            except _POISON as exc:
                await _dead_letter(layout, broker, msg, f"poison: {exc}", delivered)
                return None
            except Exception as exc:
                if is_transient(exc):
                    log.warning("bus.message.outage", subject=raw.subject, deliveries=delivered, error=str(exc))
                    with contextlib.suppress(Exception):  # NATS may be what is down: redelivered after ack_wait
                        await msg.nack(delay=_backoff(delivered))
                elif last_try(layout, msg, exc):
                    await _dead_letter(layout, broker, msg, str(exc), delivered)
                else:
                    log.warning("bus.message.retry", subject=raw.subject, deliveries=delivered, error=str(exc))
                    await msg.nack(delay=_backoff(delivered))
                return None
            finally:
                beat.cancel()
            await msg.ack()
            return result

    return Settle


async def _heartbeat(msg: Any, every_s: float) -> None:
    while True:
        await asyncio.sleep(every_s)
        with contextlib.suppress(Exception):  # a beat lost is made up by the next
            await msg.in_progress()


async def _dead_letter(layout: BusLayout, broker: NatsBroker, msg: Any, why: str, delivered: int) -> None:
    raw = msg.raw_message
    log.error("bus.message.dead_lettered", subject=raw.subject, deliveries=delivered, error=why[:500])
    headers = {**(raw.headers or {}), "X-Dead-Subject": raw.subject, "X-Error": why[:500]}
    headers.pop(MSG_ID_HEADER, None)  # the stream's de-duplication must not swallow a second failure
    await broker.publish(
        raw.data, layout.dead_letter_subject(raw.subject), headers=headers, stream=layout.stream_name("DEAD")
    )
    await msg.reject()


@dataclass(frozen=True)
class DeadLetter:
    seq: int
    subject: str  # where it was first published
    error: str
    time: datetime
    data: bytes


async def dead_letters(nc: NatsClient, layout: BusLayout, limit: int = 1000) -> list[DeadLetter]:
    """The dead letters of this install, oldest first (read, not consumed)."""
    js = nc.jetstream()
    stream = layout.stream_name("DEAD")
    info = await js.stream_info(stream)
    found: list[DeadLetter] = []
    seq = info.state.first_seq
    while seq and seq <= info.state.last_seq and len(found) < limit:
        with contextlib.suppress(NotFoundError):  # a gap: deleted after a replay
            found.append(await _dead_letter_at(js, stream, seq))
        seq += 1
    return found


async def _dead_letter_at(js: Any, stream: str, seq: int) -> DeadLetter:
    raw = await js.get_msg(stream, seq)
    headers = raw.headers or {}
    return DeadLetter(
        seq=seq,
        subject=headers.get("X-Dead-Subject", (raw.subject or "").split(f".{Subject.DEAD_LETTER.value}.", 1)[-1]),
        error=headers.get("X-Error", ""),
        time=raw.time if isinstance(raw.time, datetime) else datetime.now(UTC),
        data=raw.data or b"",
    )


async def replay(nc: NatsClient, layout: BusLayout, seq: int) -> DeadLetter:
    """Publish a dead letter again on its own subject (a new message id) and remove it."""
    js = nc.jetstream()
    stream = layout.stream_name("DEAD")
    try:
        letter = await _dead_letter_at(js, stream, seq)
    except NotFoundError as exc:
        raise KeyError(f"no dead letter {seq}") from exc
    await js.publish(letter.subject, letter.data, headers={MSG_ID_HEADER: f"replay-{seq}-{uuid.uuid4().hex}"})
    await js.delete_msg(stream, seq)
    log.info("bus.message.replayed", seq=seq, subject=letter.subject)
    return letter
