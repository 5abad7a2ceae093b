"""When each memory was last found, written off the search's path.

A search only notes what it returned; the ids noted within ``delay_s`` go to Postgres in one UPDATE.
The answer never waits on a write, and under load one statement carries many searches' marks instead
of each search taking the row locks of the memories it found (popular memories are found by many).
A crash loses at most the marks of that window: those memories look that much older to decay, no more.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Iterable

import asyncpg

from memgw.common.logging import get_logger
from memgw.common.memories import MemoryStore

log = get_logger("memgw.gateway.retrieval_marks")


class RetrievalMarks:
    def __init__(self, store: MemoryStore, delay_s: float = 0.2):
        self.store = store
        self.delay_s = delay_s
        self._noted: set[str] = set()
        self._pending: asyncio.Task[None] | None = None  # at most one: waiting out the window, then writing
        self._closing = asyncio.Event()  # set by close(): the window is not waited out any more

    def note(self, memory_ids: Iterable[str]) -> None:
        self._noted.update(memory_ids)
        if self._noted and self._pending is None:
            self._pending = asyncio.create_task(self._write_later(), name="retrieval-marks")

    async def _write_later(self) -> None:
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._closing.wait(), self.delay_s)
        await self._write()
        self._pending = None
        if self._noted:  # noted while that was being written
            self._pending = asyncio.create_task(self._write_later(), name="retrieval-marks")

    async def _write(self) -> None:
        ids, self._noted = sorted(self._noted), set()
        try:
            await self.store.mark_retrieved(ids)
        except (asyncpg.PostgresError, asyncpg.InterfaceError, OSError) as exc:  # freshness only: not worth an error
            log.warning("retrieval_marks.unwritten", memories=len(ids), error=str(exc)[:300])

    async def close(self) -> None:
        """Write what is noted now (the gateway stops: nothing noted is left behind)."""
        self._closing.set()
        while (pending := self._pending) is not None:
            await pending
