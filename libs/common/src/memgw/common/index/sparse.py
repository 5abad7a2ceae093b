"""BM25 sparse vectors with Qdrant's Multilingual tokenizer (segments Chinese, Japanese ...).

Computed here rather than by the server, so the embedded shard and a Qdrant server hold identical
vectors. A document's weights depend on its own text alone (term frequency, its length against a fixed
average). A word's rarity (IDF) is the query's side: each query term weighs ``idf`` of the reader's own
counts (``keyword_stats``, migration 0013), never the index's, whose ``Modifier.Idf`` would count a word
over every tenant's memories and let another tenant's writes move a reader's scores. The function words
of both languages users write are dropped (Qdrant's English and Chinese stopword lists: "the", "what";
我, 的, 什么): a reader with few memories has counts too small to discount them.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from functools import lru_cache

from qdrant_edge import Bm25, Bm25Config, Language, SparseVector, StopwordsSet, TokenizerType

# How documents are encoded; the embedded index keeps it beside its shard and is made again when it changes.
ENCODING = "multilingual, en+zh stopwords"


@lru_cache(maxsize=1)
def _model() -> Bm25:
    stopwords = StopwordsSet(languages={Language.English, Language.Chinese})
    return Bm25(Bm25Config(tokenizer=TokenizerType.Multilingual, stopwords=stopwords))


def encode_document(text: str) -> tuple[list[int], list[float]]:
    vec = _model().embed_document(text)
    return list(vec.indices), list(vec.values)


def document_terms(text: str) -> list[int]:
    """The distinct terms of a document, as its vector has them (what ``keyword_stats`` counts)."""
    return sorted(_model().embed_document(text).indices)


def query_terms(text: str) -> list[int]:
    return list(_model().embed_query(text).indices)


def encode_query(text: str, weights: Mapping[int, float] | None = None) -> tuple[list[int], list[float]]:
    """The query's terms, each weighed by ``weights`` (the reader's IDF), 1 where it names none."""
    vec = _model().embed_query(text)
    indices = list(vec.indices)
    if weights is None:
        return indices, list(vec.values)
    return indices, [weights.get(term, 1.0) for term in indices]


def idf(docs: int, total: int) -> float:
    """BM25's rarity of a term ``docs`` of ``total`` documents hold, as Qdrant's ``Modifier.Idf`` has it
    (Robertson–Spärck Jones, never negative)."""
    return math.log(1.0 + (total - docs + 0.5) / (docs + 0.5))


def as_edge(sparse: tuple[list[int], list[float]]) -> SparseVector:
    return SparseVector(indices=sparse[0], values=sparse[1])
