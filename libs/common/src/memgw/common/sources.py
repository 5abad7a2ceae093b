"""Memory sources (seeds 000/001): the kinds, their fields and ``validate()``.

A source is one flat entry: id, kind, label, enabled, owner, the kind's own fields and budgets.
Validation happens on add and update, here, for every kind alike.
"""

from __future__ import annotations

import math
import unicodedata
from dataclasses import dataclass
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
