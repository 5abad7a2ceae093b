"""Each service's bus router in faststream's in-memory broker (no NATS): the subjects it listens to,
the events it takes (typed, validated), and what it calls. The same routers run on real JetStream in
the flow tests."""

from __future__ import annotations

from typing import Any

import pytest
from faststream.nats import NatsBroker, TestNatsBroker

from memgw.common.bus import BusLayout
from memgw.common.events import (
    MemoryFeedbackGiven,
    ReviewDecided,
    SessionCommitted,
    SourceItemsAnswer,
    SourceItemsRequested,
    Subject,
    SyncRequested,
)
from memgw.consolidator.router import create_router as consolidator_router
from memgw.sync_worker.router import create_router as sync_router
from memgw.sync_worker.router import create_rpc_router

pytestmark = pytest.mark.unit
LAYOUT = BusLayout("unit")


class Recorder:
    """Stands in for a service: records what the router hands it."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, Any]] = []

    def __getattr__(self, name: str) -> Any:
        async def record(event: Any, *args: Any, **kwargs: Any) -> Any:
            self.calls.append((name, event))
            if name == "preview":
                return SourceItemsAnswer(ok=True, items=[{"id": "a.md"}])
            return None

        return record


async def test_the_consolidator_router_hands_each_event_to_its_handler() -> None:
    service = Recorder()
    broker = NatsBroker()
    broker.include_router(consolidator_router(LAYOUT, broker, service))  # type: ignore[arg-type]
    events = [
        (Subject.SESSION_COMMITTED, SessionCommitted(job_id="j", session_id="s", user_id="u"), "on_session_committed"),
        (Subject.MEMORY_FEEDBACK, MemoryFeedbackGiven(memory_id="m", user_id="u", feedback="useful"), "on_feedback"),
        (
            Subject.REVIEW_DECIDED,
            ReviewDecided(review_id="r", decision="keep_old", decided_by="u"),
            "on_review_decided",
        ),
    ]
    async with TestNatsBroker(broker) as test:
        for subject, event, _ in events:
            await test.publish(
                event.model_dump(mode="json"), LAYOUT.subject(subject), stream=LAYOUT.stream_of(subject).name
            )
    assert [(name, type(e)) for name, e in service.calls] == [(h, type(e)) for _, e, h in events]


async def test_the_sync_worker_routers_run_syncs_and_answer_previews() -> None:
    service = Recorder()
    broker = NatsBroker()
    broker.include_router(sync_router(LAYOUT, broker, service))  # type: ignore[arg-type]
    broker.include_router(create_rpc_router(LAYOUT, service))  # type: ignore[arg-type]
    request = SyncRequested(run_id="run1", source_id="src", owner_user_id="u")
    async with TestNatsBroker(broker) as test:
        await test.publish(
            request.model_dump(mode="json"),
            LAYOUT.subject(Subject.SYNC_REQUESTED),
            stream=LAYOUT.stream_of(Subject.SYNC_REQUESTED).name,
        )
        reply = await test.request(
            SourceItemsRequested(source_id="src").model_dump(mode="json"), LAYOUT.subject(Subject.SOURCE_LIST_ITEMS)
        )
    assert [name for name, _ in service.calls] == ["handle", "preview"]
    assert service.calls[0][1].run_id == "run1"
    assert SourceItemsAnswer.model_validate_json(reply.body).items == [{"id": "a.md"}]
