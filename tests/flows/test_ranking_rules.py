"""Ranking on hand-made rows (no infrastructure): fusion, the blend with what is known of a memory,
and near-duplicate collapse. Assertions compare orders, never scores at a numeric edge."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from memgw.common.index.base import IndexHit
from memgw.common.settings import RankingSettings
from memgw.gateway import ranking

pytestmark = pytest.mark.unit
NOW = datetime(2026, 6, 1, tzinfo=UTC)
S = RankingSettings()


def _hits(*ids: str) -> list[IndexHit]:
    return [IndexHit(i, 1.0 / (n + 1), {}) for n, i in enumerate(ids)]


def _row(
    *,
    importance: float = 0.5,
    confidence: float = 0.8,
    flags: tuple[str, ...] = (),
    age_days: float = 1,
    vector: tuple[float, ...] = (1.0, 0.0),
    text: str | None = None,
) -> dict[str, Any]:
    touched = NOW - timedelta(days=age_days)
    return {
        "importance": importance,
        "confidence": confidence,
        "flags": list(flags),
        "last_retrieved_at": None,
        "updated_at": touched,
        "embedding": list(vector),
        "content_hash": text or str(vector),
    }


@pytest.mark.parametrize(
    ("dense", "bm25", "first"),
    [
        (("a", "b", "c"), ("a", "c", "b"), "a"),  # first in both lists
        (("a", "b"), ("b", "a"), "b"),  # BM25 weighs twice the dense list
        (("a", "b", "c", "d"), ("d",), "d"),  # a strong keyword hit lifts a weak dense one
        ((), ("x", "y"), "x"),  # one retriever alone still ranks
    ],
)
def test_fusion_orders_by_reciprocal_rank_with_bm25_weighted_higher(dense: tuple, bm25: tuple, first: str) -> None:
    fused = ranking.fuse(_hits(*dense), _hits(*bm25), S)
    assert fused[0].memory_id == first
    assert [r.memory_id for r in fused] == sorted({*dense, *bm25}, key=lambda i: -fused_score(fused, i))


def fused_score(fused: list[ranking.Ranked], memory_id: str) -> float:
    return next(r.score for r in fused if r.memory_id == memory_id)


@pytest.mark.parametrize(
    ("better", "worse"),
    [
        (_row(importance=0.9), _row(importance=0.1)),
        (_row(confidence=1.0), _row(confidence=0.2)),
        (_row(age_days=1), _row(age_days=400)),
        (_row(flags=("useful",)), _row()),
        (_row(), _row(flags=("outdated",))),
    ],
)
def test_the_blend_lifts_what_is_known_to_be_better_at_equal_relevance(
    better: dict[str, Any], worse: dict[str, Any]
) -> None:
    a, b = (ranking.Ranked(i, 0.05, {"rrf": 0.05}) for i in ("a", "b"))
    ranking.blend(a, better, NOW, S)
    ranking.blend(b, worse, NOW, S)
    assert a.score > b.score


def test_a_readers_own_feedback_weighs_like_the_records_flags() -> None:
    mine, theirs = ranking.Ranked("a", 0.05, {"rrf": 0.05}), ranking.Ranked("b", 0.05, {"rrf": 0.05})
    ranking.blend(mine, _row(), NOW, S, frozenset({"outdated"}))
    ranking.blend(theirs, _row(), NOW, S)
    assert mine.score < theirs.score


def test_near_duplicates_fold_into_the_best_and_the_limit_counts_kept_hits_only() -> None:
    rows = {
        "a": _row(vector=(1.0, 0.0)),
        "a-copy": _row(vector=(1.0, 0.0001)),
        "a-same-text": _row(vector=(0.0, 1.0), text="(1.0, 0.0)"),
        "b": _row(vector=(0.6, 0.8)),
        "c": _row(vector=(-1.0, 0.0)),
    }
    ranked = [ranking.Ranked(i, 1.0 - n / 10) for n, i in enumerate(rows)]
    kept = ranking.collapse(ranked, rows, S, limit=2)
    assert [k.memory_id for k in kept] == ["a", "b"]
    assert kept[0].duplicates == ["a-copy", "a-same-text"]
