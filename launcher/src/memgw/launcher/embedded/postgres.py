"""A private Postgres cluster in the data dir, for machines without one.

Binaries come from the ``pgserver`` wheel (PostgreSQL 16), else from a system install. Postgres
refuses to run as root, so as root every Postgres command runs inside a user namespace that maps
an unprivileged uid onto root (``unshare --user --map-user=1000``): nothing outside the data dir is
changed, no system user is created and no permission is altered. As a normal user the commands run
as they are.

It listens on 127.0.0.1 only and asks every client for a password (scram-sha-256), generated on
first start and kept in the data dir (mode 0600): a local process without it reads nothing. A
cluster made by an older version with trust auth is given the password on its next start.
"""

from __future__ import annotations

import asyncio
import importlib.util
import os
import shutil
import subprocess
from pathlib import Path

import asyncpg

from memgw.common.logging import get_logger
from memgw.launcher.embedded.process import free_port, port_open, private_secret

log = get_logger("memgw.embedded.postgres")
SUPERUSER = "memgw"
DATABASE = "memgw"


def postgres_bindir() -> Path:
    spec = importlib.util.find_spec("pgserver")  # located, not imported: importing it has side effects
    if spec is not None and spec.origin is not None:
        bindir = Path(spec.origin).parent / "pginstall" / "bin"
        if (bindir / "pg_ctl").exists():
            return bindir
    pg_config = shutil.which("pg_config")
    if pg_config:
        out = subprocess.run([pg_config, "--bindir"], capture_output=True, text=True, check=False).stdout.strip()
        if out and (Path(out) / "pg_ctl").exists():
            return Path(out)
    for candidate in sorted(Path("/usr/lib/postgresql").glob("*/bin"), reverse=True):
        if (candidate / "pg_ctl").exists():
            return candidate
    raise RuntimeError("no Postgres binaries: install the pgserver package or set MEMGW_DATABASE_URL")


def _as_unprivileged(cmd: list[str]) -> list[str]:
    if os.geteuid() != 0:
        return cmd
    unshare = shutil.which("unshare")
    if unshare is None:
        raise RuntimeError("running as root needs util-linux 'unshare' for Postgres, or set MEMGW_DATABASE_URL")
    return [unshare, "--user", "--map-user=1000", "--map-group=1000", *cmd]


class EmbeddedPostgres:
    def __init__(self, data_dir: Path):
        self.dir = data_dir / "postgres"
        self.pgdata = self.dir / "data"
        self.port = 0
        self._bindir = postgres_bindir()

    @property
    def password(self) -> str:
        return private_secret(self.dir / "password")

    @property
    def dsn(self) -> str:
        return self._dsn(DATABASE)

    def _dsn(self, database: str) -> str:
        return f"postgresql://{SUPERUSER}:{self.password}@127.0.0.1:{self.port}/{database}"

    def _run(self, *args: str) -> subprocess.CompletedProcess[str]:
        cmd = _as_unprivileged([str(self._bindir / args[0]), *args[1:]])
        result = subprocess.run(cmd, capture_output=True, text=True, check=False)
        if result.returncode != 0:
            raise RuntimeError(
                f"{args[0]} failed ({result.returncode}): {result.stderr.strip() or result.stdout.strip()}"
            )
        return result

    def _running_port(self) -> int | None:
        """A cluster left running by a crashed launcher: reuse it rather than fail on the lock."""
        pidfile = self.pgdata / "postmaster.pid"
        if not pidfile.exists():
            return None
        lines = pidfile.read_text().splitlines()
        try:
            pid, port = int(lines[0]), int(lines[3])
            os.kill(pid, 0)
        except (IndexError, ValueError, ProcessLookupError, PermissionError):
            return None
        return port if port_open("127.0.0.1", port) else None

    async def start(self) -> str:
        self.dir.mkdir(parents=True, exist_ok=True)
        private_secret(self.dir / "password")  # made before initdb reads it
        if not (self.pgdata / "PG_VERSION").exists():
            await asyncio.to_thread(
                self._run,
                "initdb",
                "-D",
                str(self.pgdata),
                "-U",
                SUPERUSER,
                "--auth=scram-sha-256",
                f"--pwfile={self.dir / 'password'}",
                "-E",
                "UTF8",
                "--locale=C",
                "--no-instructions",
            )
            log.info("embedded.postgres.initialised", pgdata=str(self.pgdata))
        running = self._running_port()
        if running:
            self.port = running
        else:
            self.port = free_port()
            await self._launch()
        await self._require_password()
        await self._ensure_database()
        log.info("embedded.postgres.started", port=self.port, pgdata=str(self.pgdata))
        return self.dsn

    async def _launch(self) -> None:
        options = f"-p {self.port} -c listen_addresses=127.0.0.1 -c unix_socket_directories=''"
        await asyncio.to_thread(
            self._run,
            "pg_ctl",
            "-D",
            str(self.pgdata),
            "-l",
            str(self.log_file),
            "-o",
            options,
            "-w",
            "-t",
            "60",
            "start",
        )

    @property
    def name(self) -> str:
        return "postgres"

    @property
    def log_file(self) -> Path:
        return self.dir / "postgres.log"

    def alive(self) -> bool:
        return self.port != 0 and self._running_port() == self.port

    async def restart(self) -> None:
        """Start the cluster again on the same port, so every pool's address stays right (a lock file
        left by a killed postmaster is Postgres' own to judge: it starts once no backend remains)."""
        await self._launch()
        log.warning("embedded.postgres.restarted", port=self.port)

    async def _require_password(self) -> None:
        """A cluster from before passwords (trust auth): set the password, then ask for it."""
        hba = self.pgdata / "pg_hba.conf"
        lines = hba.read_text().splitlines()
        if not any(line.split()[-1:] == ["trust"] for line in lines if line and not line.startswith("#")):
            return
        conn = await asyncpg.connect(f"postgresql://{SUPERUSER}@127.0.0.1:{self.port}/postgres")
        try:
            await conn.execute("SET password_encryption = 'scram-sha-256'")
            await conn.execute(f"ALTER USER {SUPERUSER} PASSWORD '{self.password}'")
        finally:
            await conn.close()
        kept = [line for line in lines if line.startswith("#") or not line.strip()]
        kept += [
            "local all all scram-sha-256",
            "host all all 127.0.0.1/32 scram-sha-256",
            "host all all ::1/128 scram-sha-256",
        ]
        hba.write_text("\n".join(kept) + "\n")
        await asyncio.to_thread(self._run, "pg_ctl", "-D", str(self.pgdata), "reload")
        log.info("embedded.postgres.password_required")

    async def _ensure_database(self) -> None:
        conn = await asyncpg.connect(self._dsn("postgres"))
        try:
            if not await conn.fetchval("SELECT 1 FROM pg_database WHERE datname = $1", DATABASE):
                await conn.execute(f'CREATE DATABASE "{DATABASE}"')
        finally:
            await conn.close()

    def stop(self) -> None:
        if (self.pgdata / "postmaster.pid").exists():
            try:
                self._run("pg_ctl", "-D", str(self.pgdata), "-m", "fast", "-w", "-t", "60", "stop")
                log.info("embedded.postgres.stopped")
            except RuntimeError as exc:
                log.warning("embedded.postgres.stop_failed", error=str(exc))
