"""BM25 sparse vectors with Qdrant's Multilingual tokenizer (segments Chinese, Japanese ...).

Computed here rather than by the server, so the embedded shard and a Qdrant server hold identical
vectors. A document's weights depend on its own text alone (term frequency, its length against a fixed
average), so a score depends on nothing but the query and the memory. The index's IDF (``Modifier.Idf``)
would count a word's documents over every tenant's memories: off unless ``MEMGW_INDEX_BM25_IDF``. Without
IDF nothing discounts a word every text holds, so the function words of both languages users write are
dropped (Qdrant's English and Chinese stopword lists: "the", "what"; 我, 的, 什么).
"""

from __future__ import annotations

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


def encode_query(text: str) -> tuple[list[int], list[float]]:
    vec = _model().embed_query(text)
    return list(vec.indices), list(vec.values)


def as_edge(sparse: tuple[list[int], list[float]]) -> SparseVector:
    return SparseVector(indices=sparse[0], values=sparse[1])
