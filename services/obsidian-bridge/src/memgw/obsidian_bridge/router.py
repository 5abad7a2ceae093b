"""Bus subscribers of the Obsidian bridge: durable pull consumers on the MEMORY stream, so events
missed while the bridge was down are delivered when it is back."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import replace
from typing import Any

from faststream.nats import NatsBroker, NatsRouter
from nats.js.api import DeliverPolicy

from memgw.common.bus import BusLayout, durable_consumer, settling
from memgw.common.events import AccessChanged, MemoryChanged, ReviewRequested, ReviewSettled, Subject
from memgw.common.logging import correlation_scope
from memgw.obsidian_bridge.exporter import Exporter


def create_router(layout: BusLayout, broker: NatsBroker, exporter: Exporter) -> NatsRouter:
    router = NatsRouter(middlewares=[settling(layout, broker)])
    # A new consumer starts at the stream's end: a vault made now is filled by a full export instead.
    config = replace(layout.consumer_config(), deliver_policy=DeliverPolicy.NEW)

    def consume(subject: Subject, title: str) -> Callable[[Callable[..., Awaitable[Any]]], Any]:
        return durable_consumer(router, layout, subject, service="obsidian-bridge", title=title, config=config)

    @consume(Subject.MEMORY_CHANGED, "obsidian-bridge: MemoryChanged")
    async def on_memory(event: MemoryChanged) -> None:
        with correlation_scope(event.correlation_id):
            await exporter.memory_changed(event.memory_id)

    @consume(Subject.REVIEW_REQUESTED, "obsidian-bridge: ReviewRequested")
    async def on_review(event: ReviewRequested) -> None:
        with correlation_scope(event.correlation_id):
            await exporter.review_requested(event.review_id)

    @consume(Subject.REVIEW_SETTLED, "obsidian-bridge: ReviewSettled")
    async def on_settled(event: ReviewSettled) -> None:
        with correlation_scope(event.correlation_id):
            await exporter.review_settled(event)

    @router.subscriber(
        layout.subject(Subject.ACCESS_CHANGED),
        title="obsidian-bridge: AccessChanged",
        description="The user's vault (every vault, for a workspace's change) is brought in line with their rights.",
    )
    async def on_access(change: AccessChanged) -> None:
        # Core NATS, at most once: a lost one is made good by the next start's full check.
        with correlation_scope(change.correlation_id):
            await exporter.access_changed(change.user_id, change.workspace_id)

    return router
