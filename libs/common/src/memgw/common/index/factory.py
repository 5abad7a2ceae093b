"""Pick the index implementation from settings: a Qdrant URL means a server, none the embedded shard."""

from __future__ import annotations

from pathlib import Path

from memgw.common.index.base import VectorIndex
from memgw.common.index.edge import EdgeIndex
from memgw.common.index.qdrant_server import QdrantServerIndex
from memgw.common.settings import IndexSettings


def create_index(settings: IndexSettings, *, data_dir: Path, dim: int) -> VectorIndex:
    if settings.qdrant_url:
        return QdrantServerIndex.connect(
            settings.qdrant_url,
            settings.qdrant_collection,
            dim=dim,
            api_key=settings.qdrant_api_key,
            shards=settings.qdrant_shards,
            replicas=settings.qdrant_replicas,
        )
    return EdgeIndex(data_dir / "qdrant-edge", dim=dim)
