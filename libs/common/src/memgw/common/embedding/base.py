"""One embedder interface. Passages and queries are embedded differently (E5 prefixes), so the
interface keeps them apart; query vectors are cached because agents repeat their questions — per
``scope`` (the asking user), so how fast a question is answered never tells one tenant what another
asked, and embedded one at a time per scope on our own cores, so no scope's flood holds another's
question behind all of its own."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Sequence
from typing import Protocol

from memgw.common.lanes import Lanes


class EmbeddingError(RuntimeError):
    """The embedder could not produce vectors (endpoint down, bad answer ...)."""


class Embedder(Protocol):
    name: str
    dim: int
    # True when it computes on this process's cores: then nothing of a search runs beside a query's
    # embedding (it would take a core from the embedding's threads); False for an endpoint elsewhere.
    shares_cores: bool

    async def embed_passages(self, texts: Sequence[str]) -> list[list[float]]: ...

    async def embed_query(self, text: str, *, scope: str = "") -> list[float]: ...

    async def close(self) -> None: ...


class QueryCache:
    """A small LRU of query vectors in front of any embedder."""

    def __init__(self, inner: Embedder, size: int = 2048):
        self.inner = inner
        self.name = inner.name
        self.dim = inner.dim
        self.shares_cores = inner.shares_cores
        self._size = size
        self._cache: OrderedDict[tuple[str, str], list[float]] = OrderedDict()
        # Queries run one at a time on this process's cores, first come first served: a scope's flood
        # would queue ahead of everyone else's question. One lane per scope lets each wait for one.
        self._lane = Lanes()

    async def embed_passages(self, texts: Sequence[str]) -> list[list[float]]:
        return await self.inner.embed_passages(texts)

    async def embed_query(self, text: str, *, scope: str = "") -> list[float]:
        key = (scope, text)
        if (hit := self._cache.get(key)) is not None:
            self._cache.move_to_end(key)
            return hit
        if self.shares_cores:  # one query of a scope at a time on our cores: another's waits for one, not all
            async with self._lane(scope):
                vector = await self.inner.embed_query(text)
        else:
            vector = await self.inner.embed_query(text)
        self._cache[key] = vector
        if len(self._cache) > self._size:
            self._cache.popitem(last=False)
        return vector

    async def close(self) -> None:
        await self.inner.close()
