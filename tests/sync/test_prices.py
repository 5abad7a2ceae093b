"""A paid kind's cost budget binds out of the box: the upstream's price per item read counts, and a
source of such a kind that sets no budget gets the default one. Kinds that cost nothing stay unbounded."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest

from memgw.common.events import SyncCounts
from memgw.common.settings import SourceSettings
from memgw.common.sources import MemorySourceEntry, SourceKind
from memgw.sync_worker.service import SyncService, _Run

pytestmark = pytest.mark.unit


def _service(prices: SourceSettings) -> SyncService:
    none: Any = None
    return SyncService(
        pool=none, store=none, embedder=none, layout=none, credentials=none, chunking=none, readers={}, prices=prices
    )


def _items_within_budget(service: SyncService, kind: SourceKind, **budgets: Any) -> int:
    """How many one-chunk items of 100 tokens one sync ingests before the budget refuses (at most 10,000)."""
    none: Any = None
    source = MemorySourceEntry(id="s", kind=kind, owner_user_id="u", fields={}, **budgets)
    run = _Run(none, none, "r", source, SyncCounts(), datetime.now(UTC))
    for n in range(10_000):
        if not service._within_budget(run, 100):
            return n
        run.counts.tokens += 100
        run.counts.cost_usd += service._cost(run.source, 100)
    return 10_000


def test_a_paid_kind_without_a_budget_stops_at_the_default_one() -> None:
    service = _service(SourceSettings())  # the documented defaults: a post read costs 0.005, budget 1.0
    assert _items_within_budget(service, SourceKind.TWITTER_QUERY) == 200
    assert _items_within_budget(service, SourceKind.COMPOSIO) == 1000
    assert _items_within_budget(service, SourceKind.FOLDER) == 10_000


def test_a_sources_own_budget_and_an_operators_prices_override_the_defaults() -> None:
    service = _service(SourceSettings())
    assert _items_within_budget(service, SourceKind.TWITTER_QUERY, max_cost_per_sync_usd=0.05) == 10
    free = _service(SourceSettings(sync_price_per_item_usd={}))
    assert _items_within_budget(free, SourceKind.TWITTER_QUERY) == 10_000
    embedding_priced = _service(
        SourceSettings(sync_price_per_item_usd={}, sync_cost_per_1k_tokens_usd=0.1, sync_default_max_cost_usd=5)
    )
    # Embedding alone costs only under a budget the source set: the default is for upstreams that charge.
    assert _items_within_budget(embedding_priced, SourceKind.FOLDER, max_cost_per_sync_usd=0.1) == 10
    assert _items_within_budget(embedding_priced, SourceKind.FOLDER) == 10_000
