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

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

import numpy as np

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


def blend(entry: Ranked, row: Any, now: datetime, s: RankingSettings, personal: frozenset[str] = frozenset()) -> None:
    """``personal``: the asker's own feedback on this memory (it weighs like the record's flags)."""
    touched = row["last_retrieved_at"] or row["updated_at"]
    age_days = max(0.0, (now - touched).total_seconds() / 86400)
    recency = 0.5 ** (age_days / s.rank_recency_half_life_days)
    flags = set(row["flags"]) | personal
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


def collapse(ranked: list[Ranked], rows: dict[str, Any], s: RankingSettings, limit: int) -> list[Ranked]:
    """Fold near-duplicates into the best-ranked of them (ranked is best first); stop at ``limit``."""
    kept: list[Ranked] = []
    kept_vectors: list[np.ndarray] = []
    kept_hashes: dict[str, Ranked] = {}
    for entry in ranked:
        row = rows[entry.memory_id]
        twin = kept_hashes.get(row["content_hash"])
        vector = np.asarray(row["embedding"], dtype=np.float32)
        vector /= np.linalg.norm(vector) or 1.0
        if twin is None and kept_vectors:
            similarity = np.stack(kept_vectors) @ vector
            best = int(similarity.argmax())
            if similarity[best] >= s.rank_duplicate_similarity:
                twin = kept[best]
        if twin is not None:
            twin.duplicates.append(entry.memory_id)
            continue
        if len(kept) == limit:
            break
        kept.append(entry)
        kept_vectors.append(vector)
        kept_hashes[row["content_hash"]] = entry
    return kept
