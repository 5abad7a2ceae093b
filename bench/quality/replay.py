"""Fusion replayed offline, conversation by conversation: how the fusion and its weights in quality.md were
checked. The dense and the BM25 list every question of the LoCoMo development slice gets through the API
(top ``DEPTH`` of each, with their scores) are dumped once (``--dump``, ~3 min, to bench/.cache/); then each
fusion is scored on them in seconds. The product's own ``retrieve_context`` skill fuses, with the weights
given (each turn's session read off its dialog id, for the session support); "rank fusion" is the reciprocal
rank fusion the product used before (BM25 weighted 2 : 1, k 30).
Every other part of the blend is the same for every turn here (no importance, feedback or age differs).
Run: `uv run python bench/quality/replay.py [--dump]`.
"""

from __future__ import annotations

import asyncio
import json
import sys
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from harness import running_system
from quality.run import DEFAULT_DATA, KS, ingest, judged, questions, turns

from memgw.common.settings import RankingSettings, Settings
from memgw.common.skills.retrieval import Hit, RankFacts, RetrieveInput
from memgw.gateway.ranking import RetrieveContext

CACHE = Path(__file__).resolve().parents[1] / ".cache" / "quality-lists.json"
DEPTH = 60  # what each retriever hands the fusion for a search of 20 (MEMGW_RANK_DEPTH)
SCORE_OF = {"dense": "dense_score", "sparse": "bm25_score"}
Lists = dict[str, list[tuple[str, float]]]


async def dump() -> list[dict[str, Any]]:
    """Every question's two lists, each (dialog id, the retriever's own score), best first."""
    asked: list[dict[str, Any]] = []
    async with running_system() as system:
        for sample in json.loads(DEFAULT_DATA.read_text()):
            key = await system.user_key(f"locomo_{sample['sample_id']}".replace("-", "_"))
            await ingest(system, key, turns(sample))
            for qa, evidence in questions(sample):
                lists: Lists = {}
                for mode, score in SCORE_OF.items():
                    body = {"query": qa["question"], "limit": DEPTH, "mode": mode, "explain": True}
                    r = await system.client.post("/v1/memory/search", json=body, headers=system.auth(key))
                    r.raise_for_status()
                    hits = r.json()["results"]
                    lists[mode] = [(h["memory"]["metadata"]["dia_id"], h["explain"][score]) for h in hits]
                asked.append(
                    {
                        "conversation": sample["sample_id"],
                        "question": qa["question"],
                        "category": qa["category"],
                        "evidence": sorted(evidence),
                        "lists": lists,
                    }
                )
    CACHE.parent.mkdir(exist_ok=True)
    CACHE.write_text(json.dumps(asked))
    return asked


def rank_fusion(lists: Lists) -> list[str]:
    fused: dict[str, float] = {}
    for mode, weight in (("dense", 1.0), ("sparse", 2.0)):
        for rank, (dia_id, _) in enumerate(lists[mode], start=1):
            fused[dia_id] = fused.get(dia_id, 0.0) + weight / (30 + rank)
    return sorted(fused, key=lambda d: -fused[d])


def skill_fusion(dense_weight: float, session_weight: float = 0.0) -> Callable[[Lists], list[str]]:
    ranking = RankingSettings(
        rank_weight_dense=dense_weight, rank_weight_bm25=1 - dense_weight, rank_weight_session=session_weight
    )
    skill = RetrieveContext(Settings(ranking=ranking))
    now = datetime.now(UTC)

    def fuse(lists: Lists) -> list[str]:
        ids = list(dict.fromkeys(d for mode in SCORE_OF for d, _ in lists[mode]))
        facts = [  # alike in everything the blend weighs; one-hot embeddings, so nothing folds
            RankFacts(
                id=d,
                importance=0.5,
                confidence=0.5,
                touched_at=now,
                content_hash=d,
                embedding=[float(i == n) for i in range(len(ids))],
                session=d.split(":")[0],  # a dialog id is "D<session>:<turn>"
            )
            for n, d in enumerate(ids)
        ]
        data = RetrieveInput(
            query="",
            dense=[Hit(id=d, score=s) for d, s in lists["dense"]],
            bm25=[Hit(id=d, score=s) for d, s in lists["sparse"]],
            facts=facts,
            now=now,
            limit=max(KS),
        )
        return [r.id for r in asyncio.run(skill.run(data)).ranked]

    return fuse


# The two retrievers' weights sum to 1 here; a session support weight of 0.5 weighs like one of them.
FUSIONS: dict[str, Callable[[Lists], list[str]]] = {
    "rank fusion (before)": rank_fusion,
    "scores, dense 0.4 : BM25 0.6": skill_fusion(0.4),
    "scores, 0.5 : 0.5": skill_fusion(0.5),
    "scores, 0.6 : 0.4": skill_fusion(0.6),
    "0.5 : 0.5 + session support 0.25": skill_fusion(0.5, 0.25),
    "0.5 : 0.5 + session support 0.5 (default)": skill_fusion(0.5, 0.5),
    "0.5 : 0.5 + session support 1.0": skill_fusion(0.5, 1.0),
}


def table(asked: list[dict[str, Any]]) -> str:
    conversations = sorted({q["conversation"] for q in asked})
    rows = []
    for name, fuse in FUSIONS.items():
        cells = []
        for group in [*([c] for c in conversations), conversations]:
            chosen = [q for q in asked if q["conversation"] in group]
            got = [judged([[d] for d in fuse(q["lists"])], set(q["evidence"])) for q in chosen]
            cells.append(
                f"{sum(g['recall@10'] for g in got) / len(got):.3f} / {sum(g['mrr'] for g in got) / len(got):.3f}"
            )
        rows.append(f"| {name} | " + " | ".join(cells) + " |")
    head = "| fusion | " + " | ".join(conversations) + " | all |"
    return "recall@10 / MRR\n\n" + "\n".join([head, "|---" * (len(conversations) + 2) + "|", *rows])


if __name__ == "__main__":
    lists = asyncio.run(dump()) if "--dump" in sys.argv or not CACHE.exists() else json.loads(CACHE.read_text())
    print(table(lists))
