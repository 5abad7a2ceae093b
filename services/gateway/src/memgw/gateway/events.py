"""Live sync progress for people: stage events from NATS, relayed to SSE and WebSocket listeners,
each listener seeing only the events of sources it may see (the policy's SOURCE_RUNS).

A listener keeps the key it came with, and its principal is resolved again every ``recheck_s``
seconds and at once when any gateway announces AccessChanged (a key revoked, a member gone, an
agent withdrawn): a stream whose key no longer answers, or whose rights changed, is closed with its
reason (the client reconnects with the rights it has now).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import OrderedDict
from collections.abc import AsyncIterator
from dataclasses import dataclass, field

import asyncpg
from faststream.nats import NatsRouter

from memgw.common import policy
from memgw.common.bus import BusLayout
from memgw.common.domain import Principal
from memgw.common.events import AccessChanged, MemorySyncStageChanged, Subject
from memgw.common.logging import get_logger
from memgw.gateway.identity import KeyRing, principal_for_key

log = get_logger("memgw.gateway.events")
QUEUE_SIZE = 1000
RECHECK_S = 30.0
REMEMBERED_EVENTS = 10_000  # ids of the events relayed last; a replay comes seconds after the first


def may_see(p: Principal, event: MemorySyncStageChanged) -> bool:
    source = policy.SourceRef(event.connection_id, event.owner_user_id, event.workspace_id)
    return policy.decide(p, policy.Action.SOURCE_RUNS, source).allowed


def _rights(p: Principal) -> tuple[object, ...]:
    return (p.user_id, p.agent_id, p.is_admin, p.workspace_ids, p.memory_sources)


GOING_AWAY = 1001  # WebSocket close code: the server is stopping (reconnect to another, or later)
ACCESS_LOST = 4403  # ours: the key's rights no longer allow this stream


@dataclass(frozen=True)
class StreamClosed:
    """The last thing a listener receives: why its stream ends (and the WebSocket close code)."""

    reason: str
    code: int = ACCESS_LOST


@dataclass(eq=False)
class Listener:
    principal: Principal
    secret: str
    source_id: str | None
    queue: asyncio.Queue[MemorySyncStageChanged | StreamClosed] = field(
        default_factory=lambda: asyncio.Queue(QUEUE_SIZE)
    )
    closed: bool = False

    def close(self, reason: str, code: int = ACCESS_LOST) -> None:
        if not self.closed:
            self.closed = True
            while True:  # make room: the reason must arrive even to a listener that fell behind
                try:
                    self.queue.put_nowait(StreamClosed(reason, code))
                    return
                except asyncio.QueueFull:
                    self.queue.get_nowait()


class StageRelay:
    def __init__(self, pool: asyncpg.Pool, recheck_s: float = RECHECK_S):
        self._pool = pool
        self.recheck_s = recheck_s
        self._listeners: set[Listener] = set()
        self._ticker: asyncio.Task[None] | None = None
        self._relayed: OrderedDict[str, None] = OrderedDict()

    def dispatch(self, event: MemorySyncStageChanged) -> None:
        """Hand a stage event to every listener that wants it and may see it, once.

        The outbox publishes at least once: a relay that dies between publishing a row and marking it
        leaves the row to another relay, which publishes it again with the same id. JetStream drops the
        copy from its streams (Nats-Msg-Id), but this relay's plain subscription receives every publish,
        so it is here that the copy is dropped, by the event's id."""
        if event.id in self._relayed:
            return
        self._relayed[event.id] = None
        if len(self._relayed) > REMEMBERED_EVENTS:
            self._relayed.popitem(last=False)
        for listener in list(self._listeners):
            wanted = listener.source_id is None or listener.source_id == event.connection_id
            if wanted and not listener.closed and may_see(listener.principal, event):
                with contextlib.suppress(asyncio.QueueFull):  # a listener that does not read loses events
                    listener.queue.put_nowait(event)

    async def _tick(self) -> None:
        while True:
            await asyncio.sleep(self.recheck_s)
            try:
                await self.recheck()
            except Exception as exc:  # the next tick tries again
                log.warning("events.recheck_failed", error=str(exc))

    async def recheck(self, user_id: str | None = None) -> None:
        """Resolve the listeners' principals again (of one user, or all); close what no longer holds."""
        for listener in list(self._listeners):
            if listener.closed or (user_id is not None and listener.principal.user_id != user_id):
                continue
            principal = await principal_for_key(self._pool, listener.secret)
            if principal is None:
                listener.close("the key was revoked or its user disabled")
            elif _rights(principal) != _rights(listener.principal):
                listener.close("this key's access changed (workspaces or source scope); reconnect to go on")

    @contextlib.asynccontextmanager
    async def listen(self, p: Principal, secret: str, source_id: str | None = None) -> AsyncIterator[Listener]:
        if self._ticker is None:
            self._ticker = asyncio.create_task(self._tick(), name="stage-relay-recheck")
        listener = Listener(p, secret, source_id)
        self._listeners.add(listener)
        try:
            yield listener
        finally:
            self._listeners.discard(listener)

    async def close(self) -> None:
        """End every stream, saying why: called the moment a stop is asked, so that the server's
        graceful shutdown finds them finished rather than cancelling them."""
        if self._ticker is not None:
            self._ticker.cancel()
        for listener in list(self._listeners):
            listener.close("the gateway is shutting down", GOING_AWAY)


def relay_router(layout: BusLayout, relay: StageRelay, keys: KeyRing) -> NatsRouter:
    """The gateway's consumers: plain NATS subscriptions (every gateway sees every event; nothing to
    settle: a lost stage event costs a listener one progress line, and a lost AccessChanged the next
    periodic re-check catches)."""
    router = NatsRouter()

    @router.subscriber(
        layout.subject(Subject.SYNC_STAGE),
        title="gateway: MemorySyncStageChanged",
        description="Relayed to the SSE and WebSocket listeners who may see the source.",
    )
    async def on_stage(event: MemorySyncStageChanged) -> None:
        relay.dispatch(event)

    @router.subscriber(
        layout.subject(Subject.ACCESS_CHANGED),
        title="gateway: AccessChanged",
        description="Keys' principals are resolved again, and live streams of that user check their rights at once.",
    )
    async def on_access_changed(change: AccessChanged) -> None:
        keys.forget()
        await relay.recheck(change.user_id)

    return router
