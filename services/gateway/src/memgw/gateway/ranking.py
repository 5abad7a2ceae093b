"""``retrieve_context``, the gateway's default: how search results are ordered, without an LLM in the loop.

1. A convex combination of the retrievers' scores, each list's scores spread over [0, 1] first (its best
   hit 1, its last 0; a list whose hits all score alike gives each 1): ``fused = Σ w_list · spread_in_list
   / Σ w_list`` over the lists that answered (a list a hit is missing from adds 0). The dense (meaning)
   and BM25 (keyword) lists by default, OpenViking's when it is asked. Unlike reciprocal rank fusion it
   keeps how far ahead a hit is: a turn that is by far the closest in meaning but shares no word with the
   question stays near the top, where RRF put it behind every hit both lists found (Bruch, Gai & Ingber,
   "An Analysis of Fusion Functions for Hybrid Retrieval", ACM TOIS 2023). Only what the asker may read
   is spread: a memory they cannot see never shifts another's score.
   One more "list" joins them when hits share a session: a hit's **session support**, the mean fused
   score of the ``SESSION_SUPPORT_HITS`` best other hits of its session (a missing one counts 0), weighted
   like a retriever's list (``rank_weight_session``). A conversation that is about the question has
   several turns that match it, and the turn that answers it may match it least (a short "yes, last
   Tuesday"): the session's other matches lift it, as a passage is ranked better with its document's
   score beside its own. Hits without a session, or alone in theirs, get no support.
2. A blend with what we know of the memory:
   ``score = fused × (1 + a·(importance − 0.5) + c·(confidence − 0.5) + r·recency + e·evidence) × feedback
   × credibility``, where ``recency = 0.5 ^ (days since last retrieved or updated / half-life)``,
   ``evidence = min(1, log2(evidence count) / 3)`` (a fact said 8 times gets the whole of ``e``),
   ``feedback`` is 1.2 for a memory marked useful and 0.5 for one marked outdated (incorrect ones never
   get here) and ``credibility`` is its source's (MEMGW_SOURCE_CREDIBILITY).
3. Near-duplicate collapse: a hit whose embedding is almost the same as a better one's (or whose
   text is the same) is folded into it, so one fact stored ten times fills one slot, not ten.

The caller hands over only what the asker may read (the ACL is applied before ranking, never by it).
"""

from __future__ import annotations

import heapq
import math
import re
from datetime import datetime
from typing import Any, NamedTuple

import numpy as np

from memgw.common.skills.registry import Skill
from memgw.common.skills.retrieval import RankedContext, RankFacts, RetrieveInput, RetrieveOutput

# How many of a session's other hits support a hit: a session about the question has several turns that
# match it. Any small number helps alike on the LoCoMo development slice (bench/reports/quality.md).
SESSION_SUPPORT_HITS = 3


class RetrieveContext(Skill[RetrieveInput, RetrieveOutput]):
    name = "retrieve_context"
    summary = (
        "Fuse the meaning and keyword retrievers' hits (convex combination), weigh what is known of each,"
        " fold duplicates."
    )
    Input, Output = RetrieveInput, RetrieveOutput

    async def run(self, data: RetrieveInput) -> RetrieveOutput:
        # Every candidate is scored with plain numbers; the answer's models, with their explanations, are
        # made for the few kept only: a model per candidate cost more than the ranking itself.
        facts = {f.id: f for f in data.facts}
        fused, ranks, total = self._fuse(data, facts)
        support = self._session_support(fused, facts)
        weight = self.settings.ranking.rank_weight_session
        if weight and any(support.values()):
            fused = {i: (score * total + weight * support.get(i, 0.0)) / (total + weight) for i, score in fused.items()}
        blends = {memory_id: self._blend(facts[memory_id], data.now) for memory_id in fused}
        order = sorted(fused, key=lambda memory_id: fused[memory_id] * blends[memory_id].factor, reverse=True)
        return RetrieveOutput(
            ranked=[
                self._explained(
                    memory_id, duplicates, fused[memory_id], ranks[memory_id], support.get(memory_id), blends[memory_id]
                )
                for memory_id, duplicates in self._collapse(order, facts, data.limit)
            ]
        )

    def _fuse(
        self, data: RetrieveInput, facts: dict[str, RankFacts]
    ) -> tuple[dict[str, float], dict[str, list[tuple[str, int, float]]], float]:
        """Each readable hit's fused score, its (list, rank, score) in each list that has it, and the weight
        of the lists that answered."""
        s = self.settings.ranking
        lists = (
            ("dense", data.dense, s.rank_weight_dense),
            ("bm25", data.bm25, s.rank_weight_bm25),
            ("openviking", data.openviking, s.rank_weight_openviking),
            ("feedback", data.feedback, s.rank_weight_feedback),
            ("neighbour", data.neighbours, s.rank_weight_neighbours),
        )
        answered = [(name, [h for h in hits if h.id in facts], weight) for name, hits, weight in lists]
        answered = [(name, hits, weight) for name, hits, weight in answered if hits and weight]
        total = sum(weight for _, _, weight in answered)
        fused: dict[str, float] = {}
        ranks: dict[str, list[tuple[str, int, float]]] = {}
        for name, hits, weight in answered:
            low, high = min(h.score for h in hits), max(h.score for h in hits)
            for rank, hit in enumerate(hits, start=1):
                spread = (hit.score - low) / (high - low) if high > low else 1.0
                fused[hit.id] = fused.get(hit.id, 0.0) + weight * spread / total
                ranks.setdefault(hit.id, []).append((name, rank, hit.score))
        return fused, ranks, total

    @staticmethod
    def _session_support(fused: dict[str, float], facts: dict[str, RankFacts]) -> dict[str, float]:
        """Each hit in a session with other hits: the mean fused score of the best ``SESSION_SUPPORT_HITS``
        of those others."""
        by_session: dict[str, list[tuple[float, str]]] = {}
        for memory_id, score in fused.items():
            session = facts[memory_id].session
            if session is not None:
                by_session.setdefault(session, []).append((score, memory_id))
        support: dict[str, float] = {}
        for hits in by_session.values():
            if len(hits) < 2:
                continue
            best = heapq.nlargest(SESSION_SUPPORT_HITS + 1, (score for score, _ in hits))
            for score, memory_id in hits:
                others = list(best)
                if score >= others[-1]:
                    others.remove(score)  # its own score, once (a tie with another removes the same number)
                support[memory_id] = sum(others[:SESSION_SUPPORT_HITS]) / SESSION_SUPPORT_HITS
        return support

    def _blend(self, f: RankFacts, now: datetime) -> _Blend:
        s = self.settings.ranking
        age_days = max(0.0, (now - f.touched_at).total_seconds() / 86400)
        recency = 0.5 ** (age_days / s.rank_recency_half_life_days)
        evidence = min(1.0, math.log2(max(1, f.evidence_count)) / 3)
        feedback = (1.2 if "useful" in f.flags else 1.0) * (0.5 if "outdated" in f.flags else 1.0)
        credibility = self.settings.consolidation.credibility_of(f.source)
        boost = (
            1
            + s.rank_importance * (f.importance - 0.5)
            + s.rank_confidence * (f.confidence - 0.5)
            + s.rank_recency * recency
            + s.rank_evidence * evidence
        )
        factor = boost * feedback * credibility
        return _Blend(factor, f.importance, f.confidence, recency, evidence, feedback, credibility)

    def _collapse(self, order: list[str], facts: dict[str, RankFacts], limit: int) -> list[tuple[str, list[str]]]:
        """Fold near-duplicates into the best-ranked of them (``order`` is best first): the kept ids, each
        with what was folded into it; stop at ``limit`` kept."""
        threshold = self.settings.ranking.rank_duplicate_similarity
        kept: list[tuple[str, list[str]]] = []
        kept_vectors: np.ndarray | None = None  # row n: the n-th kept hit's unit vector
        kept_hashes: dict[str, int] = {}
        for memory_id in order:
            f = facts[memory_id]
            twin = kept_hashes.get(f.content_hash)
            vector = np.asarray(f.embedding, dtype=np.float32)
            vector = vector / (math.sqrt(float(vector @ vector)) or 1.0)
            if twin is None and kept_vectors is not None:
                similarity = kept_vectors[: len(kept)] @ vector
                best = int(similarity.argmax())
                if similarity[best] >= threshold:
                    twin = best
            if twin is not None:
                kept[twin][1].append(memory_id)
                continue
            if len(kept) == limit:
                break
            if kept_vectors is None:
                kept_vectors = np.empty((limit, vector.shape[0]), dtype=np.float32)
            kept_vectors[len(kept)] = vector
            kept_hashes[f.content_hash] = len(kept)
            kept.append((memory_id, []))
        return kept

    @staticmethod
    def _explained(
        memory_id: str,
        duplicates: list[str],
        fused: float,
        ranks: list[tuple[str, int, float]],
        support: float | None,
        blend: _Blend,
    ) -> RankedContext:
        score = fused * blend.factor
        components: dict[str, Any] = {"fused": fused}
        for name, rank, list_score in ranks:
            components[f"{name}_rank"] = rank
            components[f"{name}_score"] = round(list_score, 6)
        if support is not None:
            components["session_support"] = round(support, 6)
        components.update(
            importance=blend.importance,
            confidence=blend.confidence,
            recency=round(blend.recency, 4),
            evidence=round(blend.evidence, 4),
            feedback=blend.feedback,
            credibility=blend.credibility,
            final=round(score, 8),
        )
        return RankedContext(id=memory_id, score=score, components=components, duplicates=duplicates)


class _Blend(NamedTuple):
    """What is known of a candidate, as it weighs on its fused score (``factor``)."""

    factor: float
    importance: float
    confidence: float
    recency: float
    evidence: float
    feedback: float
    credibility: float


# -- a second round seeded by the first (pseudo-relevance feedback) ---------------------------------------

_TERM = re.compile(r"[A-Za-z][A-Za-z'’-]{3,}|[\u3400-\u4dbf\u4e00-\u9fff]{2,}")
_STOP = frozenset(
    "about after again also been before being could does doing done from have having here into just like more "
    "most much only other over same some such than that their them then there these they this those through very "
    "what when where which while will with would your yours really think thing things going know want yeah okay "
    "thanks great good nice sure".split()
)


def expansion_terms(query: str, seeds: list[str], limit: int) -> list[str]:
    """Words the best first-round hits share that the query does not say: the bridge a multi-hop
    question needs (its answer names what the question only implies). A word counts once per hit;
    the words most hits share come first, and a word only one hit has never counts."""
    asked = {t.lower() for t in _TERM.findall(query)}
    shared: dict[str, int] = {}
    for text in seeds:
        for term in {t.lower() for t in _TERM.findall(text)}:
            if term not in asked and term not in _STOP:
                shared[term] = shared.get(term, 0) + 1
    ranked = sorted((t for t, n in shared.items() if n >= 2), key=lambda t: (-shared[t], t))
    return ranked[:limit]
