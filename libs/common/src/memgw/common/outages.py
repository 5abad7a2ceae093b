"""What an outage of our own infrastructure looks like from the inside: the exceptions that mean
"Postgres or NATS is down, frozen or restarting right now", which time mends and nothing else does.

One list, read by the gateway (503 with Retry-After instead of a 500) and by the bus (retry with
backoff for as long as it lasts, never a dead letter: the work was sound, the world was not)."""

from __future__ import annotations

import asyncpg
import nats.errors
import nats.js.errors

TRANSIENT: tuple[type[Exception], ...] = (
    asyncpg.PostgresConnectionError,
    asyncpg.CannotConnectNowError,
    asyncpg.TooManyConnectionsError,
    asyncpg.InterfaceError,  # the connection went away under a query
    ConnectionError,  # refused or reset: the server is down or restarting
    TimeoutError,  # pool acquire or statement timeout: frozen (nats' TimeoutError is one too)
    nats.errors.ConnectionClosedError,
    nats.errors.ConnectionReconnectingError,
    nats.errors.NoServersError,
    nats.errors.OutboundBufferLimitError,
    nats.js.errors.ServiceUnavailableError,
)


def is_transient(exc: BaseException) -> bool:
    """True when ``exc`` (or what it was raised from) is an outage of Postgres or NATS."""
    seen: set[int] = set()
    current: BaseException | None = exc
    while current is not None and id(current) not in seen:
        if isinstance(current, TRANSIENT):
            return True
        seen.add(id(current))
        current = current.__cause__ or current.__context__
    return False
