from __future__ import annotations

import pytest

from memgw.common.bus import BusLayout
from memgw.common.events import (
    ANY_EVENT,
    SUBJECT_OF,
    MemorySyncStageChanged,
    SessionCommitted,
    Subject,
    SyncCounts,
    SyncStage,
)

pytestmark = pytest.mark.unit


def test_every_event_round_trips_through_the_discriminated_union() -> None:
    event = MemorySyncStageChanged(
        run_id="run_1",
        connection_id="notes",
        owner_user_id="u",
        stage=SyncStage.INGESTING,
        counts=SyncCounts(items_seen=3, chunks=7),
    )
    parsed = ANY_EVENT.validate_json(event.model_dump_json())
    assert parsed == event
    assert parsed.type == "MemorySyncStageChanged"


def test_every_event_type_has_a_subject_and_a_stream() -> None:
    layout = BusLayout("mg")
    for event_type, subject in SUBJECT_OF.items():
        stream = layout.stream_of(subject)
        assert layout.subject(subject) in stream.subjects, event_type


def test_subjects_and_streams_carry_the_install_prefix() -> None:
    layout = BusLayout("t123")
    assert layout.subject(Subject.SESSION_COMMITTED) == "t123.session.committed"
    assert layout.stream_of(Subject.SYNC_REQUESTED).name == "T123_SYNC"
    assert layout.dead_letter_subject("t123.sync.requested") == "t123.dead.t123.sync.requested"


@pytest.mark.parametrize("prefix", ["", "a.b", "has space", "1abc", "x" * 40])
def test_a_prefix_that_would_break_subjects_is_refused(prefix: str) -> None:
    with pytest.raises(ValueError, match="prefix"):
        BusLayout(prefix)


def test_events_are_frozen_and_ignore_unknown_fields_from_newer_producers() -> None:
    event = SessionCommitted.model_validate({"job_id": "j", "session_id": "s", "user_id": "u", "added_in_v2": True})
    with pytest.raises(ValueError, match="frozen"):
        event.job_id = "other"  # type: ignore[misc]


def test_final_stages_are_completed_and_failed() -> None:
    assert {s for s in SyncStage if s.is_final} == {SyncStage.COMPLETED, SyncStage.FAILED}
