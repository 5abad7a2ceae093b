"""The gateway's services, built once per app from the process infrastructure. Each takes only
what it uses; this module and ``main`` are the only ones in the gateway that see ``Infra``."""

from __future__ import annotations

from dataclasses import dataclass

import asyncpg
from faststream.nats import NatsBroker

from memgw.common.composio import ComposioClient
from memgw.common.net import GuardedFetcher
from memgw.common.openviking import OpenViking, openviking_for
from memgw.common.runtime import Infra
from memgw.common.skills import Skills
from memgw.gateway.directory_service import Directory
from memgw.gateway.events import StageRelay
from memgw.gateway.evermemos_service import EverMemOSFacade
from memgw.gateway.identity import KeyRing
from memgw.gateway.mem0_service import Mem0
from memgw.gateway.memory_service import Memories
from memgw.gateway.openhuman_rpc import OpenHumanRpc
from memgw.gateway.profile_service import Profiles
from memgw.gateway.review_service import Reviews
from memgw.gateway.session_service import Sessions
from memgw.gateway.sources_service import Sources


@dataclass(frozen=True)
class Services:
    pool: asyncpg.Pool  # health and the audit listing
    keys: KeyRing  # authentication
    broker: NatsBroker  # health
    fetcher: GuardedFetcher  # closed with the app
    stage_relay: StageRelay
    memories: Memories
    sessions: Sessions
    directory: Directory
    reviews: Reviews
    profiles: Profiles
    sources: Sources
    mem0: Mem0
    evermemos: EverMemOSFacade
    rpc: OpenHumanRpc
    skills: Skills  # the process's; GET /v1/skills lists them
    openviking: OpenViking | None  # closed with the app

    async def close(self) -> None:
        await self.memories.marks.flush()
        await self.memories.audited.flush()
        await self.stage_relay.close()
        await self.fetcher.close()
        if self.openviking is not None:
            await self.openviking.close()


def services_for(infra: Infra) -> Services:
    settings = infra.settings.sources
    fetcher = GuardedFetcher(allow=settings.outbound_allow, timeout_s=settings.outbound_timeout_s)
    composio = ComposioClient(fetcher, settings.composio_api_url, settings.composio_api_key)
    pool, broker, layout = infra.pool, infra.broker, infra.layout
    keys = KeyRing(pool)
    viking = infra.settings.openviking
    openviking = openviking_for(viking) if viking.openviking_search else None
    memories = Memories(
        pool=pool,
        store=infra.store,
        embedder=infra.embedder,
        index=infra.index,
        layout=layout,
        ranking=infra.settings.ranking,
        skills=infra.skills,
        openviking=openviking,
    )
    sessions = Sessions(pool=pool, layout=layout, settings=infra.settings.gateway, skills=infra.skills)
    profiles = Profiles(pool)
    sources = Sources(
        pool=pool,
        broker=broker,
        layout=layout,
        store=infra.store,
        credentials=infra.credentials,
        settings=settings,
        composio=composio,
    )
    return Services(
        pool=pool,
        keys=keys,
        broker=broker,
        fetcher=fetcher,
        stage_relay=StageRelay(pool),
        memories=memories,
        sessions=sessions,
        directory=Directory(pool=pool, broker=broker, layout=layout, keys=keys),
        reviews=Reviews(pool=pool, layout=layout),
        profiles=profiles,
        sources=sources,
        mem0=Mem0(pool=pool, store=infra.store, memories=memories, skills=infra.skills),
        evermemos=EverMemOSFacade(pool=pool, memories=memories, sessions=sessions, profiles=profiles),
        rpc=OpenHumanRpc(sources),
        skills=infra.skills,
        openviking=openviking,
    )
