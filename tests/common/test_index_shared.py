"""The embedded index reached through its owner: the whole index contract holds for a RemoteIndex
talking over real NATS to an EdgeIndex served by ``serve_index``; one owner per install (a
Postgres advisory lock and a lease); a missing owner is an outage (retried, 503), not an error of the
caller."""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator
from pathlib import Path

import nats
import pytest
import pytest_asyncio

import tests.common.test_index_contract as contract
from memgw.common.bus import BusLayout
from memgw.common.db.migrate import migrate_dsn
from memgw.common.index.base import IsEmpty, Match, MatchAny, Range, VectorIndex, Where
from memgw.common.index.edge import EdgeIndex
from memgw.common.index.lease import IndexLease
from memgw.common.index.shared import (
    IndexOwnerUnavailable,
    RemoteIndex,
    serve_index,
    where_from_wire,
    where_to_wire,
)
from memgw.common.outages import is_transient

# Every test of the contract, run here against the remote index (the fixture below).
globals().update({name: getattr(contract, name) for name in dir(contract) if name.startswith("test_")})


@pytest_asyncio.fixture
async def index(tmp_path: Path, nats_url: str, database_url: str) -> AsyncIterator[VectorIndex]:
    layout = BusLayout("ix" + uuid.uuid4().hex[:8])
    owner_nc, caller_nc = await nats.connect(nats_url), await nats.connect(nats_url)
    owned = EdgeIndex(tmp_path / "shard", dim=contract.DIM)
    await owned.ensure()
    await migrate_dsn(database_url)
    lease = await IndexLease.try_take(database_url, layout.prefix, term_s=600)  # no renewals needed here
    assert lease is not None
    serving = await serve_index(owner_nc, layout, owned, lease)
    remote = RemoteIndex(caller_nc, layout)
    await remote.upsert(contract.POINTS)
    yield remote
    await serving.unsubscribe()
    await lease.release()
    await owned.close()
    await owner_nc.close()
    await caller_nc.close()


@pytest.fixture
def shared(index: VectorIndex) -> VectorIndex:
    """The contract's read-only tests ask for ``shared``: here, the remote index of their own."""
    return index


@pytest.mark.unit
def test_filters_cross_the_wire_unchanged() -> None:
    where = Where(
        must=(Match("user_id", "u1"), MatchAny("tags", ("a", "b")), Range("created_ts", gte=1.5, lt=9.0)),
        should=(Where(must=(Match("is_x", True),)), IsEmpty("agent_id")),
        must_not=(Match("status", "archived"),),
    )
    assert where_from_wire(where_to_wire(where)) == where
    assert where_from_wire(where_to_wire(None)) is None


async def test_without_an_owner_a_call_is_an_outage(nats_url: str) -> None:
    nc = await nats.connect(nats_url)
    try:
        with pytest.raises(IndexOwnerUnavailable) as raised:
            await RemoteIndex(nc, BusLayout("nobody" + uuid.uuid4().hex[:6])).count()
        assert is_transient(raised.value)
    finally:
        await nc.close()


async def test_an_install_has_one_owner_until_it_lets_go(database_url: str) -> None:
    prefix = "own" + uuid.uuid4().hex[:6]
    await migrate_dsn(database_url)
    first = await IndexLease.try_take(database_url, prefix)
    assert first is not None
    assert await IndexLease.try_take(database_url, prefix) is None
    other = await IndexLease.try_take(database_url, prefix + "x")  # another install: its own
    assert other is not None
    await other.release()
    await first.release()
    again = await IndexLease.try_take(database_url, prefix)  # given back: taken at once, the next epoch
    assert again is not None
    assert again.epoch == first.epoch + 1
    await again.release()
