"""One lane per key: an asyncio lock for each tenant (or user, or scope), made when first asked for and
forgotten once nobody holds or waits on it. The one way this code keeps one key's work from running
beside itself, so that another key's waits for one piece of it, not all."""

from __future__ import annotations

import asyncio
import weakref


class Lanes:
    def __init__(self) -> None:
        self._locks: weakref.WeakValueDictionary[str, asyncio.Lock] = weakref.WeakValueDictionary()

    def __call__(self, key: str) -> asyncio.Lock:
        lock = self._locks.get(key)
        if lock is None:
            lock = self._locks[key] = asyncio.Lock()
        return lock
