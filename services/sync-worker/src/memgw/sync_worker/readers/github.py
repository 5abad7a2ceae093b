"""GithubRepo: commits, issues and pull requests (not code) through the GitHub REST API.

Paginated through ``Link: rel="next"``; rate-limit aware: when the limit is hit, a short wait
(≤ 60 s) is waited out, a longer one fails the run with the time it resets.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
import time
from datetime import datetime
from typing import Any
from urllib.parse import quote

from memgw.common.net import GuardedFetcher, OutboundRefused, origin
from memgw.common.settings import SourceSettings
from memgw.common.sources import MemorySourceEntry, SourceKind
from memgw.sync_worker.readers.base import SourceContent, SourceError, SourceItem, operator_credential
from memgw.sync_worker.readers.listed import ListedContent

_REPO_PART = re.compile(r"^[A-Za-z0-9_.-]+$")
_NEXT = re.compile(r'<([^>]+)>;\s*rel="next"')
MAX_PAGES = 10


def _when(value: str | None) -> datetime | None:
    try:
        return datetime.fromisoformat(value.replace("Z", "+00:00")) if value else None
    except ValueError:
        return None  # an odd date never costs an item


class GithubReader:
    kind = SourceKind.GITHUB_REPO

    def __init__(self, settings: SourceSettings, fetcher: GuardedFetcher):
        self._settings = settings
        self._fetcher = fetcher
        self._listed = ListedContent()

    async def _wait(self, seconds: float) -> None:
        """Out the rate limit's window (its own method: a test asks what was waited, not for the wait)."""
        await asyncio.sleep(seconds)

    def _headers(self, source: MemorySourceEntry) -> dict[str, str]:
        """The source's own token; else the operator's, when it serves this owner; else none (public)."""
        headers = {"Accept": "application/vnd.github+json", "X-GitHub-Api-Version": "2022-11-28"}
        token = source.secrets.get("token")
        if not token and self._settings.github_token:
            with contextlib.suppress(SourceError):
                token = operator_credential(self._settings, "MEMGW_GITHUB_TOKEN", self._settings.github_token, source)
        if token:
            headers["Authorization"] = f"Bearer {token}"
        return headers

    async def _pages(self, source: MemorySourceEntry, path: str) -> list[dict[str, Any]]:
        base = self._settings.github_api_url.rstrip("/")
        url: str | None = f"{base}{path}"
        out: list[dict[str, Any]] = []
        for _ in range(MAX_PAGES):
            if url is None:
                break
            if origin(url) != origin(base):  # a token is never sent to another host by a Link header
                raise SourceError(f"GitHub's next page is on another origin ({origin(url)}); not followed")
            try:
                answer = await self._fetcher.fetch(url, headers=self._headers(source))
            except OutboundRefused as exc:
                raise SourceError(str(exc)) from exc
            if answer.status_code in (403, 429) and answer.headers.get("x-ratelimit-remaining") == "0":
                reset = int(answer.headers.get("x-ratelimit-reset", "0"))
                wait = reset - time.time()
                if wait > 60:
                    raise SourceError(f"GitHub rate limit reached; it resets at {datetime.fromtimestamp(reset)}")
                await self._wait(max(wait, 1))
                continue
            if answer.status_code == 404:
                raise SourceError(f"GitHub has no repository {source.fields['repo']} (or the token cannot see it)")
            if answer.status_code != 200:
                raise SourceError(f"GitHub answered {answer.status_code} for {path}: {answer.text[:200]}")
            out.extend(_json_list(answer.content))
            found = _NEXT.search(answer.headers.get("link", ""))
            url = found.group(1) if found else None
        return out

    async def _contents(self, source: MemorySourceEntry) -> list[SourceContent]:
        parts = str(source.fields["repo"]).split("/")
        if len(parts) != 2 or not all(_REPO_PART.match(x) and x not in (".", "..") for x in parts):
            raise SourceError(f"repo must be owner/name, not {source.fields['repo']!r}")
        repo = "/".join(quote(x, safe="") for x in parts)
        include = set(source.fields.get("include") or ("commits", "issues", "pulls"))
        contents: list[SourceContent] = []
        if "commits" in include:
            for c in await self._pages(source, f"/repos/{repo}/commits?per_page=100"):
                commit = c.get("commit", {})
                author = commit.get("author") or {}
                contents.append(
                    SourceContent(
                        item_id=f"commit:{c['sha']}",
                        title=commit.get("message", "").split("\n", 1)[0][:200],
                        text=f"Commit {c['sha'][:12]} by {author.get('name', '?')} on {author.get('date', '?')}\n\n"
                        f"{commit.get('message', '')}",
                        updated_at=_when(author.get("date")),
                    )
                )
        if include & {"issues", "pulls"}:
            for i in await self._pages(source, f"/repos/{repo}/issues?state=all&per_page=100"):
                is_pr = "pull_request" in i
                if (is_pr and "pulls" not in include) or (not is_pr and "issues" not in include):
                    continue
                kind = "Pull request" if is_pr else "Issue"
                contents.append(
                    SourceContent(
                        item_id=f"{'pr' if is_pr else 'issue'}:{i['number']}",
                        title=i.get("title", ""),
                        text=f"# {kind} #{i['number']}: {i.get('title', '')}\n\nState: {i.get('state')}; by "
                        f"{(i.get('user') or {}).get('login', '?')}\n\n{i.get('body') or ''}",
                        updated_at=_when(i.get("updated_at")),
                    )
                )
        return contents

    async def list_items(self, source: MemorySourceEntry) -> list[SourceItem]:
        return self._listed.remember(source, await self._contents(source))

    async def read_item(self, source: MemorySourceEntry, item_id: str) -> SourceContent:
        return self._listed.recall(source, item_id)


def _json_list(content: bytes) -> list[dict[str, Any]]:
    try:
        data = json.loads(content)
    except ValueError as exc:
        raise SourceError(f"GitHub answered something that is not JSON: {exc}") from exc
    if not isinstance(data, list):
        raise SourceError("GitHub answered an object where a list was expected")
    return [d for d in data if isinstance(d, dict)]
