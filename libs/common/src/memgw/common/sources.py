"""Memory sources (seeds 000/001): the kinds, their fields and ``validate()``.

A source is one flat entry: id, kind, label, enabled, owner, the kind's own fields and budgets.
Validation happens on add and update, here, for every kind alike.
"""

from __future__ import annotations

import math
import unicodedata
from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum
from typing import Any

from pydantic import BaseModel, Field


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


KIND_SPECS: dict[SourceKind, KindSpec] = {
    SourceKind.COMPOSIO: KindSpec(("toolkit", "connection_id")),
    SourceKind.CONVERSATION: KindSpec((), ("session_id", "agent_id")),
    SourceKind.FOLDER: KindSpec(("path",), ("glob",)),
    SourceKind.GITHUB_REPO: KindSpec(("repo",), ("token", "include")),
    SourceKind.RSS_FEED: KindSpec(("url",), ("max_items",)),
    SourceKind.WEB_PAGE: KindSpec(("url",), ("selector",)),
    SourceKind.TWITTER_QUERY: KindSpec(("query",)),
}
BUDGET_FIELDS = ("max_tokens_per_sync", "max_cost_per_sync_usd", "sync_depth_days")


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

    def validate_entry(self) -> None:
        validate_source(self)


def _is_blank(value: Any) -> bool:
    return value is None or (isinstance(value, str) and not value.strip())


def validate_source(entry: MemorySourceEntry) -> None:
    problems: list[str] = []
    if _is_blank(entry.id):
        problems.append("id must not be blank")
    elif ":" in entry.id or any(unicodedata.category(ch) == "Cc" for ch in entry.id):
        problems.append("id must not contain ':' or control characters")
    elif len(entry.id) > 128:
        problems.append("id is longer than 128 characters")
    spec = KIND_SPECS[entry.kind]
    for name in spec.required:
        if _is_blank(entry.fields.get(name)):
            problems.append(f"{entry.kind} needs a non-empty '{name}'")
    for name in entry.fields:
        if name not in spec.required and name not in spec.optional:
            problems.append(f"'{name}' does not belong to a {entry.kind} source")
    for name in ("max_tokens_per_sync", "sync_depth_days"):
        value = getattr(entry, name)
        if value is not None and value <= 0:
            problems.append(f"{name} must be > 0")
    cost = entry.max_cost_per_sync_usd
    if cost is not None and (not math.isfinite(cost) or cost < 0):
        problems.append("max_cost_per_sync_usd must be finite and >= 0")
    if problems:
        raise SourceValidationError("; ".join(problems))


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


_TOML_ESCAPES = {"\\": "\\\\", '"': '\\"', "\n": "\\n", "\t": "\\t", "\r": "\\r"}


def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, list):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    out = []
    for ch in str(value):
        out.append(_TOML_ESCAPES.get(ch) or (ch if ord(ch) >= 0x20 and ch != "\x7f" else f"\\u{ord(ch):04x}"))
    return '"' + "".join(out) + '"'


def to_openhuman(entries: list[MemorySourceEntry]) -> str:
    """The entries as OpenHuman's [[memory_sources]] tables."""
    blocks = []
    for e in entries:
        pairs: list[tuple[str, Any]] = [
            ("id", e.id),
            ("kind", e.kind.value),
            ("label", e.label),
            ("enabled", e.enabled),
        ]
        pairs += sorted(e.fields.items())
        pairs += [(k, getattr(e, k)) for k in BUDGET_FIELDS if getattr(e, k) is not None]
        blocks.append("[[memory_sources]]\n" + "".join(f"{k} = {_toml_value(v)}\n" for k, v in pairs))
    return "\n".join(blocks)
