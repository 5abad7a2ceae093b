"""One fetch for the readers that read a single URL (feeds, pages): guard refusals, a status other
than 200 and a body over the kind's cap all fail the source with a sentence a person can act on."""

from __future__ import annotations

from memgw.common.net import FetchResult, GuardedFetcher, OutboundRefused
from memgw.sync_worker.readers.base import SourceError


async def fetch_document(fetcher: GuardedFetcher, url: str, *, accept: str, cap: int, what: str) -> FetchResult:
    try:
        answer = await fetcher.fetch(url, headers={"Accept": accept})
    except OutboundRefused as exc:
        raise SourceError(str(exc)) from exc
    if answer.status_code != 200:
        raise SourceError(f"the {what} answered {answer.status_code}")
    if len(answer.content) > cap:
        raise SourceError(f"the {what} is over {cap} bytes")
    return answer
