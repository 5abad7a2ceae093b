"""The sync-worker: readers per source kind, the sync pipeline, its bus subscriber."""

from __future__ import annotations

from memgw.common.runtime import Infra, ServiceParts
from memgw.common.sources import SourceKind
from memgw.sync_worker.readers.base import SourceReader
from memgw.sync_worker.readers.folder import FolderReader
from memgw.sync_worker.router import create_router
from memgw.sync_worker.service import SyncService


def readers_for(infra: Infra) -> dict[SourceKind, SourceReader]:
    return {SourceKind.FOLDER: FolderReader(infra.settings.sources)}


def build(infra: Infra) -> ServiceParts:
    service = SyncService(infra, readers_for(infra))
    return ServiceParts(name="sync-worker", router=create_router(infra, service))
