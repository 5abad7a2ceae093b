"""Bus subscribers of the consolidator: durable pull consumers on the MEMORY stream."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from faststream.nats import NatsBroker, NatsMessage, NatsRouter

from memgw.common.bus import BusLayout, durable_consumer, last_try, settling
from memgw.common.events import MemoryChanged, MemoryFeedbackGiven, ReviewDecided, SessionCommitted, Subject
from memgw.common.lanes import Lanes
from memgw.common.logging import correlation_scope
from memgw.consolidator.openviking_sync import OpenVikingSync
from memgw.consolidator.service import Consolidator


def create_router(
    layout: BusLayout,
    broker: NatsBroker,
    consolidator: Consolidator,
    openviking: OpenVikingSync | None = None,
    *,
    commit_workers: int = 1,
) -> NatsRouter:
    """Subscribers for ``layout``'s subjects; ``broker`` is where dead letters are published. With
    ``openviking``, memory changes are also carried to OpenViking (a consumer of its own).
    ``commit_workers`` commits are consolidated at once, one user's at a time."""
    router = NatsRouter(middlewares=[settling(layout, broker)])
    # One user's commits one at a time (in this process): the workers serve several users at once, and
    # no two commits of one user run against each other.
    lane = Lanes()

    def consume(
        subject: Subject, title: str, consumer: str = "consolidator", workers: int = 1
    ) -> Callable[[Callable[..., Awaitable[Any]]], Any]:
        return durable_consumer(router, layout, subject, service=consumer, title=title, workers=workers)

    @consume(Subject.SESSION_COMMITTED, "consolidator: SessionCommitted", workers=commit_workers)
    async def on_commit(event: SessionCommitted, msg: NatsMessage) -> None:
        with correlation_scope(event.correlation_id):
            async with lane(event.user_id):
                try:
                    await consolidator.on_session_committed(event)
                except Exception as exc:
                    if last_try(layout, msg, exc):  # its job says so at once
                        await consolidator.gave_up(event, exc)
                    raise

    @consume(Subject.MEMORY_FEEDBACK, "consolidator: MemoryFeedbackGiven")
    async def on_feedback(event: MemoryFeedbackGiven) -> None:
        with correlation_scope(event.correlation_id):
            await consolidator.on_feedback(event)

    @consume(Subject.REVIEW_DECIDED, "consolidator: ReviewDecided")
    async def on_review(event: ReviewDecided, msg: NatsMessage) -> None:
        with correlation_scope(event.correlation_id):
            try:
                await consolidator.on_review_decided(event)
            except Exception as exc:
                if last_try(layout, msg, exc):  # the person's note says so, and can be decided again
                    await consolidator.decision_failed(event, f"gave up: {str(exc)[:300]}")
                raise

    if openviking is not None:

        @consume(Subject.MEMORY_CHANGED, "consolidator: MemoryChanged → OpenViking", "openviking-sync")
        async def on_memory(event: MemoryChanged) -> None:
            with correlation_scope(event.correlation_id):
                await openviking.memory_changed(event.memory_id)

    return router
