"""Memory sources (seeds 000/001): the kinds, their fields and ``validate()``.

A source is one flat entry: id, kind, label, enabled, owner, the kind's own fields and budgets.
Validation happens on add and update, here, for every kind alike.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum
from typing import Any

import asyncpg
import tomli_w
from pydantic import BaseModel, Field, computed_field, model_validator

from memgw.common.credentials import CredentialBox, CredentialsUnreadable
from memgw.common.domain import ID_PATTERN


class SourceKind(StrEnum):
    COMPOSIO = "Composio"
    CONVERSATION = "Conversation"
    FOLDER = "Folder"
    GITHUB_REPO = "GithubRepo"
    RSS_FEED = "RssFeed"
    WEB_PAGE = "WebPage"
    TWITTER_QUERY = "TwitterQuery"


@dataclass(frozen=True)
class KindSpec:
    required: tuple[str, ...]
    optional: tuple[str, ...] = ()
    # Credentials among the fields: write-only, sealed at rest, never returned (see common.credentials).
    secret: tuple[str, ...] = ()
    # Fields whose value is a list of strings, and those that are a whole number above 0 (the rest
    # are strings); a reader takes these shapes as given, so they are checked before one is stored.
    lists: tuple[str, ...] = ()
    numbers: tuple[str, ...] = ()
    # The values a list field may hold, where the upstream knows only some.
    choices: Mapping[str, tuple[str, ...]] = field(default_factory=dict)


KIND_SPECS: dict[SourceKind, KindSpec] = {
    SourceKind.COMPOSIO: KindSpec(("toolkit", "connection_id"), ("channel",), secret=("connection_id",)),
    SourceKind.CONVERSATION: KindSpec((), ("session_id", "agent_id")),
    SourceKind.FOLDER: KindSpec(("path",), ("glob",)),
    SourceKind.GITHUB_REPO: KindSpec(
        ("repo",),
        ("token", "include"),
        secret=("token",),
        lists=("include",),
        choices={"include": ("commits", "issues", "pulls")},
    ),
    SourceKind.RSS_FEED: KindSpec(("url",), ("max_items",), numbers=("max_items",)),
    SourceKind.WEB_PAGE: KindSpec(("url",), ("selector",)),
    SourceKind.TWITTER_QUERY: KindSpec(("query",)),
}
BUDGET_FIELDS = ("max_tokens_per_sync", "max_cost_per_sync_usd", "sync_depth_days")
# What an export writes for a credential, and what an import takes as "leave it as it is".
CREDENTIAL_PLACEHOLDER = "<write-only: set it again to change it>"
_REPO_PART = re.compile(r"^[A-Za-z0-9_.-]{1,100}$")
_UPSTREAM_ID = re.compile(r"^[A-Za-z0-9_-]{1,128}$")


class SourceValidationError(ValueError):
    pass


class MemorySourceEntry(BaseModel):
    id: str
    kind: SourceKind
    label: str = ""
    enabled: bool = True
    owner_user_id: str
    workspace_id: str | None = None
    fields: dict[str, Any] = Field(default_factory=dict)
    max_tokens_per_sync: int | None = None
    max_cost_per_sync_usd: float | None = None
    sync_depth_days: int | None = None
    version: int = 1
    # The kind's credentials, moved out of ``fields`` on construction; never serialised.
    secrets: dict[str, Any] = Field(default_factory=dict, exclude=True)

    @model_validator(mode="after")
    def _credentials_out_of_fields(self) -> MemorySourceEntry:
        for name in KIND_SPECS[self.kind].secret:
            if name in self.fields:
                value = self.fields.pop(name)
                if value != CREDENTIAL_PLACEHOLDER:
                    self.secrets[name] = value
        return self

    @computed_field  # type: ignore[prop-decorator]
    @property
    def credentials(self) -> list[str]:
        """Which credentials are set (their values are never shown)."""
        return sorted(self.secrets)


def _is_blank(value: Any) -> bool:
    return value is None or (isinstance(value, str) and not value.strip())


def validate_source(entry: MemorySourceEntry) -> None:
    problems: list[str] = []
    if not re.match(ID_PATTERN, entry.id):
        problems.append(f"id must match {ID_PATTERN} (letters, digits, '_', '.', '@', '-'; up to 128)")
    spec = KIND_SPECS[entry.kind]
    given = {**entry.fields, **entry.secrets}
    for name in spec.required:
        if _is_blank(given.get(name)):
            problems.append(f"{entry.kind} needs a non-empty '{name}'")
    for name in given:
        if name not in spec.required and name not in spec.optional:
            problems.append(f"'{name}' does not belong to a {entry.kind} source")
    problems += _shape_problems(spec, given)
    problems += _kind_problems(entry.kind, given, entry.workspace_id)
    if "\x00" in entry.label:
        problems.append("label must not contain a NUL character")
    for name, most in (("max_tokens_per_sync", 2**31 - 1), ("sync_depth_days", 36_500)):
        value = getattr(entry, name)
        if value is not None and not 0 < value <= most:
            problems.append(f"{name} must be > 0 and at most {most}")
    cost = entry.max_cost_per_sync_usd
    if cost is not None and (not math.isfinite(cost) or cost < 0):
        problems.append("max_cost_per_sync_usd must be finite and >= 0")
    if problems:
        raise SourceValidationError("; ".join(problems))


def _kind_problems(kind: SourceKind, given: dict[str, Any], workspace_id: str | None) -> list[str]:
    """What is sent upstream as a path segment must be a plain name, never a path of its own."""
    problems = []
    if kind is SourceKind.GITHUB_REPO and isinstance(given.get("repo"), str):
        parts = given["repo"].split("/")
        if len(parts) != 2 or not all(_REPO_PART.match(x) and x not in (".", "..") for x in parts):
            problems.append("repo must be owner/name (letters, digits, '_', '.', '-'; not '.' or '..')")
    if kind is SourceKind.COMPOSIO:
        for name in ("toolkit", "connection_id"):
            if isinstance(given.get(name), str) and not _UPSTREAM_ID.match(given[name]):
                problems.append(f"{name} must be letters, digits, '_' or '-' (up to 128)")
    if kind is SourceKind.CONVERSATION and workspace_id is not None:
        problems.append("a Conversation source keeps its sessions' visibility: it cannot be put into a workspace")
    return problems


def _shape_problems(spec: KindSpec, given: dict[str, Any]) -> list[str]:
    """Each field in the shape its kind declares: a list of strings, a whole number, or a string."""
    problems = []
    for name, value in given.items():
        if value is None:
            continue
        if name in spec.lists:
            if not isinstance(value, list) or not all(isinstance(v, str) and v.strip() for v in value):
                problems.append(f"'{name}' must be a list of non-empty strings")
                continue
            allowed = spec.choices.get(name)
            if allowed and (unknown := [v for v in value if v not in allowed]):
                problems.append(f"'{name}' may hold only {', '.join(allowed)}; not {', '.join(unknown)}")
        elif name in spec.numbers:
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                problems.append(f"'{name}' must be a whole number of at least 1")
        elif not isinstance(value, str):
            problems.append(f"'{name}' must be a string")
        elif "\x00" in value:
            problems.append(f"'{name}' must not contain a NUL character")
    return problems


def entry_from_row(
    row: Mapping[str, Any] | asyncpg.Record, credentials: CredentialBox, *, strict: bool = True
) -> MemorySourceEntry:
    """A stored source with its credentials opened. ``strict=False`` (listings) reads credentials
    sealed with another key as unset, so one such source never hides the others."""
    data = dict(row)
    sealed = data.pop("secrets", None)
    entry = MemorySourceEntry.model_validate(data)
    try:
        entry.secrets.update(credentials.open(sealed))
    except CredentialsUnreadable:
        if strict:
            raise
    return entry


class Freshness(StrEnum):
    ACTIVE = "Active"
    RECENT = "Recent"
    IDLE = "Idle"


def freshness(last_chunk_at: datetime | None, now: datetime) -> Freshness:
    """Active ≤ 30 s, Recent ≤ 5 min, else Idle; a timestamp in the future (a remote clock ahead
    of ours) reads Active. Computed on aware datetimes, so nothing can overflow."""
    if last_chunk_at is None:
        return Freshness.IDLE
    age = (now - last_chunk_at).total_seconds()
    if age <= 30:
        return Freshness.ACTIVE
    if age <= 300:
        return Freshness.RECENT
    return Freshness.IDLE


# OpenHuman's config.toml: [[memory_sources]] tables with the kind's fields flat beside the common ones.
_COMMON_KEYS = ("id", "kind", "label", "enabled", *BUDGET_FIELDS)


def from_openhuman(table: dict[str, Any], owner_user_id: str) -> MemorySourceEntry:
    """One [[memory_sources]] table as an entry (validate it before use)."""
    known = {k: table[k] for k in _COMMON_KEYS if k in table and k != "kind"}
    kind = str(table.get("kind", ""))
    try:
        source_kind = SourceKind(kind)
    except ValueError as exc:
        raise SourceValidationError(f"unknown kind {kind!r}; one of {', '.join(k.value for k in SourceKind)}") from exc
    fields = {k: v for k, v in table.items() if k not in _COMMON_KEYS}
    return MemorySourceEntry(**known, kind=source_kind, owner_user_id=owner_user_id, fields=fields)


def _scalar(key: str, value: Any) -> Any:
    """What validation lets a field be: a scalar or a list of scalars; anything else is refused."""
    items = value if isinstance(value, list) else [value]
    if any(v is None or isinstance(v, dict | list) for v in items):
        raise TypeError(f"{key} = {value!r} has no place in a [[memory_sources]] table")
    return value


def patch_from_openhuman(flat: dict[str, Any]) -> dict[str, Any]:
    """OpenHuman's flat MemorySourcePatch as a patch: common keys as they are, the rest the kind's
    fields (absent stays, null clears, as every patch)."""
    patch = {k: v for k, v in flat.items() if k in _COMMON_KEYS}
    fields = {k: v for k, v in flat.items() if k not in _COMMON_KEYS}
    return patch | ({"fields": fields} if fields else {})


def openhuman_table(e: MemorySourceEntry) -> dict[str, Any]:
    """An entry in OpenHuman's flat shape (its config.toml table and its RPC's entries): the kind's
    fields side by side with the common ones, credentials as the write-only placeholder."""
    table: dict[str, Any] = {"id": e.id, "kind": e.kind.value, "label": e.label, "enabled": e.enabled}
    table |= dict(
        sorted(
            [*((k, v) for k, v in e.fields.items() if v is not None), *((k, CREDENTIAL_PLACEHOLDER) for k in e.secrets)]
        )
    )
    table |= {k: getattr(e, k) for k in BUDGET_FIELDS if getattr(e, k) is not None}
    return table


def to_openhuman(entries: list[MemorySourceEntry]) -> str:
    """The entries as OpenHuman's [[memory_sources]] tables."""
    blocks = [
        "[[memory_sources]]\n" + tomli_w.dumps({k: _scalar(k, v) for k, v in openhuman_table(e).items()})
        for e in entries
    ]
    return "\n".join(blocks)
