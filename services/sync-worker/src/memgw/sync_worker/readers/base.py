"""The reader interface every source kind implements (seed 000: ``SourceReader``)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Protocol

from memgw.common import policy
from memgw.common.domain import Principal
from memgw.common.settings import SourceSettings
from memgw.common.sources import MemorySourceEntry, SourceKind


class ItemError(Exception):
    """One item could not be read; the run counts and names it and goes on."""


class SourceError(Exception):
    """The source as a whole cannot be read (missing folder, not configured ...): the run fails."""


@dataclass(frozen=True)
class SourceItem:
    id: str
    title: str
    updated_at: datetime | None = None
    size: int | None = None
    # Set when the item was seen but cannot be read (a file name that is not UTF-8 ...): the run
    # counts and names it, and goes on with the others.
    error: str | None = None


@dataclass(frozen=True)
class SourceContent:
    item_id: str
    title: str
    text: str
    updated_at: datetime | None = None
    agent_id: str | None = None  # the item is its agent's (a conversation held through an agent)
    scope: str | None = None  # the upstream's own id of where it lives ("slack:#eng"): source scoping matches it


def operator_credential(settings: SourceSettings, name: str, value: str | None, source: MemorySourceEntry) -> str:
    """The operator's own upstream credential ``name`` for this source's sync: only for owners the
    operator named (MEMGW_OPERATOR_CREDENTIAL_USERS); SourceError otherwise or when it is unset."""
    if not value:
        raise SourceError(f"{name} is not set: this source has no credential of its own to use")
    ref = policy.CredentialRef(name, source.owner_user_id, tuple(settings.operator_credential_users))
    decision = policy.decide(Principal(user_id=source.owner_user_id), policy.Action.CREDENTIAL_USE, ref)
    if not decision.allowed:
        raise SourceError(decision.reason)
    return value


class SourceReader(Protocol):
    kind: SourceKind

    async def list_items(self, source: MemorySourceEntry) -> list[SourceItem]: ...

    async def read_item(self, source: MemorySourceEntry, item_id: str) -> SourceContent: ...
