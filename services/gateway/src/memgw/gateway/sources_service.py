"""Memory-source registration and sync requests under the gateway's ACL."""

from __future__ import annotations

import hashlib
import tomllib
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import asyncpg
from faststream.nats import NatsBroker
from nats.errors import NoRespondersError
from pydantic import BaseModel, ValidationError

from memgw.common import policy, runs, source_items, source_registry
from memgw.common.bus import BusLayout
from memgw.common.composio import ComposioClient, ComposioError, Connection
from memgw.common.credentials import CredentialBox
from memgw.common.db.pool import Executor
from memgw.common.domain import Principal
from memgw.common.events import (
    SourceItemsAnswer,
    SourceItemsRequested,
    Subject,
)
from memgw.common.logging import current_correlation_id, get_logger
from memgw.common.memories import MemoryStore, reads
from memgw.common.net import OutboundRefused
from memgw.common.paths import PathOutsideRoot, source_folder
from memgw.common.principals import is_member, workspace_owners
from memgw.common.settings import SourceSettings
from memgw.common.sources import (
    BUDGET_FIELDS,
    CREDENTIAL_PLACEHOLDER,
    Freshness,
    MemorySourceEntry,
    SourceKind,
    SourceValidationError,
    entry_from_row,
    freshness,
    from_openhuman,
    to_openhuman,
    validate_source,
)
from memgw.gateway import access, audit
from memgw.gateway.errors import ApiError, BadRequest, Conflict, NotFound, Unavailable
from memgw.gateway.schemas import MAX_NESTING, check_value

log = get_logger("memgw.gateway.sources")


@dataclass(frozen=True)
class _Loaded:
    entry: MemorySourceEntry
    ref: policy.SourceRef


def _merge(current: MemorySourceEntry, patch: dict[str, Any]) -> MemorySourceEntry:
    """Patch semantics over public fields and credentials alike: absent stays, null clears."""
    merged = current.model_dump(exclude={"credentials"})
    given = {**current.fields, **current.secrets}
    for key, value in patch.items():
        if key == "fields":
            if not isinstance(value, dict):
                raise BadRequest("fields must be an object")
            for name, field_value in value.items():
                if field_value is None:
                    given.pop(name, None)
                elif field_value != CREDENTIAL_PLACEHOLDER:
                    given[name] = field_value
        else:
            merged[key] = value
    merged["fields"] = given
    try:
        return MemorySourceEntry.model_validate(merged)
    except ValidationError as exc:
        raise BadRequest(str(exc)) from exc


class SourceStatus(BaseModel):
    source_id: str
    kind: str
    label: str
    enabled: bool
    synced_items: int = 0
    synced_chunks: int = 0
    pending_items: int = 0
    last_chunk_at: datetime | None = None
    freshness: Freshness = Freshness.IDLE
    sync_stage: str | None = None
    sync_detail: str | None = None
    run_id: str | None = None
    error: str | None = None


def composio_source_id(toolkit: str, connection_id: str) -> str:
    """Stable per connection, without showing the connection id (a credential)."""
    return f"composio-{toolkit}-{hashlib.sha256(connection_id.encode()).hexdigest()[:16]}"


class Sources:
    """Memory sources on behalf of a principal."""

    def __init__(
        self,
        *,
        pool: asyncpg.Pool,
        broker: NatsBroker,
        layout: BusLayout,
        store: MemoryStore,
        credentials: CredentialBox,
        settings: SourceSettings,
        composio: ComposioClient,
    ) -> None:
        self.pool, self.broker, self.layout, self.store = pool, broker, layout, store
        self.credentials, self.settings, self.composio = credentials, settings, composio

    def _check(self, entry: MemorySourceEntry) -> None:
        """validate() for the kind, and a Folder only under its owner's roots: 400 with the reasons."""
        try:
            validate_source(entry)
            if entry.kind is SourceKind.FOLDER:
                source_folder(str(entry.fields["path"]), self.settings.folder_roots_of(entry.owner_user_id))
        except (SourceValidationError, PathOutsideRoot, OSError, ValueError) as exc:
            raise BadRequest(str(exc)) from exc

    def _written(self, entry: MemorySourceEntry) -> tuple[object, ...]:
        """The values of ``source_registry.WRITTEN``, in its order."""
        return (
            entry.label,
            entry.enabled,
            entry.workspace_id,
            entry.fields,
            entry.max_tokens_per_sync,
            entry.max_cost_per_sync_usd,
            entry.sync_depth_days,
            self.credentials.seal(entry.secrets),  # credentials are sealed before they reach the database
        )

    async def _loaded(self, db: Executor, rows: list[asyncpg.Record]) -> list[_Loaded]:
        """The sources with what the policy needs of them: a workspace source's workspace owner too."""
        owners = await workspace_owners(db, {r["workspace_id"] for r in rows if r["workspace_id"]})
        loaded = []
        for row in rows:
            entry = entry_from_row(row, self.credentials, strict=False)
            workspace_owner = owners.get(entry.workspace_id) if entry.workspace_id else None
            loaded.append(
                _Loaded(entry, policy.SourceRef(entry.id, entry.owner_user_id, entry.workspace_id, workspace_owner))
            )
        return loaded

    async def _load(self, conn: Executor, source_id: str, *, lock: bool = False) -> _Loaded | None:
        row = await source_registry.get(conn, source_id, lock=lock)
        return (await self._loaded(conn, [row]))[0] if row else None

    async def _authorized(
        self, p: Principal, source_id: str, action: policy.Action, *, conn: Executor | None = None
    ) -> MemorySourceEntry:
        """The source, when ``p`` may do ``action`` to it; 404 when it may not even read it, else 403."""
        loaded = await self._load(conn or self.pool, source_id, lock=conn is not None)
        if loaded is None:
            raise NotFound(f"no source {source_id!r}")
        hidden = not access.allowed(p, policy.Action.SOURCE_READ, loaded.ref)
        await access.require(self.pool, p, action, loaded.ref, target_type="source", target_id=source_id, hidden=hidden)
        return loaded.entry

    async def _check_placement(self, p: Principal, entry: MemorySourceEntry) -> None:
        """A source in a workspace: its owner a member of it now, and this key allowed there."""
        if entry.workspace_id is None:
            return
        member = await is_member(self.pool, entry.workspace_id, entry.owner_user_id)
        ref = policy.PlacementRef(entry.workspace_id, entry.owner_user_id, bool(member))
        await access.require(self.pool, p, policy.Action.SOURCE_PLACE, ref, target_type="source", target_id=entry.id)

    async def _check_connection(self, p: Principal, entry: MemorySourceEntry) -> None:
        """A Composio source only on a connection Composio says is its owner's, and only for users the
        operator's Composio key serves."""
        if entry.kind is not SourceKind.COMPOSIO:
            return
        await self._check_operator_credential(p, entry.owner_user_id, "MEMGW_COMPOSIO_API_KEY", entry.id)
        connection_id = str(entry.secrets.get("connection_id", ""))
        try:
            connection = await self.composio.connection(connection_id)
        except (ComposioError, OutboundRefused) as exc:
            raise BadRequest(f"Composio connection {connection_id}: {exc}") from exc
        ref = policy.ConnectionRef(connection_id, entry.owner_user_id, connection.user_id)
        await access.require(self.pool, p, policy.Action.CONNECTION_USE, ref, target_type="source", target_id=entry.id)

    async def _check_operator_credential(self, p: Principal, user_id: str, name: str, target: str) -> None:
        ref = policy.CredentialRef(name, user_id, tuple(self.settings.operator_credential_users))
        await access.require(self.pool, p, policy.Action.CREDENTIAL_USE, ref, target_type="source", target_id=target)

    async def add(self, p: Principal, entry: MemorySourceEntry) -> MemorySourceEntry:
        ref = policy.SourceRef(entry.id, entry.owner_user_id, entry.workspace_id)
        await access.require(self.pool, p, policy.Action.SOURCE_CREATE, ref, target_type="source", target_id=entry.id)
        self._check(entry)
        await self._check_placement(p, entry)
        await self._check_connection(p, entry)
        try:
            async with self.pool.acquire() as conn, conn.transaction():
                await source_registry.add(conn, entry.id, entry.kind.value, entry.owner_user_id, self._written(entry))
                await audit.record(conn, p, "source_add", target_type="source", target_id=entry.id)
                loaded = await self._load(conn, entry.id)
        except asyncpg.UniqueViolationError as exc:
            raise Conflict(f"a source with id {entry.id!r} exists already") from exc
        except asyncpg.ForeignKeyViolationError as exc:
            raise NotFound(f"unknown owner or workspace: {exc.detail}") from exc
        assert loaded is not None
        return loaded.entry

    async def list_sources(self, p: Principal) -> list[MemorySourceEntry]:
        """The sources ``p`` may read (an agent key: only those in its scope)."""
        rows = await source_registry.of(self.pool, None if p.is_admin else p.user_id, sorted(p.workspace_ids))
        loaded = await self._loaded(self.pool, rows)
        return [x.entry for x in loaded if access.allowed(p, policy.Action.SOURCE_READ, x.ref)]

    async def update(
        self,
        p: Principal,
        source_id: str,
        patch: dict[str, Any],
        expected_version: int | None = None,
    ) -> MemorySourceEntry:
        """Patch semantics: an absent field stays, an explicit null clears it; id, kind and owner never
        change. Only the owner patches; moving into a workspace needs membership there. The row is
        locked while merged, so concurrent patches apply one after the other, none lost."""
        for frozen in ("id", "kind", "owner_user_id"):
            if frozen in patch:
                raise BadRequest(f"{frozen} cannot change; remove the source and add a new one")
        async with self.pool.acquire() as conn, conn.transaction():
            current = await self._authorized(p, source_id, policy.Action.SOURCE_PATCH, conn=conn)
            if expected_version is not None and expected_version != current.version:
                raise Conflict(f"source {source_id} is at version {current.version}, not {expected_version}")
            entry = _merge(current, patch)
            self._check(entry)
            if entry.workspace_id != current.workspace_id:
                await self._check_placement(p, entry)
            if entry.secrets.get("connection_id") != current.secrets.get("connection_id"):
                await self._check_connection(p, entry)
            await source_registry.change(conn, source_id, self._written(entry))
            await audit.record(
                conn, p, "source_update", target_type="source", target_id=source_id, reason=",".join(sorted(patch))
            )
            loaded = await self._load(conn, source_id)
        assert loaded is not None
        return loaded.entry

    async def remove(self, p: Principal, source_id: str) -> int:
        """Remove a source and every chunk it brought in; return how many chunks went."""
        await self._authorized(p, source_id, policy.Action.SOURCE_DELETE)
        async with self.pool.acquire() as conn, conn.transaction():
            chunks = await self.store.delete_source_chunks(conn, source_id)
            await source_registry.remove(conn, source_id)
            await audit.record(
                conn,
                p,
                "source_remove",
                target_type="source",
                target_id=source_id,
                reason=f"{len(chunks)} chunks removed",
            )
        await self.store.sync_index(deleted=chunks)
        return len(chunks)

    async def preview(self, p: Principal, source_id: str, item_id: str | None = None) -> SourceItemsAnswer:
        """Ask a sync-worker to list the source's items (or read one) now, over NATS request-reply."""
        await self._authorized(p, source_id, policy.Action.SOURCE_ITEMS)
        subject = Subject.SOURCE_READ_ITEM if item_id else Subject.SOURCE_LIST_ITEMS
        request = SourceItemsRequested(source_id=source_id, item_id=item_id, correlation_id=current_correlation_id())
        if not self.broker.connection.is_connected:  # say so now, rather than wait out the timeout
            raise Unavailable("the bus (NATS) is not connected right now; retry in a few seconds")
        try:
            reply = await self.broker.request(request, self.layout.subject(subject), timeout=60.0)
        except NoRespondersError as exc:
            raise Unavailable("no sync-worker is running to read the source") from exc
        except TimeoutError as exc:
            raise Unavailable("no sync-worker answered within 60 s") from exc
        answer = SourceItemsAnswer.model_validate_json(reply.body)
        if not answer.ok:
            raise BadRequest(answer.error or "the source could not be read")
        return answer

    async def get(self, p: Principal, source_id: str) -> MemorySourceEntry:
        return await self._authorized(p, source_id, policy.Action.SOURCE_READ)

    async def request_sync(self, p: Principal, source_id: str, reason: str = "manual") -> tuple[dict[str, Any], bool]:
        """Queue a run, or return the one in flight. Returns (run, created)."""
        source = await self._authorized(p, source_id, policy.Action.SOURCE_SYNC)
        if not source.enabled:
            raise Conflict(f"source {source_id!r} is disabled; enable it before syncing")
        owners = runs.SourceOwners(source.id, source.owner_user_id, source.workspace_id)
        async with self.pool.acquire() as conn, conn.transaction():
            run, created = await runs.start(
                conn, self.layout, owners, reason=reason, stale_after_s=self.settings.sync_run_stale_s
            )
            if created:
                await audit.record(conn, p, "source_sync", target_type="source", target_id=source_id)
        return run, created

    async def get_run(self, p: Principal, source_id: str, run_id: str) -> dict[str, Any]:
        await self._authorized(p, source_id, policy.Action.SOURCE_RUNS)
        run = await runs.get(self.pool, source_id, run_id)
        if run is None:
            raise NotFound(f"no run {run_id!r} for source {source_id!r}")
        return run

    async def _status_of(self, entry: MemorySourceEntry, now: datetime) -> SourceStatus:
        chunk_count, last_chunk = await reads.source_totals(self.pool, entry.id)
        items = await source_items.count(self.pool, entry.id)
        in_flight = await runs.in_flight(self.pool, entry.id)
        last_done = await runs.last_finished_counts(self.pool, entry.id)
        pending = 0
        if last_done is not None:  # what the last run saw but could not take in (a budget, a failure)
            seen = int(last_done.get("items_seen", 0))
            pending = max(0, seen - items - int(last_done.get("items_failed", 0)))
        return SourceStatus(
            source_id=entry.id,
            kind=entry.kind.value,
            label=entry.label,
            enabled=entry.enabled,
            synced_items=items,
            synced_chunks=chunk_count,
            pending_items=pending,
            last_chunk_at=last_chunk,
            freshness=freshness(last_chunk, now),
            sync_stage=in_flight["stage"] if in_flight else None,
            sync_detail=in_flight["detail"] if in_flight else None,
            run_id=in_flight["id"] if in_flight else None,
        )

    async def status_list(self, p: Principal) -> list[SourceStatus]:
        """Every visible source's status; one that cannot be computed reads as an Idle zero row."""
        now = datetime.now(UTC)
        out = []
        for entry in await self.list_sources(p):
            try:
                out.append(await self._status_of(entry, now))
            except Exception as exc:
                log.warning("sources.status_failed", source_id=entry.id, error=str(exc))
                out.append(
                    SourceStatus(
                        source_id=entry.id,
                        kind=entry.kind.value,
                        label=entry.label,
                        enabled=entry.enabled,
                        error=str(exc),
                    )
                )
        return out

    async def import_openhuman(self, p: Principal, text: str) -> dict[str, Any]:
        """Bring [[memory_sources]] of OpenHuman's config.toml in: new ids are added, the caller's own
        existing ones updated; each entry that cannot be taken is reported with its reason."""
        try:
            parsed = tomllib.loads(text)
            check_value(parsed, "toml")
        except tomllib.TOMLDecodeError as exc:
            raise BadRequest(f"not valid TOML: {exc}") from exc
        except RecursionError as exc:  # nested deeper than the parser follows
            raise BadRequest(f"toml: nested more than {MAX_NESTING} levels") from exc
        except ValueError as exc:
            raise BadRequest(str(exc)) from exc
        tables = parsed.get("memory_sources", [])
        if not isinstance(tables, list):
            raise BadRequest("memory_sources must be an array of tables ([[memory_sources]])")
        added, updated, errors = [], [], []
        for n, table in enumerate(tables):
            label = str(table.get("id", f"#{n}")) if isinstance(table, dict) else f"#{n}"
            try:
                entry = from_openhuman(table, p.user_id)
                if await source_registry.exists(self.pool, entry.id):
                    patch = entry.model_dump(include={"label", "enabled", *BUDGET_FIELDS})
                    patch["fields"] = {**entry.fields, **entry.secrets}
                    await self.update(p, entry.id, patch)
                    updated.append(entry.id)
                else:
                    await self.add(p, entry)
                    added.append(entry.id)
            except (SourceValidationError, ApiError, ValidationError, TypeError) as exc:
                errors.append({"id": label, "error": getattr(exc, "detail", None) or str(exc)})
        return {"added": added, "updated": updated, "errors": errors}

    async def export_openhuman(self, p: Principal) -> str:
        """The sources as [[memory_sources]] tables; credentials are written as a placeholder."""
        return to_openhuman(await self.list_sources(p))

    async def upsert_composio(self, p: Principal, connection: Connection) -> bool:
        """Make sure a Composio connection is a source; return True when it was added now."""
        source_id = composio_source_id(connection.toolkit, connection.id)
        if await source_registry.exists(self.pool, source_id):
            return False
        entry = MemorySourceEntry(
            id=source_id,
            kind=SourceKind.COMPOSIO,
            label=f"{connection.toolkit} connection",
            owner_user_id=p.user_id,
            fields={"toolkit": connection.toolkit, "connection_id": connection.id},
        )
        try:
            await self.add(p, entry)
        except Conflict:
            return False  # a concurrent reconcile added it
        return True

    async def connect_composio(self, p: Principal, connection_id: str) -> MemorySourceEntry:
        """A new Composio connection appears as a source at once (its owner's only: checked in ``add``)."""
        await self._check_operator_credential(p, p.user_id, "MEMGW_COMPOSIO_API_KEY", connection_id)
        try:
            connection = await self.composio.connection(connection_id)
        except (ComposioError, OutboundRefused) as exc:
            raise BadRequest(f"Composio connection {connection_id}: {exc}") from exc
        ref = policy.ConnectionRef(connection.id, p.user_id, connection.user_id)
        await access.require(self.pool, p, policy.Action.CONNECTION_USE, ref, target_type="connection", target_id=None)
        await self.upsert_composio(p, connection)
        return await self.get(p, composio_source_id(connection.toolkit, connection.id))

    async def reconcile_composio(self, p: Principal) -> list[str]:
        """On listing: connections made before the hook existed become sources too."""
        if (
            not self.composio.configured
            or p.agent_id
            or not access.allowed(
                p,
                policy.Action.CREDENTIAL_USE,
                policy.CredentialRef(
                    "MEMGW_COMPOSIO_API_KEY", p.user_id, tuple(self.settings.operator_credential_users)
                ),
            )
        ):
            return []
        try:
            connections = await self.composio.connections(p.user_id)
        except (ComposioError, OutboundRefused) as exc:
            log.warning("composio.reconcile_failed", error=str(exc))
            return []
        added = []
        for connection in connections:
            if connection.user_id != p.user_id:
                continue  # only what Composio says is this user's
            try:
                if connection.status.upper() in ("ACTIVE", "") and await self.upsert_composio(p, connection):
                    added.append(connection.id)
            except ApiError as exc:  # refused (audited) or unreadable: the listing goes on without it
                log.warning("composio.reconcile_skipped", error=exc.detail)
        return added
