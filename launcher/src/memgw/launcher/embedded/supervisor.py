"""Watches the embedded NATS and Postgres while the process runs: a server that died is started
again on the same port and store (clients reconnect to the address they know); one that cannot be
started again ends the process with a message that says which and where its log is, because a
gateway without its database or bus only answers 503 until someone looks.

Without this, a killed embedded Postgres left ``memgw up`` running on, answering 503 for good."""

from __future__ import annotations

import asyncio
import os
import signal
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from memgw.common.logging import get_logger

log = get_logger("memgw.embedded.supervisor")


class EmbeddedServerLost(RuntimeError):
    """Raised when the process ends because an embedded server could not be brought back."""


class EmbeddedServer(Protocol):
    @property
    def name(self) -> str: ...

    @property
    def log_file(self) -> Path: ...

    def alive(self) -> bool: ...

    async def restart(self) -> None: ...


@dataclass
class Supervisor:
    servers: list[EmbeddedServer]
    every_s: float = 2.0
    attempts: int = 5
    lost: str | None = None  # why the process is ending, once a server could not be brought back

    async def run(self) -> None:
        while True:
            await asyncio.sleep(self.every_s)
            for server in self.servers:
                if not server.alive() and not await self._bring_back(server):
                    self.lost = (
                        f"the embedded {server.name} server died and could not be started again"
                        f" after {self.attempts} attempts; its log: {server.log_file}"
                    )
                    log.critical("embedded.server.lost", server=server.name, reason=self.lost)
                    os.kill(os.getpid(), signal.SIGTERM)  # the orderly shutdown; the exit code says it failed
                    return

    async def _bring_back(self, server: EmbeddedServer) -> bool:
        log.error("embedded.server.died", server=server.name)
        for attempt in range(1, self.attempts + 1):
            try:
                await server.restart()
            except Exception as exc:
                log.error("embedded.server.restart_failed", server=server.name, attempt=attempt, error=str(exc)[:300])
                await asyncio.sleep(min(10.0, 0.5 * 2**attempt))  # a dead postmaster's backends need a moment
                continue
            return True
        return False
