"""Composio: an OAuth-connected SaaS account (Gmail, Slack, Notion, GitHub ...) read through
Composio's tools. Each toolkit names the tool that lists its recent items and where their id, text
and date are found in the answer."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from memgw.common import policy
from memgw.common.composio import ComposioClient, ComposioError
from memgw.common.domain import Principal
from memgw.common.net import OutboundRefused
from memgw.common.settings import SourceSettings
from memgw.common.sources import MemorySourceEntry, SourceKind
from memgw.sync_worker.readers.base import SourceContent, SourceError, SourceItem, operator_credential
from memgw.sync_worker.readers.listed import ListedContent


@dataclass(frozen=True)
class ToolkitFeed:
    tool: str
    arguments: dict[str, Any]
    items_key: str
    id_key: str
    text_keys: tuple[str, ...]
    date_key: str | None


FEEDS: dict[str, ToolkitFeed] = {
    "gmail": ToolkitFeed(
        "GMAIL_FETCH_EMAILS",
        {"max_results": 50},
        "messages",
        "messageId",
        ("subject", "messageText"),
        "messageTimestamp",
    ),
    # A Slack source reads one channel: its ``channel`` field ("#eng" or a channel id).
    "slack": ToolkitFeed("SLACK_FETCH_CONVERSATION_HISTORY", {"limit": 100}, "messages", "ts", ("text",), "ts"),
    "notion": ToolkitFeed(
        "NOTION_SEARCH_NOTION_PAGE", {"page_size": 50}, "results", "id", ("title", "content"), "last_edited_time"
    ),
    "github": ToolkitFeed(
        "GITHUB_LIST_REPOSITORY_ISSUES", {"per_page": 50}, "issues", "id", ("title", "body"), "updated_at"
    ),
}


def scope_of(toolkit: str, source: MemorySourceEntry) -> str:
    """The upstream's own id of where this source's items live, as agents' allowlists may name it:
    ``slack:#eng`` for a channel, else the toolkit (``gmail``)."""
    channel = str(source.fields.get("channel") or "").strip()
    return f"{toolkit}:{channel}" if channel else toolkit


def _date(value: Any) -> datetime | None:
    if value in (None, ""):
        return None
    try:
        return datetime.fromtimestamp(float(value), UTC)
    except (TypeError, ValueError):
        try:
            return datetime.fromisoformat(str(value).replace("Z", "+00:00"))
        except ValueError:
            return None


class ComposioReader:
    kind = SourceKind.COMPOSIO

    def __init__(self, client: ComposioClient, settings: SourceSettings):
        self._client = client
        self._settings = settings
        self._listed = ListedContent()

    async def _contents(self, source: MemorySourceEntry) -> list[SourceContent]:
        toolkit = str(source.fields["toolkit"]).lower()
        feed = FEEDS.get(toolkit)
        if feed is None:
            raise SourceError(f"no Composio feed is known for toolkit {toolkit!r} (known: {', '.join(sorted(FEEDS))})")
        if not self._client.configured:
            raise SourceError("Composio is not configured: set MEMGW_COMPOSIO_API_KEY")
        operator_credential(self._settings, "MEMGW_COMPOSIO_API_KEY", "set", source)
        connection_id = str(source.secrets.get("connection_id", ""))
        try:
            # The operator's key reads any connection: each sync checks it is still the owner's.
            connection = await self._client.connection(connection_id)
            ref = policy.ConnectionRef(connection_id, source.owner_user_id, connection.user_id)
            decision = policy.decide(Principal(user_id=source.owner_user_id), policy.Action.CONNECTION_USE, ref)
            if not decision.allowed:
                raise SourceError(decision.reason)
            arguments = dict(feed.arguments)
            if source.fields.get("channel"):
                arguments["channel"] = str(source.fields["channel"])
            data = await self._client.execute(feed.tool, connection_id, arguments)
        except (ComposioError, OutboundRefused) as exc:
            raise SourceError(str(exc)) from exc
        contents, scope = [], scope_of(toolkit, source)
        for item in data.get(feed.items_key, []) if isinstance(data, dict) else []:
            if not isinstance(item, dict) or item.get(feed.id_key) in (None, ""):
                continue
            text = "\n\n".join(str(item[k]) for k in feed.text_keys if item.get(k))
            contents.append(
                SourceContent(
                    item_id=f"{toolkit}:{item[feed.id_key]}",
                    title=str(item.get(feed.text_keys[0], ""))[:200],
                    text=text,
                    updated_at=_date(item.get(feed.date_key)) if feed.date_key else None,
                    scope=scope,
                )
            )
        return contents

    async def list_items(self, source: MemorySourceEntry) -> list[SourceItem]:
        return self._listed.remember(source, await self._contents(source))

    async def read_item(self, source: MemorySourceEntry, item_id: str) -> SourceContent:
        return self._listed.recall(source, item_id)
