"""`memgw up` on a bare data dir: embedded NATS, embedded Postgres, Qdrant Edge; the README's curl
example works; Ctrl-C stops everything; a restart on the same data dir keeps every memory."""

from __future__ import annotations

import asyncio
import signal
import stat
from pathlib import Path

import asyncpg
import httpx
import nats
import pytest

from memgw.launcher.embedded.process import free_port, port_open
from tests.up_process import start_up, stop_up


def _embedded_ports(data_dir: Path) -> list[int]:
    pid_file = data_dir / "postgres" / "data" / "postmaster.pid"
    return [int(pid_file.read_text().splitlines()[3])] if pid_file.exists() else []


def _assert_on_no_command_line(data_dir: Path) -> None:
    """``ps`` shows every process's arguments to every local user: no secret may be one of them."""
    secrets = {name: (data_dir / name).read_text().strip() for name in ("postgres/password", "nats/token", "admin.key")}
    seen = 0
    for cmdline in Path("/proc").glob("[0-9]*/cmdline"):
        try:
            args = cmdline.read_bytes().decode(errors="replace")
        except OSError:  # the process ended meanwhile
            continue
        seen += "nats-server" in args or "postgres" in args
        for name, secret in secrets.items():
            assert secret not in args, f"{name} is on the command line of process {cmdline.parent.name}"
    assert seen >= 2  # the servers' own command lines were among those read


async def _assert_locked_down(data_dir: Path, pg_port: int) -> None:
    """No other local process reads the embedded infrastructure: the data dir is the user's alone,
    Postgres wants the generated password, NATS the generated token."""
    assert stat.S_IMODE(data_dir.stat().st_mode) == 0o700
    for secret in ("postgres/password", "nats/token", "nats/nats-server.conf", "admin.key", "credentials.key"):
        assert stat.S_IMODE((data_dir / secret).stat().st_mode) == 0o600, secret
    _assert_on_no_command_line(data_dir)
    with pytest.raises((asyncpg.InvalidPasswordError, asyncpg.InvalidAuthorizationSpecificationError)):
        await asyncpg.connect(f"postgresql://memgw@127.0.0.1:{pg_port}/memgw")
    password = (data_dir / "postgres" / "password").read_text().strip()
    conn = await asyncpg.connect(f"postgresql://memgw:{password}@127.0.0.1:{pg_port}/memgw")
    await conn.close()
    nats_port = int(next(p for p in (data_dir / "nats" / "port").read_text().split()))
    with pytest.raises(Exception, match=r"[Aa]uthoriz"):
        await nats.connect(f"nats://127.0.0.1:{nats_port}", allow_reconnect=False, max_reconnect_attempts=0)


@pytest.mark.slow
async def test_up_serves_the_curl_example_stops_cleanly_and_keeps_data_across_restarts(tmp_path: Path) -> None:
    data_dir = tmp_path / "data"
    port = free_port()
    proc, url, key = await start_up(data_dir, port)
    headers = {"Authorization": f"Bearer {key}"}
    try:
        async with httpx.AsyncClient(base_url=url, headers=headers, timeout=30) as client:
            body = {"content": "用户偏好中文输出。", "memory_type": "preference"}
            created = await client.post("/v1/memory", json=body)
            assert created.status_code == 201, created.text
            found = await client.post("/v1/memory/search", json={"query": "中文输出偏好", "limit": 3})
            assert found.json()["results"][0]["memory"]["id"] == created.json()["id"]
            pg_ports = _embedded_ports(data_dir)
            assert pg_ports
            assert port_open("127.0.0.1", pg_ports[0])
            await _assert_locked_down(data_dir, pg_ports[0])
    finally:
        code = await stop_up(proc, signal.SIGINT)
    assert code == 0
    assert not (data_dir / "postgres" / "data" / "postmaster.pid").exists()
    assert not port_open("127.0.0.1", pg_ports[0])

    proc, url, shown_again = await start_up(data_dir, port)
    try:
        assert key not in shown_again  # printed once, on the first start; then only where it is kept
        assert str(data_dir / "admin.key") in shown_again
        assert (data_dir / "admin.key").read_text().strip() == key
        async with httpx.AsyncClient(base_url=url, headers=headers, timeout=30) as client:
            found = await client.post("/v1/memory/search", json={"query": "中文输出偏好", "limit": 3})
            assert found.json()["results"][0]["memory"]["id"] == created.json()["id"]
    finally:
        assert await stop_up(proc, signal.SIGTERM) == 0


async def test_a_cluster_made_with_trust_auth_asks_for_the_password_after_its_nextstart_up(tmp_path: Path) -> None:
    from memgw.launcher.embedded.postgres import EmbeddedPostgres

    postgres = EmbeddedPostgres(tmp_path)
    await postgres.start()
    postgres.stop()
    hba = postgres.pgdata / "pg_hba.conf"
    hba.write_text("host all all 127.0.0.1/32 trust\n")  # as an older version left it
    await postgres.start()
    try:
        with pytest.raises((asyncpg.InvalidPasswordError, asyncpg.InvalidAuthorizationSpecificationError)):
            await asyncpg.connect(f"postgresql://memgw@127.0.0.1:{postgres.port}/memgw")
        conn = await asyncpg.connect(postgres.dsn)
        await conn.close()
    finally:
        postgres.stop()


async def test_a_launcher_killed_with_9_leaves_no_nats_server_and_the_next_start_works(tmp_path: Path) -> None:
    data_dir = tmp_path / "data"
    proc, url, _ = await start_up(data_dir, free_port())
    nats_pid = int((data_dir / "nats" / "nats-server.pid").read_text())
    assert Path(f"/proc/{nats_pid}").exists()
    assert await stop_up(proc, signal.SIGKILL) == -signal.SIGKILL
    async with asyncio.timeout(20):  # the kernel stops it with its parent
        while Path(f"/proc/{nats_pid}").exists() and b"Z" not in Path(f"/proc/{nats_pid}/stat").read_bytes()[:60]:
            await asyncio.sleep(0.1)
    again, url, _ = await start_up(data_dir, free_port())
    try:
        async with httpx.AsyncClient() as client:
            assert (await client.get(f"{url}/readyz")).status_code == 200
    finally:
        assert await stop_up(again, signal.SIGINT) == 0
