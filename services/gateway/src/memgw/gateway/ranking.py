"""How search results are ordered, without an LLM in the loop.

1. Reciprocal rank fusion of the dense (meaning) and BM25 (keyword) lists:
   ``rrf = w_dense / (k + rank_dense) + w_bm25 / (k + rank_bm25)`` (a list a hit is missing from adds 0).
2. A blend with what we know of the memory:
   ``score = rrf × (1 + a·(importance − 0.5) + c·(confidence − 0.5) + r·recency) × feedback``,
   where ``recency = 0.5 ^ (days since last retrieved or updated / half-life)`` and ``feedback`` is
   1.2 for a memory marked useful and 0.5 for one marked outdated (incorrect ones never get here).
3. Near-duplicate collapse: a hit whose embedding is almost the same as a better one's (or whose
   text is the same) is folded into it, so one fact stored ten times fills one slot, not ten.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from memgw.common.index.base import IndexHit
from memgw.common.settings import RankingSettings


@dataclass
class Ranked:
    memory_id: str
    score: float
    components: dict[str, Any] = field(default_factory=dict)
    duplicates: list[str] = field(default_factory=list)


def fuse(dense: list[IndexHit], bm25: list[IndexHit], s: RankingSettings) -> list[Ranked]:
    fused: dict[str, Ranked] = {}
    for name, hits, weight in (("dense", dense, s.rank_weight_dense), ("bm25", bm25, s.rank_weight_bm25)):
        for rank, hit in enumerate(hits, start=1):
            entry = fused.setdefault(hit.memory_id, Ranked(hit.memory_id, 0.0, {"rrf": 0.0}))
            entry.components[f"{name}_rank"] = rank
            entry.components[f"{name}_score"] = round(hit.score, 6)
            entry.components["rrf"] += weight / (s.rank_rrf_k + rank)
    for entry in fused.values():
        entry.score = entry.components["rrf"]
    return sorted(fused.values(), key=lambda r: r.score, reverse=True)


def blend(entry: Ranked, row: Any, now: datetime, s: RankingSettings) -> None:
    touched = row["last_retrieved_at"] or row["updated_at"]
    age_days = max(0.0, (now - touched).total_seconds() / 86400)
    recency = 0.5 ** (age_days / s.rank_recency_half_life_days)
    flags = set(row["flags"])
    feedback = (1.2 if "useful" in flags else 1.0) * (0.5 if "outdated" in flags else 1.0)
    boost = (
        1
        + s.rank_importance * (row["importance"] - 0.5)
        + s.rank_confidence * (row["confidence"] - 0.5)
        + s.rank_recency * recency
    )
    entry.score = entry.components["rrf"] * boost * feedback
    entry.components.update(
        importance=row["importance"],
        confidence=row["confidence"],
        recency=round(recency, 4),
        feedback=feedback,
        final=round(entry.score, 8),
    )


def _cosine(a: list[float], b: list[float]) -> float:
    dot = sum(x * y for x, y in zip(a, b, strict=True))
    norm = math.sqrt(sum(x * x for x in a)) * math.sqrt(sum(y * y for y in b))
    return dot / norm if norm else 0.0


def collapse(ranked: list[Ranked], rows: dict[str, Any], s: RankingSettings) -> list[Ranked]:
    """Fold near-duplicates into the best-ranked of them (ranked is best first)."""
    kept: list[Ranked] = []
    for entry in ranked:
        row = rows[entry.memory_id]
        twin = next(
            (
                k
                for k in kept
                if rows[k.memory_id]["content_hash"] == row["content_hash"]
                or _cosine(rows[k.memory_id]["embedding"], row["embedding"]) >= s.rank_duplicate_similarity
            ),
            None,
        )
        if twin is None:
            kept.append(entry)
        else:
            twin.duplicates.append(entry.memory_id)
    return kept
