"""What a service is given and what it gives back: the contracts between the services and the
composition root (``memgw.launcher.runtime`` makes the ``Infra`` and runs the ``ServiceParts``).

``Infra`` is the infrastructure one process runs on: Postgres pool, NATS broker (connected, not yet
consuming), vector index, embedder, the memory store, the credential box and the skills.
"""

from __future__ import annotations

from collections.abc import Callable, Coroutine
from dataclasses import dataclass, field
from typing import Any

import asyncpg
from faststream.nats import NatsBroker, NatsRouter

from memgw.common.bus import BusLayout
from memgw.common.credentials import CredentialBox
from memgw.common.embedding.base import Embedder
from memgw.common.index.base import VectorIndex
from memgw.common.memories import MemoryStore
from memgw.common.settings import Settings
from memgw.common.skills import Skills


@dataclass
class Infra:
    settings: Settings
    layout: BusLayout
    pool: asyncpg.Pool
    broker: NatsBroker
    index: VectorIndex
    embedder: Embedder
    store: MemoryStore
    nats_url: str
    database_url: str
    credentials: CredentialBox
    skills: Skills


BackgroundTask = Callable[[], Coroutine[Any, Any, None]]


@dataclass
class ServiceParts:
    """What a service contributes to a process: bus subscribers, HTTP app, long-running loops."""

    name: str
    router: NatsRouter | None = None
    app: Any = None  # an ASGI app (the gateway's FastAPI)
    background: list[BackgroundTask] = field(default_factory=list)
    cleanup: list[Callable[[], Coroutine[Any, Any, None]]] = field(default_factory=list)
    # Called the moment a stop is asked, before the HTTP server drains: end what would hold it open
    # (live streams), so that nothing is left for its graceful timeout to cancel.
    on_stop: list[Callable[[], Coroutine[Any, Any, None]]] = field(default_factory=list)
