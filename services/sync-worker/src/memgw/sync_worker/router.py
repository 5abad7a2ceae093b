"""Bus subscribers of the sync-worker: a durable pull consumer on the SYNC work queue, shared by
every replica (each request goes to one of them)."""

from __future__ import annotations

from faststream.nats import NatsBroker, NatsMessage, NatsRouter

from memgw.common.bus import BusLayout, durable_consumer, last_try, settling
from memgw.common.events import SourceItemsAnswer, SourceItemsRequested, Subject, SyncRequested
from memgw.common.logging import CORRELATION_HEADER, correlation_scope
from memgw.sync_worker.service import SyncService


def create_router(layout: BusLayout, broker: NatsBroker, service: SyncService) -> NatsRouter:
    """The SYNC work queue; ``broker`` is where dead letters are published."""
    router = NatsRouter(middlewares=[settling(layout, broker)])

    @durable_consumer(
        router,
        layout,
        Subject.SYNC_REQUESTED,
        service="sync-worker",
        title="sync-worker: SyncRequested",
        description="Runs one memory-source sync: list, read, chunk, embed, ingest.",
    )
    async def on_sync_requested(event: SyncRequested, msg: NatsMessage) -> None:
        with correlation_scope(event.correlation_id or (msg.headers or {}).get(CORRELATION_HEADER)):
            await service.handle(event, gives_up=lambda exc: last_try(layout, msg, exc))

    return router


def create_rpc_router(layout: BusLayout, service: SyncService) -> NatsRouter:
    """Request-reply on core NATS, queue group ``sync-worker``: one replica answers each request."""
    router = NatsRouter()

    @router.subscriber(layout.subject(Subject.SOURCE_LIST_ITEMS), queue="sync-worker", title="list a source's items")
    async def on_list_items(request: SourceItemsRequested) -> SourceItemsAnswer:
        with correlation_scope(request.correlation_id):
            return await service.preview(request)

    @router.subscriber(layout.subject(Subject.SOURCE_READ_ITEM), queue="sync-worker", title="read one item")
    async def on_read_item(request: SourceItemsRequested) -> SourceItemsAnswer:
        with correlation_scope(request.correlation_id):
            return await service.preview(request)

    return router
