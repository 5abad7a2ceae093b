"""Transactional outbox: an event is written in the same transaction as the change that caused it,
and a relay publishes it to JetStream after commit.

So no event is published for a write that rolled back, and none is lost while NATS is away: rows
stay pending and the relay retries for as long as the outage lasts, backing off up to ``MAX_BACKOFF_S``
between tries (a write's wake-up does not cut a backoff short). Only a row the bus itself refuses (not
an outage: too large, a bad subject) counts its attempts, and after ``MAX_ATTEMPTS`` waits for a person
with its last error; the age of the oldest pending row is on ``/readyz`` and ``/metrics``.

The event id doubles as ``Nats-Msg-Id``, so a row published twice
(a relay crash between publish and mark) is dropped by JetStream's de-duplication window; a plain
subscriber sees both publishes and drops the copy by the event id itself (the gateway's stage relay).
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Sequence

import asyncpg
from faststream.nats import NatsBroker

from memgw.common.bus import BusLayout, event_headers
from memgw.common.db.pool import Conn
from memgw.common.events import SUBJECT_OF, Event
from memgw.common.logging import current_correlation_id, get_logger
from memgw.common.outages import is_transient

log = get_logger("memgw.outbox")
NOTIFY_CHANNEL = "memgw_outbox"
MAX_ATTEMPTS = 50  # refusals of one row by the bus itself (an outage counts none)
MAX_BACKOFF_S = 30.0
KEPT_S = 86_400  # how long a published row stays (a person tracing an event reads it there)
PRUNE_EVERY_S = 60.0  # rows past KEPT_S go at most this often: not a statement on every batch


async def enqueue(conn: Conn, layout: BusLayout, event: Event) -> None:
    """Record ``event`` for publication; call inside the transaction of the change it announces."""
    await enqueue_many(conn, layout, [event])


async def enqueue_many(conn: Conn, layout: BusLayout, events: Sequence[Event]) -> None:
    """Record ``events`` for publication, in this order, in one statement however many there are (the
    relay's wake-up included: a notification is delivered only when the transaction commits)."""
    if not events:
        return
    cid = current_correlation_id()
    if cid:
        events = [e if e.correlation_id else e.model_copy(update={"correlation_id": cid}) for e in events]
    subjects = [SUBJECT_OF[type(e)] for e in events]
    await conn.execute(
        "WITH queued AS (INSERT INTO outbox (subject, stream, msg_id, payload, headers)"
        " SELECT s, t, m, p, h FROM unnest($1::text[], $2::text[], $3::text[], $4::jsonb[], $5::jsonb[])"
        " WITH ORDINALITY AS e(s, t, m, p, h, ord) ORDER BY e.ord"  # published in the order given
        f" RETURNING 1) SELECT pg_notify('{NOTIFY_CHANNEL}', '') FROM queued LIMIT 1",
        [layout.subject(s) for s in subjects],
        [layout.stream_name_of(s) for s in subjects],
        [e.id for e in events],
        [e.model_dump(mode="json") for e in events],
        [event_headers(e) for e in events],
    )


class OutboxRelay:
    """Publishes pending outbox rows in order; several relays may run (rows are locked, skipped)."""

    def __init__(
        self,
        pool: asyncpg.Pool,
        broker: NatsBroker,
        layout: BusLayout,
        *,
        batch: int = 200,
        poll_s: float = 1.0,
        settle_s: float = 0.02,
    ):
        self._pool = pool
        self._broker = broker
        self._streams = layout.stream_names()
        self._batch = batch
        self._poll_s = poll_s
        self._settle_s = settle_s
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._listener: Conn | None = None
        self._pruned_at = -PRUNE_EVERY_S  # monotonic seconds: the first batch prunes

    async def start(self) -> None:
        await self._listen()
        self._task = asyncio.create_task(self._run(), name="outbox-relay")

    async def _listen(self) -> None:
        """(Re)open the LISTEN connection: after Postgres went away, notifications come back too (the
        poll covers the gap meanwhile)."""
        if self._listening():
            return
        if self._listener is not None:
            with contextlib.suppress(Exception):
                await self._pool.release(self._listener)  # type: ignore[arg-type]
            self._listener = None
        listener = await self._pool.acquire()
        await listener.add_listener(NOTIFY_CHANNEL, self._on_notify)
        listener.add_termination_listener(self._on_notify)  # a dropped connection wakes the loop to reopen it
        self._listener = listener

    async def stop(self) -> None:
        if self._task:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        if self._listener is not None:
            with contextlib.suppress(Exception):  # a connection the pool took back already is let go
                await self._listener.remove_listener(NOTIFY_CHANNEL, self._on_notify)
                await self._pool.release(self._listener)  # type: ignore[arg-type]
            self._listener = None

    def _listening(self) -> bool:
        try:
            return self._listener is not None and not self._listener.is_closed()
        except asyncpg.InterfaceError:  # the pool took back a connection whose server went away
            return False

    def _on_notify(self, *_: object) -> None:
        self._wake.set()

    async def _run(self) -> None:
        failures = 0
        while True:
            self._wake.clear()  # before looking: a commit notified while we publish wakes the next wait
            try:
                await self._listen()
                published = await self.publish_pending()
                failures = 0
                if published == self._batch:
                    continue  # a full batch: there may be more (rows committed meanwhile woke us anyway)
            except Exception as exc:  # NATS away or Postgres hiccup: wait and retry, never lose rows
                failures += 1
                log.warning("outbox.publish.failed", error=str(exc), failures=failures)
                # The whole backoff: a write committed meanwhile wakes nothing (its row waits with the rest).
                await asyncio.sleep(min(MAX_BACKOFF_S, self._poll_s * (2**failures)))
                continue
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), timeout=self._poll_s)
                # Woken by a commit whose writer is still at work: it indexes and answers next, on
                # this same loop. Relaying at once would put this batch's round trips between its write
                # and its index step; a moment later they go after its answer, with whatever else
                # committed meanwhile in one batch.
                await asyncio.sleep(self._settle_s)

    async def publish_pending(self) -> int:
        """Publish one batch; return how many rows went out. Rows published before a failure are
        marked in the same commit, then the failure is raised so the loop backs off."""
        error: Exception | None = None
        async with self._pool.acquire() as conn, conn.transaction():
            # Only this install's streams (installs may share a database), and never a row that kept
            # failing: after MAX_ATTEMPTS it stays in the table with its last error, for a person.
            rows = await conn.fetch(
                "SELECT id, subject, stream, payload, headers FROM outbox WHERE published_at IS NULL"
                " AND stream = ANY($2::text[]) AND attempts < $3 ORDER BY id LIMIT $1 FOR UPDATE SKIP LOCKED",
                self._batch,
                self._streams,
                MAX_ATTEMPTS,
            )
            sent: list[int] = []
            for row in rows:
                try:
                    await self._broker.publish(
                        row["payload"], row["subject"], headers=row["headers"], stream=row["stream"], timeout=5.0
                    )
                except Exception as exc:
                    error = exc
                    await conn.execute(
                        "UPDATE outbox SET attempts = attempts + $3, last_error = $2 WHERE id = $1",
                        row["id"],
                        str(exc)[:500],
                        0 if is_transient(exc) else 1,  # an outage is no fault of the row's
                    )
                    break
                sent.append(row["id"])
            if sent:
                await conn.execute("UPDATE outbox SET published_at = now() WHERE id = ANY($1)", sent)
            if time.monotonic() - self._pruned_at >= PRUNE_EVERY_S:
                await conn.execute("DELETE FROM outbox WHERE published_at < now() - make_interval(secs => $1)", KEPT_S)
                self._pruned_at = time.monotonic()
        if error is not None:
            raise error
        return len(sent)


async def oldest_pending_age_s(db: Conn | asyncpg.Pool, layout: BusLayout) -> float:
    """Seconds the oldest unpublished row of this install has waited (0 when none waits)."""
    age = await db.fetchval(
        "SELECT coalesce(extract(epoch FROM now() - min(created_at)), 0) FROM outbox"
        " WHERE published_at IS NULL AND stream = ANY($1::text[])",
        layout.stream_names(),
    )
    return float(age)
