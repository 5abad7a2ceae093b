"""The ``memories`` table and everything read from it or written to it: ``store`` writes (with their
versions, outbox events and index points), ``reads`` answers every query the services make. No other
module names the table."""

from memgw.common.memories.store import (
    RECORD_COLUMNS,
    MemoryStore,
    NewMemory,
    index_point,
    to_record,
    vector_bytes,
    vector_of,
    vectors_of,
)

__all__ = [
    "RECORD_COLUMNS",
    "MemoryStore",
    "NewMemory",
    "index_point",
    "to_record",
    "vector_bytes",
    "vector_of",
    "vectors_of",
]
