"""One vector-index interface, two implementations (Qdrant Edge in-process, Qdrant server).

A point carries a named dense vector ``dense`` and a BM25 sparse vector ``bm25`` computed from its
text by ``sparse.encode_document``; both implementations use the same sparse encoder, so a memory
ranks the same whichever backend holds it. Filters are written once in the small DSL below and
translated by each backend, so ACL filters are built in one place (``memgw.common.acl``).
"""

from __future__ import annotations

import heapq
import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

# Payload fields that ACL and status filters use; each gets a payload index.
KEYWORD_FIELDS = (
    "memory_id",
    "user_id",
    "agent_id",
    "workspace_id",
    "session_id",
    "namespace",
    "visibility",
    "status",
    "memory_type",
    "tags",
    "source_id",
    "source_scope",
    "flags",
    "read_key",
)
FLOAT_FIELDS = ("expires_ts", "created_ts")
# The fields whose values narrow a search to a small part of the index (a reader's way in, a user's,
# an agent's, a workspace's memories). An HNSW graph gets extra links per value of these, so a
# filtered search by them still finds its way through the graph; the other fields (status,
# visibility, type, time ...) match most points and would each cost the build another graph of their
# own for nothing.
GRAPH_FIELDS = ("read_key", "user_id", "agent_id", "workspace_id")
# A keyword (BM25) search whose filter leaves fewer points than this in a segment scores those points
# one by one; past it, it walks the inverted index and checks the filter for each point found. Walking
# costs in proportion to the whole index (a common word's list holds every user's memories), scoring
# one by one in proportion to the tenant's own. Qdrant's default (5,000) makes a tenant of 10k walk the
# whole index; 20,000 scores a tenant of that size one by one, and bounds what that costs for a big one,
# which walks (bench/reports/scale.md).
SPARSE_FULL_SCAN = 20_000

_POINT_NS = uuid.UUID("5b1c8f0e-7d53-4a55-9d0c-6d656d67770a")


def point_id(memory_id: str) -> str:
    """Qdrant wants UUIDs or integers; memory ids are ours, so map them deterministically."""
    return str(uuid.uuid5(_POINT_NS, memory_id))


@dataclass(frozen=True)
class Match:
    key: str
    value: str | bool | int


@dataclass(frozen=True)
class MatchAny:
    key: str
    values: tuple[str, ...]


@dataclass(frozen=True)
class Range:
    key: str
    gt: float | None = None
    gte: float | None = None
    lt: float | None = None
    lte: float | None = None


@dataclass(frozen=True)
class IsEmpty:
    key: str


@dataclass(frozen=True)
class Where:
    """must: all hold; should: at least one holds (when any given); must_not: none holds."""

    must: tuple[Condition, ...] = ()
    should: tuple[Condition, ...] = ()
    must_not: tuple[Condition, ...] = ()


Condition = Match | MatchAny | Range | IsEmpty | Where

TENANT_FIELD = "user_id"
# One keyword per memory that stands (``memgw.common.acl.read_key``): the way a reader reaches it.
READ_KEY_FIELD = "read_key"
# Fields a filter names to narrow a search to a part of the index the payload index finds directly.
_PARTITION_FIELDS = (TENANT_FIELD, READ_KEY_FIELD)


def _flat(where: Where) -> Where:
    """Nested conditions without a should of their own folded into their parent (same meaning)."""
    must: list[Condition] = []
    must_not = list(where.must_not)
    for c in where.must:
        if isinstance(c, Where) and not c.should:
            inner = _flat(c)
            must += inner.must
            must_not += inner.must_not
        else:
            must.append(c)
    return Where(must=tuple(must), should=where.should, must_not=tuple(must_not))


def _names_partition(c: Condition) -> bool:
    if isinstance(c, Match | MatchAny):
        return c.key in _PARTITION_FIELDS
    return isinstance(c, Where) and any(isinstance(m, Match | MatchAny) and _names_partition(m) for m in c.must)


def split_by_tenant(where: Where | None) -> list[Where | None]:
    """One filter per way of reading, where a filter ORs a tenant's own points with others (a user's
    private memories or global ones or a workspace's; the standing memories of a reader's keys or
    those that expire): the union of the parts is the same set of points. An OR hides the tenant
    from the engine's planner, which then walks a large part of the index checking each point; each
    part alone is a conjunction it answers from the tenant's own points (or from a small shared set)
    through the payload index."""
    if where is None:
        return [where]
    flat = _flat(where)
    for i, c in enumerate(flat.must):
        if isinstance(c, Where) and c.should and not c.must and not c.must_not and any(map(_names_partition, c.should)):
            rest = flat.must[:i] + flat.must[i + 1 :]
            return [Where(must=(way, *rest), should=flat.should, must_not=flat.must_not) for way in c.should]
    return [where]


@dataclass(frozen=True)
class IndexPoint:
    memory_id: str
    dense: Sequence[float]
    text: str
    payload: dict[str, Any] = field(default_factory=dict)

    @property
    def id(self) -> str:
        return point_id(self.memory_id)


@dataclass(frozen=True)
class IndexHit:
    """A hit is told by its memory id alone: the payload is for filtering, not worth copying out."""

    memory_id: str
    score: float


def best_of(answers: Sequence[Sequence[tuple[str, float]]], limit: int) -> list[IndexHit]:
    """The answers of a query asked in parts (``split_by_tenant``), each best first, as one list: best
    first, at most ``limit``, a point that two overlapping parts found kept once."""
    best: dict[str, float] = {}
    for memory_id, score in heapq.merge(*answers, key=lambda hit: -hit[1]):
        best.setdefault(memory_id, score)
        if len(best) == limit:
            break
    return [IndexHit(memory_id, score) for memory_id, score in best.items()]


def one_of(dense: Sequence[float] | None, text: str | None) -> None:
    if dense is not None and text is not None:
        raise ValueError("search by meaning or by words, not both at once: ranking fuses the two lists")


class VectorIndex(Protocol):
    async def ensure(self) -> None:
        """Create the collection and its payload indexes when missing."""

    async def upsert(self, points: Sequence[IndexPoint]) -> None: ...

    async def delete(self, memory_ids: Sequence[str]) -> None: ...

    async def set_payload(self, memory_ids: Sequence[str], payload: dict[str, Any]) -> None: ...

    async def search(
        self,
        *,
        dense: Sequence[float] | None = None,
        text: str | None = None,
        weights: Mapping[int, float] | None = None,
        where: Where | None,
        limit: int,
    ) -> list[IndexHit]:
        """The nearest points by meaning (``dense``) or by words (BM25 of ``text``, each query term weighed
        by ``weights``, the reader's IDF, 1 where it names none): one of the two.
        Fusing the lists is ranking's work (the ``retrieve_context`` skill), done once, in one place."""
        ...

    async def count(self, where: Where | None = None) -> int: ...

    async def clear(self) -> None:
        """Drop every point (reindex starts from here)."""

    async def optimize(self) -> None:
        """Build the HNSW graph and merge segments; runs off the event loop."""

    async def close(self) -> None: ...
