"""Qdrant server through ``qdrant-client`` (distributed mode). Tests run it in the client's local
``:memory:`` mode, which speaks the same client API."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from qdrant_client import AsyncQdrantClient
from qdrant_client import models as qm

from memgw.common.index import sparse
from memgw.common.index.base import (
    FLOAT_FIELDS,
    KEYWORD_FIELDS,
    SPARSE_FULL_SCAN,
    Condition,
    IndexHit,
    IndexPoint,
    IsEmpty,
    Match,
    MatchAny,
    Range,
    Where,
    best_of,
    one_of,
    point_id,
    split_by_tenant,
)
from memgw.common.logging import get_logger

log = get_logger("memgw.index.qdrant_server")


def _condition(c: Condition) -> Any:
    if isinstance(c, Match):
        return qm.FieldCondition(key=c.key, match=qm.MatchValue(value=c.value))
    if isinstance(c, MatchAny):
        return qm.FieldCondition(key=c.key, match=qm.MatchAny(any=list(c.values)))
    if isinstance(c, Range):
        return qm.FieldCondition(key=c.key, range=qm.Range(gt=c.gt, gte=c.gte, lt=c.lt, lte=c.lte))
    if isinstance(c, IsEmpty):
        return qm.IsEmptyCondition(is_empty=qm.PayloadField(key=c.key))
    return to_qdrant_filter(c)


def to_qdrant_filter(where: Where | None) -> qm.Filter | None:
    if where is None:
        return None
    return qm.Filter(
        must=[_condition(c) for c in where.must] or None,
        should=[_condition(c) for c in where.should] or None,
        must_not=[_condition(c) for c in where.must_not] or None,
    )


def _sparse(pair: tuple[list[int], list[float]]) -> qm.SparseVector:
    return qm.SparseVector(indices=pair[0], values=pair[1])


# Points per upsert request: one request of a 10k-chunk sync would be tens of MB and hold a
# server's write lock long; batches keep requests small and let searches in between.
UPSERT_BATCH = 256


class QdrantServerIndex:
    """One collection for every tenant, as Qdrant recommends for many small tenants: ``user_id`` is
    a tenant payload index (points of one user stored together, searched first by that key), and
    the collection's shards and replicas come from settings when it is created."""

    def __init__(
        self,
        client: AsyncQdrantClient,
        collection: str,
        *,
        dim: int,
        shards: int = 1,
        replicas: int = 1,
    ):
        self._client = client
        self._collection = collection
        self._dim = dim
        self._shards = shards
        self._replicas = replicas

    @classmethod
    def connect(
        cls,
        location: str,
        collection: str,
        *,
        dim: int,
        api_key: str | None = None,
        shards: int = 1,
        replicas: int = 1,
    ) -> QdrantServerIndex:
        client = (
            AsyncQdrantClient(location=":memory:")
            if location == ":memory:"
            else AsyncQdrantClient(url=location, api_key=api_key)
        )
        return cls(client, collection, dim=dim, shards=shards, replicas=replicas)

    async def ensure(self) -> None:
        exists = await self._client.collection_exists(self._collection)
        if exists:
            info = await self._client.get_collection(self._collection)
            made = (info.config.params.sparse_vectors or {}).get("bm25")
            if made is not None and made.modifier == qm.Modifier.IDF:
                # Made by a version that let Qdrant weigh words over every tenant's memories (a reader's IDF is
                # the query's now, sparse.py). Qdrant cannot change a sparse vector's weighting in place; the
                # index is derived, so it is made again and the reconciler fills it in (no re-embedding).
                log.warning("index.bm25_weighting_changed", was=str(made.modifier))
                await self._client.delete_collection(self._collection)
                exists = False
        if not exists:
            await self._client.create_collection(
                self._collection,
                vectors_config={"dense": qm.VectorParams(size=self._dim, distance=qm.Distance.COSINE)},
                sparse_vectors_config={
                    "bm25": qm.SparseVectorParams(
                        index=qm.SparseIndexParams(full_scan_threshold=SPARSE_FULL_SCAN),
                    )
                },
                shard_number=self._shards,
                replication_factor=self._replicas,
            )
        for name in KEYWORD_FIELDS:
            schema: Any = (
                qm.KeywordIndexParams(type=qm.KeywordIndexType.KEYWORD, is_tenant=True)
                if name == "user_id"
                else qm.PayloadSchemaType.KEYWORD
            )
            await self._client.create_payload_index(self._collection, name, field_schema=schema)
        for name in FLOAT_FIELDS:
            await self._client.create_payload_index(self._collection, name, field_schema=qm.PayloadSchemaType.FLOAT)

    async def upsert(self, points: Sequence[IndexPoint]) -> None:
        for start in range(0, len(points), UPSERT_BATCH):
            await self._client.upsert(
                self._collection,
                points=[
                    qm.PointStruct(
                        id=p.id,
                        vector={"dense": list(p.dense), "bm25": _sparse(sparse.encode_document(p.text))},
                        payload={**p.payload, "memory_id": p.memory_id},
                    )
                    for p in points[start : start + UPSERT_BATCH]
                ],
            )

    async def delete(self, memory_ids: Sequence[str]) -> None:
        if memory_ids:
            ids: list[Any] = [point_id(m) for m in memory_ids]
            await self._client.delete(self._collection, points_selector=qm.PointIdsList(points=ids))

    async def set_payload(self, memory_ids: Sequence[str], payload: dict[str, Any]) -> None:
        if memory_ids:
            ids: list[Any] = [point_id(m) for m in memory_ids]
            await self._client.set_payload(self._collection, payload=payload, points=ids)

    async def search(
        self,
        *,
        dense: Sequence[float] | None = None,
        text: str | None = None,
        weights: Mapping[int, float] | None = None,
        where: Where | None,
        limit: int,
    ) -> list[IndexHit]:
        one_of(dense, text)
        query: Any
        if dense is not None:
            query, using = list(dense), "dense"
        elif text:
            query, using = _sparse(sparse.encode_query(text, weights)), "bm25"
        else:
            return []
        requests = [
            qm.QueryRequest(
                query=query, using=using, filter=to_qdrant_filter(part), limit=limit, with_payload=["memory_id"]
            )
            for part in split_by_tenant(where)
        ]
        answers = await self._client.query_batch_points(self._collection, requests=requests)
        return best_of(
            [[(str((p.payload or {})["memory_id"]), float(p.score)) for p in a.points] for a in answers], limit
        )

    async def count(self, where: Where | None = None) -> int:
        result = await self._client.count(self._collection, count_filter=to_qdrant_filter(where), exact=True)
        return result.count

    async def clear(self) -> None:
        await self._client.delete(self._collection, points_selector=qm.FilterSelector(filter=qm.Filter()))

    async def optimize(self) -> None:
        """A Qdrant server builds its HNSW graph in its own background optimiser."""

    async def close(self) -> None:
        await self._client.close()
