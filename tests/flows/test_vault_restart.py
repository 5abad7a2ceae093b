"""A bridge that was down catches up from its durable consumers: what was announced while it was
away reaches the vault when it is back. Three processes' worth of infrastructure in turn, on a
database, bus prefix and data dir of their own."""

from __future__ import annotations

import asyncio
import uuid
from pathlib import Path

import nats

from memgw.common.bus import delete_streams
from memgw.common.memories import NewMemory
from memgw.common.settings import Settings
from memgw.launcher.runtime import open_infra, run_services
from memgw.obsidian_bridge.main import build as build_bridge
from tests.infrastructure import create_database, drop_database, layout_of, make_settings


async def _until(path: Path, timeout: float = 30) -> None:
    async with asyncio.timeout(timeout):
        while not path.exists():
            await asyncio.sleep(0.05)


async def test_a_restarted_bridge_catches_up_on_what_it_missed(
    work_dir: Path, pg_admin_url: str, nats_url: str
) -> None:
    name = "v" + uuid.uuid4().hex[:8]
    url = await create_database(pg_admin_url, f"memgw_{name}")
    settings: Settings = make_settings(
        data_dir=work_dir / f"vault-{name}", database_url=url, nats_url=nats_url, prefix=name
    )
    user_vault = settings.vault.root(settings.data.data_dir) / "carla"
    try:
        async with open_infra(settings) as infra:
            await infra.pool.execute("INSERT INTO users (id) VALUES ('carla')")
            async with run_services(infra, [build_bridge(infra)]):  # first start: tree and consumers made
                await _until(user_vault / ".memgw/manifest.json")

        async with open_infra(settings) as infra, run_services(infra, []):  # the bridge is down
            [vector] = await infra.embedder.embed_passages(["Carla's flight leaves at 7."])
            memory = NewMemory(
                id="mem_" + uuid.uuid4().hex,
                user_id="carla",
                namespace="user/carla/long_term",
                memory_type="fact",
                content="Carla's flight leaves at 7.",
                visibility="private",
                importance=0.9,
                embedding=vector,
                embedding_model=infra.embedder.name,
            )
            async with infra.pool.acquire() as conn, conn.transaction():
                await infra.store.insert(conn, memory, actor="carla")
            async with asyncio.timeout(20):  # announced on the bus, nobody there to take it
                while await infra.pool.fetchval("SELECT count(*) FROM outbox WHERE published_at IS NULL"):
                    await asyncio.sleep(0.05)
        note = user_vault / f"Memories/LongTerm/{memory.id}.md"
        assert not note.exists()

        async with open_infra(settings) as infra, run_services(infra, [build_bridge(infra)]):
            await _until(note)
        assert "Carla's flight leaves at 7." in note.read_text()
    finally:
        nc = await nats.connect(nats_url)
        await delete_streams(nc, layout_of(settings))
        await nc.close()
        await drop_database(pg_admin_url, f"memgw_{name}")
