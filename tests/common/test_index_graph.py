"""The embedded index builds its HNSW graph on a copy and swaps it in: searches answer and writes land
during the build, nothing written meanwhile is lost, a restart opens the built copy, and a build that
never finished leaves nothing behind. And when the owner decides a build is due.

A build runs in a child process, so the tests that let one run belong to the integration tier; the
rest are unit tests."""

from __future__ import annotations

import asyncio
import json
import threading
import time
from pathlib import Path

import pytest
import qdrant_edge as qe

from memgw.common.index.base import SPARSE_FULL_SCAN, IndexPoint, Match, Where
from memgw.common.index.edge import EdgeIndex
from memgw.common.index.graph import graph_due

DIM = 8


def _point(n: int, user: str = "u1") -> IndexPoint:
    vector = [0.0] * DIM
    vector[n % DIM] = 1.0
    vector[(n + 1) % DIM] = 0.5
    return IndexPoint(f"m{n}", vector, f"memory number {n} about tea", {"user_id": user, "status": "active"})


class HeldBuild(EdgeIndex):
    """Its graph build waits until the test lets it finish, so the test can act during it."""

    def __init__(self, path: Path):
        super().__init__(path, dim=DIM)
        self.building = threading.Event()
        self.finish = threading.Event()

    def _build_graph(self, path: Path) -> None:
        self.building.set()
        assert self.finish.wait(30)
        super()._build_graph(path)


async def _ids(index: EdgeIndex, user: str = "u1") -> set[str]:
    hits = await index.search(text="tea", where=Where(must=(Match("user_id", user),)), limit=100)
    return {h.memory_id for h in hits}


async def test_searches_and_writes_go_on_during_a_build_and_none_is_lost(tmp_path: Path) -> None:
    index = HeldBuild(tmp_path / "shard")
    await index.ensure()
    await index.upsert([_point(n) for n in range(20)])
    build = asyncio.create_task(index.optimize())
    assert await asyncio.to_thread(index.building.wait, 10)

    # The build is held: the live shard still answers, and takes writes.
    assert await _ids(index) == {f"m{n}" for n in range(20)}
    await index.upsert([_point(n) for n in range(20, 25)])
    await index.delete(["m0"])
    await index.set_payload(["m1"], {"user_id": "u2"})
    during = await _ids(index)
    assert "m24" in during
    assert "m0" not in during
    assert "m1" not in during

    second = asyncio.create_task(index.optimize())  # a second call while one runs waits for that one
    await asyncio.sleep(0.2)
    assert not build.done()
    assert not second.done()
    index.finish.set()
    await build
    await second

    # The built copy is live now, with every write made during the build replayed onto it.
    expected = {f"m{n}" for n in range(2, 25)}
    assert await _ids(index) == expected
    assert await _ids(index, "u2") == {"m1"}
    assert (tmp_path / "shard.live").read_text() == "1"
    assert not (tmp_path / "shard").exists(), "the replaced shard is removed"
    await index.close()

    reopened = EdgeIndex(tmp_path / "shard", dim=DIM)
    await reopened.ensure()
    assert await _ids(reopened) == expected
    await reopened.upsert([_point(99)])
    await reopened.optimize()  # and a second generation after the first
    assert (tmp_path / "shard.live").read_text() == "2"
    assert await _ids(reopened) == expected | {"m99"}
    assert sorted(p.name for p in tmp_path.iterdir() if p.is_dir()) == ["shard.2"]
    await reopened.close()


@pytest.mark.unit
async def test_a_write_that_finds_the_shard_being_copied_waits_off_the_event_loop(tmp_path: Path) -> None:
    """While a build copies the shard it holds the write lock (seconds at scale): a write then waits in a
    thread, and the loop goes on serving searches; it lands once the copy is taken."""
    index = EdgeIndex(tmp_path / "shard", dim=DIM)
    await index.ensure()
    await index.upsert([_point(n) for n in range(3)])
    held = threading.Event()

    def copying() -> None:  # as _build_on_copy holds the lock while it copies
        with index._writing:
            held.set()
            time.sleep(0.5)

    holder = threading.Thread(target=copying)
    holder.start()
    assert await asyncio.to_thread(held.wait, 10)
    write = asyncio.create_task(index.upsert([_point(3)]))
    answered = 0
    while not write.done():  # had the write waited on the loop, nothing would answer until it landed
        assert await _ids(index) <= {"m0", "m1", "m2", "m3"}
        answered += 1
        await asyncio.sleep(0.02)
    await write
    holder.join()
    assert answered >= 3
    assert await _ids(index) == {"m0", "m1", "m2", "m3"}
    await index.close()


@pytest.mark.unit
async def test_a_build_that_never_finished_leaves_the_old_shard_in_charge(tmp_path: Path) -> None:
    index = EdgeIndex(tmp_path / "shard", dim=DIM)
    await index.ensure()
    await index.upsert([_point(n) for n in range(5)])
    await index.close()
    # What a crash during a build leaves: a half-made copy the pointer never named.
    (tmp_path / "shard.1").mkdir()
    (tmp_path / "shard.1" / "garbage").write_text("half a segment")

    reopened = EdgeIndex(tmp_path / "shard", dim=DIM)
    await reopened.ensure()
    assert await _ids(reopened) == {f"m{n}" for n in range(5)}
    assert not (tmp_path / "shard.1").exists()
    await reopened.close()


async def test_a_failed_build_keeps_the_live_shard_and_drops_its_copy(tmp_path: Path) -> None:
    class FailingBuild(EdgeIndex):
        def _build_graph(self, path: Path) -> None:
            (path / "edge_config.json").write_text("{ torn")  # the copy cannot be opened: the build fails
            super()._build_graph(path)

    index = FailingBuild(tmp_path / "shard", dim=DIM)
    await index.ensure()
    await index.upsert([_point(n) for n in range(5)])
    with pytest.raises(RuntimeError, match="the graph build failed"):
        await index.optimize()
    await index.upsert([_point(5)])  # writes are no longer journaled for a copy that is gone
    assert await _ids(index) == {f"m{n}" for n in range(6)}
    assert sorted(p.name for p in tmp_path.iterdir() if p.is_dir()) == ["shard"]
    await index.close()


async def test_the_graph_gap_counts_points_outside_the_graph(tmp_path: Path) -> None:
    class SmallSegmentsGetGraphs(EdgeIndex):  # Qdrant builds no graph for a segment under its threshold (KB)
        def _config(self) -> qe.EdgeConfig:
            return qe.EdgeConfig(
                vectors={"dense": qe.EdgeVectorParams(size=DIM, distance=qe.Distance.Cosine)},
                sparse_vectors={"bm25": qe.EdgeSparseVectorParams()},
                optimizers=qe.EdgeOptimizersConfig(indexing_threshold=1),
            )

    index = SmallSegmentsGetGraphs(tmp_path / "shard", dim=DIM)
    await index.ensure()
    await index.upsert([_point(n) for n in range(100)])
    assert await index.graph_gap() == (100, 100)  # a new shard: no graph yet
    await index.optimize()
    assert await index.graph_gap() == (100, 0)
    await index.upsert([_point(n) for n in range(100, 140)])
    assert await index.graph_gap() == (140, 40)
    await index.close()


@pytest.mark.unit
@pytest.mark.parametrize(
    ("points", "outside", "due"),
    [
        (10_000, 10_000, False),  # a small shard: any scan is cheap
        (1_000_000, 60_000, False),  # a big one with a few new points: not worth a copy of it all
        (1_000_000, 150_000, True),
        (60_000, 60_000, True),
    ],
)
def test_a_build_is_due_when_enough_points_and_a_large_enough_share_are_outside(
    points: int, outside: int, due: bool
) -> None:
    assert graph_due(points, outside, min_new=50_000, share=0.1) is due


async def test_a_built_copy_that_lost_points_is_never_swapped_in(tmp_path: Path) -> None:
    class LossyBuild(EdgeIndex):
        def _build_graph(self, path: Path) -> None:
            super()._build_graph(path)
            copy = qe.EdgeShard.load(str(path))
            copy.update(qe.UpdateOperation.delete_points([_point(0).id]))
            copy.close()

    index = LossyBuild(tmp_path / "shard", dim=DIM)
    await index.ensure()
    await index.upsert([_point(n) for n in range(5)])
    with pytest.raises(RuntimeError, match="left 4 points of the 5 copied"):
        await index.optimize()
    assert await _ids(index) == {f"m{n}" for n in range(5)}
    assert sorted(p.name for p in tmp_path.iterdir() if p.is_dir()) == ["shard"]
    await index.close()


async def test_a_shard_made_before_the_keyword_scan_threshold_gets_it_at_start_and_keeps_it_through_a_build(
    tmp_path: Path,
) -> None:
    class MadeBefore(EdgeIndex):  # Qdrant's own default threshold, as shards were made before
        def _config(self) -> qe.EdgeConfig:
            return qe.EdgeConfig(
                vectors={"dense": qe.EdgeVectorParams(size=DIM, distance=qe.Distance.Cosine)},
                sparse_vectors={"bm25": qe.EdgeSparseVectorParams()},
            )

    def threshold(shard_dir: Path) -> object:  # Qdrant Edge keeps a shard's config in this file
        config = json.loads((shard_dir / "edge_config.json").read_text())
        return config["sparse_vectors"]["bm25"].get("full_scan_threshold")

    old = MadeBefore(tmp_path / "shard", dim=DIM)
    await old.ensure()
    await old.upsert([_point(n) for n in range(5)])
    await old.close()
    assert threshold(tmp_path / "shard") is None

    index = EdgeIndex(tmp_path / "shard", dim=DIM)
    await index.ensure()
    assert threshold(tmp_path / "shard") == SPARSE_FULL_SCAN
    assert await _ids(index) == {f"m{n}" for n in range(5)}
    await index.optimize()
    [built] = [p for p in tmp_path.iterdir() if p.is_dir()]
    assert built.name != "shard"  # the built copy is live, and made with the threshold too
    assert threshold(built) == SPARSE_FULL_SCAN
    assert await _ids(index) == {f"m{n}" for n in range(5)}
    await index.close()
