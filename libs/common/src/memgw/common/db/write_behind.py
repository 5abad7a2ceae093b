"""Bookkeeping writes done off the path of whoever needed them: noted now, written a moment later.

For a write no answer depends on (when a memory was last found; which index marks are done with): the
caller notes its keys and goes on, and the keys noted until the write starts go to Postgres in one
statement, so under load one statement carries many callers' keys. A crash loses what was noted and
not yet written; only writes whose loss is harmless belong here (say why where one is made).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable, Iterable
from typing import Any, Generic, TypeVar

from memgw.common.logging import get_logger

log = get_logger("memgw.write_behind")

Key = TypeVar("Key", bound=Any)  # str or int: keys are written sorted, so statements lock rows in one order


class WriteBehind(Generic[Key]):
    def __init__(self, write: Callable[[list[Key]], Awaitable[object]], *, name: str, delay_s: float = 0.0):
        """``write`` gets the keys noted, sorted; ``delay_s`` is how long the first one noted waits for more."""
        self._write = write
        self._name = name
        self._delay_s = delay_s
        self._noted: set[Key] = set()
        self._pending: asyncio.Task[None] | None = None  # at most one: waiting out the delay, then writing
        self._hurry = asyncio.Event()  # set by flush(): the delay is not waited out

    def note(self, keys: Iterable[Key]) -> None:
        self._noted.update(keys)
        if self._noted and self._pending is None:
            self._pending = asyncio.create_task(self._write_later(), name=self._name)

    async def _write_later(self) -> None:
        if self._delay_s:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._hurry.wait(), self._delay_s)
        keys, self._noted = sorted(self._noted), set()
        try:
            await self._write(keys)
        except Exception as exc:  # bookkeeping: never an error for anyone who noted a key
            log.warning("write_behind.unwritten", writes=self._name, keys=len(keys), error=str(exc)[:300])
        finally:
            self._pending = None  # cancelled too (the loop closing): a later flush finds nothing to wait for
        if self._noted:  # noted while that was being written
            self._pending = asyncio.create_task(self._write_later(), name=self._name)

    async def flush(self) -> None:
        """Write what is noted now and wait for it (a service stopping; a test that reads it back)."""
        self._hurry.set()
        try:
            while (pending := self._pending) is not None:
                await asyncio.shield(pending)
        finally:
            self._hurry.clear()
