"""Live sync progress for people: stage events from NATS, relayed to SSE and WebSocket listeners,
each listener seeing only the events of sources it may see."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from typing import Any

from memgw.common.domain import Principal
from memgw.common.events import MemorySyncStageChanged, Subject
from memgw.common.logging import get_logger
from memgw.common.runtime import Infra

log = get_logger("memgw.gateway.events")
QUEUE_SIZE = 1000


def may_see(p: Principal, event: MemorySyncStageChanged) -> bool:
    if p.memory_sources is not None and event.connection_id not in p.memory_sources:
        return False
    return p.is_admin or event.owner_user_id == p.user_id or event.workspace_id in p.workspace_ids


class StageRelay:
    def __init__(self, infra: Infra):
        self._infra = infra
        self._listeners: dict[asyncio.Queue[MemorySyncStageChanged], tuple[Principal, str | None]] = {}
        self._subscription: Any = None
        self._lock = asyncio.Lock()

    async def _ensure_subscribed(self) -> None:
        async with self._lock:
            if self._subscription is None:
                subject = self._infra.layout.subject(Subject.SYNC_STAGE)
                self._subscription = await self._infra.broker.connection.subscribe(subject, cb=self._on_message)

    async def _on_message(self, msg: Any) -> None:
        try:
            event = MemorySyncStageChanged.model_validate_json(msg.data)
        except ValueError:
            log.warning("events.unreadable", subject=msg.subject)
            return
        for queue, (principal, source_id) in list(self._listeners.items()):
            if (source_id is None or source_id == event.connection_id) and may_see(principal, event):
                with contextlib.suppress(asyncio.QueueFull):  # a listener that does not read loses events
                    queue.put_nowait(event)

    @contextlib.asynccontextmanager
    async def listen(
        self, p: Principal, source_id: str | None = None
    ) -> AsyncIterator[asyncio.Queue[MemorySyncStageChanged]]:
        await self._ensure_subscribed()
        queue: asyncio.Queue[MemorySyncStageChanged] = asyncio.Queue(QUEUE_SIZE)
        self._listeners[queue] = (p, source_id)
        try:
            yield queue
        finally:
            self._listeners.pop(queue, None)
