"""The contract both vector-index implementations pass: Qdrant Edge (embedded) and Qdrant server
through qdrant-client (its local ':memory:' mode speaks the same client API)."""

from __future__ import annotations

import math
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio
import qdrant_edge as qe
from qdrant_client import AsyncQdrantClient
from qdrant_client import models as qm

from memgw.common.index import sparse
from memgw.common.index.base import IndexPoint, IsEmpty, Match, MatchAny, Range, VectorIndex, Where, split_by_tenant
from memgw.common.index.edge import EdgeIndex
from memgw.common.index.qdrant_server import QdrantServerIndex

pytestmark = pytest.mark.unit

DIM = 8


def _vec(*hot: int) -> list[float]:
    v = [0.0] * DIM
    for i in hot:
        v[i] = 1.0
    norm = math.sqrt(sum(x * x for x in v)) or 1.0
    return [x / norm for x in v]


POINTS = [
    IndexPoint("m-tea", _vec(0), "The user drinks green tea every morning", {"user_id": "u1", "status": "active"}),
    IndexPoint(
        "m-zh", _vec(1), "用户偏好中文输出，结构化", {"user_id": "u1", "status": "active", "source_id": "notes"}
    ),
    IndexPoint("m-other", _vec(0, 2), "Another user also drinks tea", {"user_id": "u2", "status": "active"}),
    IndexPoint(
        "m-old", _vec(3), "An archived fact about coffee", {"user_id": "u1", "status": "archived", "expires_ts": 10.0}
    ),
]


async def _filled(kind: str, folder: Path) -> VectorIndex:
    impl: VectorIndex = (
        EdgeIndex(folder / "shard", dim=DIM)
        if kind == "edge"
        else QdrantServerIndex.connect(":memory:", "memories", dim=DIM)
    )
    await impl.ensure()
    await impl.upsert(POINTS)
    return impl


@pytest_asyncio.fixture(params=["edge", "qdrant-client"])
async def index(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[VectorIndex]:
    """An index of its own, for a test that writes."""
    impl = await _filled(request.param, tmp_path)
    yield impl
    await impl.close()


@pytest_asyncio.fixture(params=["edge", "qdrant-client"], scope="module")
async def shared(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> AsyncIterator[VectorIndex]:
    """One index for the tests that only read it (making a shard is most of such a test's time)."""
    impl = await _filled(request.param, tmp_path_factory.mktemp("shared"))
    yield impl
    await impl.close()


def _ids(hits: list) -> list[str]:
    return [h.memory_id for h in hits]


async def test_dense_search_ranks_the_nearest_first(shared: VectorIndex) -> None:
    hits = await shared.search(dense=_vec(0), where=None, limit=2)
    assert _ids(hits)[0] == "m-tea"


async def test_bm25_finds_chinese_words_inside_an_unsegmented_sentence(shared: VectorIndex) -> None:
    hits = await shared.search(text="中文输出", where=None, limit=3)
    assert _ids(hits) == ["m-zh"]


async def test_the_filter_keeps_other_users_out_of_both_kinds_of_search(shared: VectorIndex) -> None:
    where = Where(must=(Match("user_id", "u1"),))
    for hits in (
        await shared.search(dense=_vec(0), where=where, limit=5),
        await shared.search(text="drinks tea", where=where, limit=5),
    ):
        assert _ids(hits)[0] == "m-tea"
        assert "m-other" not in _ids(hits)


async def test_asking_by_meaning_and_by_words_at_once_is_refused(shared: VectorIndex) -> None:
    with pytest.raises(ValueError, match="ranking fuses"):
        await shared.search(dense=_vec(0), text="tea", where=None, limit=5)


async def test_nested_conditions_express_status_expiry_and_source_scope(shared: VectorIndex) -> None:
    where = Where(
        must=(
            MatchAny("status", ("active",)),
            Where(should=(IsEmpty("expires_ts"), Range("expires_ts", gt=100.0))),
            Where(should=(IsEmpty("source_id"), MatchAny("source_id", ("other-source",)))),
        )
    )
    hits = await shared.search(dense=_vec(0), where=where, limit=10)
    assert set(_ids(hits)) == {"m-tea", "m-other"}
    assert await shared.count(where) == 2


async def test_payload_updates_and_deletes_are_seen_by_the_next_query(index: VectorIndex) -> None:
    await index.set_payload(["m-tea"], {"status": "archived"})
    active = Where(must=(Match("status", "active"),))
    assert "m-tea" not in _ids(await index.search(dense=_vec(0), where=active, limit=5))
    await index.delete(["m-zh"])
    assert await index.count() == 3
    await index.clear()
    assert await index.count() == 0


async def test_upserting_the_same_memory_again_replaces_it(index: VectorIndex) -> None:
    await index.upsert([IndexPoint("m-tea", _vec(4), "now about hiking", {"user_id": "u1", "status": "active"})])
    assert await index.count() == len(POINTS)
    hits = await index.search(text="hiking", where=None, limit=1)
    assert _ids(hits) == ["m-tea"]


async def test_the_embedded_shard_keeps_its_points_across_a_restart(tmp_path: Path) -> None:
    """Kept by its write-ahead log; a restart after a graph build is tested with the builds."""
    first = EdgeIndex(tmp_path / "shard", dim=DIM)
    await first.ensure()
    await first.upsert(POINTS)
    await first.close()
    again = EdgeIndex(tmp_path / "shard", dim=DIM)
    await again.ensure()
    try:
        assert await again.count() == len(POINTS)
        hits = await again.search(text="中文", where=Where(must=(Match("user_id", "u1"),)), limit=1)
        assert _ids(hits) == ["m-zh"]
    finally:
        await again.close()


async def _scores_move_with_another_tenants_writes(index: VectorIndex) -> bool:
    only_u1 = Where(must=(Match("user_id", "u1"),))
    (alone,) = await index.search(text="green tea", where=only_u1, limit=1)
    await index.upsert([IndexPoint(f"m-u3-{n}", _vec(5), "green tea again", {"user_id": "u3"}) for n in range(5)])
    (after,) = await index.search(text="green tea", where=only_u1, limit=1)
    return not math.isclose(alone.score, after.score, rel_tol=1e-6)


class _MadeWithQdrantsIdf(EdgeIndex):
    """A shard as versions before weighed it: BM25 words by Qdrant's IDF (every tenant's memories counted)."""

    def __init__(self, path: Path, *, dim: int):
        super().__init__(path, dim=dim)
        self._weighting = f"idf; {sparse.ENCODING}"

    def _config(self) -> qe.EdgeConfig:
        return qe.EdgeConfig(
            vectors={"dense": qe.EdgeVectorParams(size=DIM, distance=qe.Distance.Cosine)},
            sparse_vectors={"bm25": qe.EdgeSparseVectorParams(modifier=qe.Modifier.Idf)},
        )


@pytest.mark.parametrize("kind", ["edge", "qdrant-client"])
async def test_an_index_weighed_by_qdrants_idf_is_made_again_and_then_no_tenant_moves_anothers_scores(
    tmp_path: Path, kind: str
) -> None:
    """Qdrant will not open a shard (or keep a collection) with another BM25 weighting than it was made with:
    the index is derived, so one made with Qdrant's IDF is made again, empty, for the reconciler to fill in."""
    client = AsyncQdrantClient(location=":memory:")
    if kind == "edge":
        old = _MadeWithQdrantsIdf(tmp_path / "shard", dim=DIM)
        await old.ensure()
        await old.upsert(POINTS)
        assert await _scores_move_with_another_tenants_writes(old)  # what made it go
        await old.close()
    else:
        await client.create_collection(
            "memories",
            vectors_config={"dense": qm.VectorParams(size=DIM, distance=qm.Distance.COSINE)},
            sparse_vectors_config={"bm25": qm.SparseVectorParams(modifier=qm.Modifier.IDF)},
        )
        await client.upsert("memories", [qm.PointStruct(id=1, vector={"dense": _vec(0)}, payload={})])

    def make() -> VectorIndex:
        if kind == "edge":
            return EdgeIndex(tmp_path / "shard", dim=DIM)
        return QdrantServerIndex(client, "memories", dim=DIM)

    plain = make()
    await plain.ensure()
    assert await plain.count() == 0
    await plain.upsert(POINTS)
    assert not await _scores_move_with_another_tenants_writes(plain)
    if kind == "edge":
        await plain.close()
    again = make()  # the same weighting: nothing is made again
    await again.ensure()
    try:
        assert await again.count() == len(POINTS) + 5
        assert _ids(await again.search(text="中文", where=None, limit=1)) == ["m-zh"]
    finally:
        await again.close()


async def test_a_query_terms_weight_decides_between_the_memories_each_word_finds(index: VectorIndex) -> None:
    """The reader's IDF travels as the query's weights: the same two memories change places with them."""
    only_u5 = Where(must=(Match("user_id", "u5"),))
    await index.upsert(
        [
            IndexPoint("m-name", _vec(6), "Melanie Melanie Melanie", {"user_id": "u5"}),
            IndexPoint("m-puppy", _vec(7), "a puppy", {"user_id": "u5"}),
        ]
    )
    melanie, puppy = sparse.query_terms("Melanie"), sparse.query_terms("puppy")
    assert _ids(await index.search(text="Melanie puppy", where=only_u5, limit=2)) == ["m-name", "m-puppy"]
    weights = {**dict.fromkeys(melanie, 0.2), **dict.fromkeys(puppy, 2.0)}
    found = await index.search(text="Melanie puppy", weights=weights, where=only_u5, limit=2)
    assert _ids(found) == ["m-puppy", "m-name"]


async def test_function_words_of_either_language_find_nothing_on_their_own(index: VectorIndex) -> None:
    """No IDF discounts a word every text holds, so 我 / 什么 / "what" must not match: a busy day full of 我
    would otherwise answer a question about tea."""
    await index.upsert(
        [
            IndexPoint("m-busy", _vec(6), "我今天很忙，我要开会，我的老板也在", {"user_id": "u4"}),
            IndexPoint("m-green", _vec(7), "我喜欢喝绿茶", {"user_id": "u4"}),
        ]
    )
    only_u4 = Where(must=(Match("user_id", "u4"),))
    assert _ids(await index.search(text="我喜欢什么茶", where=only_u4, limit=5)) == ["m-green"]
    assert _ids(await index.search(text="what did I", where=only_u4, limit=5)) == []


def test_a_filter_that_ors_a_tenant_with_shared_points_is_split_into_its_ways() -> None:
    own = Where(must=(Match("user_id", "u1"), Match("visibility", "private")))
    shared = Match("visibility", "global")
    status = MatchAny("status", ("active",))
    where = Where(
        must=(Where(must=(Where(should=(own, shared)), status), must_not=(Match("flags", "incorrect"),)),),
        must_not=(Match("status", "deleted"),),
    )
    parts = split_by_tenant(where)
    not_ = (Match("status", "deleted"), Match("flags", "incorrect"))
    assert parts == [Where(must=(own, status), must_not=not_), Where(must=(shared, status), must_not=not_)]
    # Nothing to split: no OR, or an OR that does not name the tenant.
    assert split_by_tenant(Where(must=(own, status))) == [Where(must=(own, status))]
    other = Where(must=(Where(should=(IsEmpty("expires_ts"), Range("expires_ts", gt=1.0))),))
    assert split_by_tenant(other) == [other]
    assert split_by_tenant(None) == [None]


async def test_an_or_of_the_tenant_and_shared_points_finds_both_and_nothing_else(index: VectorIndex) -> None:
    await index.upsert(
        [
            IndexPoint("m-mine", _vec(4), "my own note on tea", {"user_id": "u1", "visibility": "private"}),
            IndexPoint("m-theirs", _vec(4), "their own note on tea", {"user_id": "u2", "visibility": "private"}),
            IndexPoint("m-global", _vec(4, 5), "everyone's note on tea", {"user_id": "u2", "visibility": "global"}),
        ]
    )
    own = Where(must=(Match("user_id", "u1"), Match("visibility", "private")))
    where = Where(must=(Where(should=(own, Match("visibility", "global"))),))
    for hits in (
        await index.search(dense=_vec(4), where=where, limit=10),
        await index.search(text="note on tea", where=where, limit=10),
    ):
        assert set(_ids(hits)) == {"m-mine", "m-global"}
        assert [h.score for h in hits] == sorted((h.score for h in hits), reverse=True)
    assert len(await index.search(dense=_vec(4), where=where, limit=1)) == 1
