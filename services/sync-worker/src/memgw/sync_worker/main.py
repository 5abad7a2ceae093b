"""The sync-worker: one reader per source kind, the sync pipeline, its bus subscribers and the
auto-fetch schedule."""

from __future__ import annotations

from faststream.nats import NatsRouter

from memgw.common.composio import ComposioClient
from memgw.common.net import GuardedFetcher
from memgw.common.runtime import Infra, ServiceParts
from memgw.common.sources import SourceKind
from memgw.sync_worker.autofetch import AutoFetch
from memgw.sync_worker.readers.base import SourceReader
from memgw.sync_worker.readers.composio import ComposioReader
from memgw.sync_worker.readers.conversation import ConversationReader
from memgw.sync_worker.readers.folder import FolderReader
from memgw.sync_worker.readers.github import GithubReader
from memgw.sync_worker.readers.rss import RssReader
from memgw.sync_worker.readers.twitter import TwitterReader
from memgw.sync_worker.readers.webpage import WebPageReader
from memgw.sync_worker.router import create_router, create_rpc_router
from memgw.sync_worker.service import SyncService


def readers_for(infra: Infra, fetcher: GuardedFetcher) -> dict[SourceKind, SourceReader]:
    """The dispatcher: every kind's reader. Network readers share the one outbound guard."""
    s = infra.settings.sources
    return {
        SourceKind.FOLDER: FolderReader(s),
        SourceKind.GITHUB_REPO: GithubReader(s, fetcher),
        SourceKind.RSS_FEED: RssReader(s, fetcher),
        SourceKind.WEB_PAGE: WebPageReader(s, fetcher),
        SourceKind.CONVERSATION: ConversationReader(infra.pool),
        SourceKind.COMPOSIO: ComposioReader(ComposioClient(fetcher, s.composio_api_url, s.composio_api_key), s),
        SourceKind.TWITTER_QUERY: TwitterReader(s, fetcher),
    }


def _routers(*routers: NatsRouter) -> NatsRouter:
    combined = NatsRouter()
    for router in routers:
        combined.include_router(router)
    return combined


def sync_service(infra: Infra, readers: dict[SourceKind, SourceReader]) -> SyncService:
    """The sync service on this install's parts, reading with ``readers``."""
    return SyncService(
        pool=infra.pool,
        store=infra.store,
        embedder=infra.embedder,
        layout=infra.layout,
        credentials=infra.credentials,
        chunking=infra.settings.chunk,
        readers=readers,
        prices=infra.settings.sources,
    )


def build(infra: Infra) -> ServiceParts:
    s = infra.settings.sources
    fetcher = GuardedFetcher(
        allow=s.outbound_allow, max_bytes=max(s.feed_max_bytes, s.page_max_bytes), timeout_s=s.outbound_timeout_s
    )
    service = sync_service(infra, readers_for(infra, fetcher))
    autofetch = AutoFetch(infra.pool, infra.layout, s)
    return ServiceParts(
        name="sync-worker",
        router=_routers(create_router(infra.layout, infra.broker, service), create_rpc_router(infra.layout, service)),
        background=[autofetch.run],
        cleanup=[fetcher.close],
    )
