"""A search, step by step. Each step is a method named for what it does, and timed into the answer's
``Server-Timing``:

1. ``scope``: the reader's filter for the index (``acl.read_where``), narrowed to the namespaces or the
   workspace asked for;
2. ``lists``: the query embedded (``embed``), the dense and keyword lists (``dense``, ``bm25``, the
   keyword list's word weights ``idf``), and OpenViking's list when it is configured;
3. ``recheck``: every hit read again from Postgres under the full read rule, with the reader's own
   judgements of it;
4. ``rank``: the ``retrieve_context`` skill fuses the lists and blends what it knows of each hit; two
   optional rounds add candidates and rank again (``feedback``, ``neighbours``);
5. ``answer``: the hits as records, each marked as found (its recency), and one audit row, written within
   0.2 s of the answer with the rows of searches answered meanwhile (``audit.AllowedBehind``).

The reader may read every hit it is answered: the index filter and the Postgres re-check are the same
rule, rendered twice (``memgw.common.acl``).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, cast

import asyncpg
import numpy as np

from memgw.common.acl import listing, read_where
from memgw.common.db.write_behind import WriteBehind
from memgw.common.domain import MemoryStatus, Principal
from memgw.common.embedding.base import Embedder
from memgw.common.index.base import IndexHit, Match, MatchAny, VectorIndex, Where
from memgw.common.logging import get_logger
from memgw.common.memories import MemoryStore, reads, to_record, vectors_of
from memgw.common.openviking import OpenViking, OpenVikingError
from memgw.common.settings import RankingSettings
from memgw.common.skills import Skills
from memgw.common.skills.retrieval import Hit, RankedContext, RankFacts, RetrieveInput, RetrieveOutput
from memgw.gateway import audit
from memgw.gateway.ranking import RetrieveContext, expansion_terms
from memgw.gateway.schemas import SearchHit, SearchRequest
from memgw.gateway.search_order import Order, SearchOrder
from memgw.gateway.server_timing import note, step

log = get_logger("memgw.gateway.search")


@dataclass
class SearchParts:
    """What every search of one gateway uses."""

    pool: asyncpg.Pool
    store: MemoryStore
    embedder: Embedder
    index: VectorIndex
    ranking: RankingSettings
    skills: Skills
    openviking: OpenViking | None  # one more retriever, when configured
    # When each memory was last found (decay counts from it), written off the search's path: the ids
    # found within 0.2 s go in one UPDATE, so popular memories are not row-locked by every search that
    # finds them. A crash loses that window's: those memories look 0.2 s older, no more.
    marks: WriteBehind[str]
    audit: audit.AllowedBehind  # a search's own row, written off its path (refusals never are)
    order: SearchOrder  # of a search's embedding and lists, when the embedding is on our cores


class Search:
    """One search of one reader (who may search as asked: the caller checked it)."""

    def __init__(self, parts: SearchParts, p: Principal, body: SearchRequest) -> None:
        self.parts, self.p, self.body = parts, p, body
        self.statuses = tuple(body.statuses) or (MemoryStatus.ACTIVE,)
        self.depth = max(parts.ranking.rank_depth, body.limit * 3)
        self.where = self.scope()
        self.rows: dict[str, Any] = {}  # every re-checked hit, by id

    async def run(self) -> list[SearchHit]:
        lists = await self.lists()
        await self.recheck([h.id for h in (*lists.bm25, *lists.dense, *lists.openviking)])
        with step("rank"):
            ranked = await self.rank(lists)
        ranked = await self.feedback_round(lists, ranked)
        ranked = await self.neighbours_round(lists, ranked)
        return await self.answer(ranked)

    # ---- 1. scope

    def scope(self) -> Where:
        where = read_where(self.p, listing(self.statuses))
        if self.body.namespaces:
            where = Where(must=(where, MatchAny("namespace", tuple(self.body.namespaces))))
        if self.body.workspace_id:  # one the key may read (checked by the caller): only its memories
            where = Where(must=(where, Match("workspace_id", self.body.workspace_id)))
        return where

    # ---- 2. lists

    async def lists(self) -> RetrieveInput:
        (dense, bm25), viking = await asyncio.gather(self._index_lists(), self._openviking_list())
        return RetrieveInput(
            query=self.body.query,
            dense=_hits(dense),
            bm25=_hits(bm25),
            openviking=viking,  # ids only: they pass the same read rule in Postgres as the index's do
            facts=[],
            now=datetime.now(UTC),
            limit=self.body.limit,
        )

    async def _index_lists(self) -> tuple[list[IndexHit], list[IndexHit]]:
        body, parts = self.body, self.parts
        keywords = None if body.mode == "dense" else body.query
        # An embedding elsewhere leaves the keyword list to run meanwhile; one on this machine's cores
        # takes the order that has cost less here lately (``search_order``).
        chosen = parts.embedder.shares_cores and body.mode == "hybrid"
        order = parts.order.pick() if chosen else Order.BESIDE
        note("order", order)
        start = time.perf_counter()
        # The embedding is asked for before anything else starts; the words' weights are read from
        # Postgres while it is computed, in either order.
        embedded = asyncio.ensure_future(self._embedded())
        weights = asyncio.ensure_future(self._weighed(keywords)) if keywords is not None else None
        try:
            if order is Order.ALONE:
                await embedded  # the keyword list waits for it
            found = await asyncio.gather(self._dense_list(embedded), self._by_words(keywords, weights))
        except BaseException:
            for started in (embedded, weights):  # none left running unawaited (its failure would be logged as lost)
                if started is not None:
                    started.cancel()
            raise
        if chosen:
            parts.order.took(order, time.perf_counter() - start)
        return found[0], found[1]

    async def _dense_list(self, embedded: Awaitable[list[float] | None]) -> list[IndexHit]:
        return await self._listed("dense", dense=await embedded)

    async def _embedded(self) -> list[float] | None:
        if self.body.mode == "sparse":
            return None
        with step("embed"):
            return await self.parts.embedder.embed_query(self.body.query, scope=self.p.user_id)

    async def _listed(self, name: str, **query: Any) -> list[IndexHit]:
        if all(v is None for v in query.values()):
            return []
        with step(name):
            return await self.parts.index.search(where=self.where, limit=self.depth, **query)

    async def _weighed(self, text: str) -> dict[int, float]:
        with step("idf"):  # how rare each word is among what the reader may read, and nothing else
            return await self.parts.store.keyword_weights(self.p, text)

    async def _by_words(self, text: str | None, weights: Awaitable[dict[int, float]] | None = None) -> list[IndexHit]:
        if text is None:
            return []
        return await self._listed("bm25", text=text, weights=await (weights or self._weighed(text)))

    async def _openviking_list(self) -> list[Hit]:
        viking = self.parts.openviking
        if viking is None or self.body.mode != "hybrid":
            return []
        try:  # optional: a slow or failing OpenViking leaves its list out, never the search
            found = await viking.find(self.body.query, self.depth)
        except OpenVikingError as exc:
            log.warning("search.openviking_failed", error=str(exc)[:300])
            return []
        return [Hit(id=memory_id, score=score) for memory_id, score in found]

    # ---- 3. recheck

    async def recheck(self, ids: list[str]) -> None:
        """Postgres, the truth, re-reads those of ``ids`` not yet read, in one round trip: what the reader
        may not read (now) is dropped. Re-checking the keyword hits early, beside the embedding, saves
        nothing: with the embedder on these cores the early query takes CPU from it, and with a remote
        one the round trip after remains."""
        wanted = [i for i in ids if i not in self.rows]
        with step("recheck"):
            self.rows |= await reads.for_ranking(self.parts.pool, self.p, wanted, self.statuses)

    # ---- 4. rank

    async def rank(self, lists: RetrieveInput) -> RetrieveOutput:
        # What the reader judged incorrect stays out of the reader's results (and only theirs).
        candidates = [r for r in self.rows.values() if "incorrect" not in r["personal_feedback"]]
        embeddings = vectors_of([r["embedding"] for r in candidates])
        facts = [_rank_facts(r, e) for r, e in zip(candidates, embeddings, strict=True)]
        return await self.parts.skills.run(RetrieveContext, lists.model_copy(update={"facts": facts}))

    async def feedback_round(self, lists: RetrieveInput, ranked: RetrieveOutput) -> RetrieveOutput:
        """A second keyword round, seeded by the first round's best (pseudo-relevance feedback)."""
        ranking = self.parts.ranking
        if not (ranking.rank_feedback_terms and self.body.mode == "hybrid" and ranked.ranked):
            return ranked
        seeds = [self.rows[r.id]["content"] for r in ranked.ranked[: ranking.rank_feedback_seeds]]
        extra = expansion_terms(self.body.query, seeds, ranking.rank_feedback_terms)
        if not extra:
            return ranked
        with step("feedback"):
            lists.feedback = _hits(await self._by_words(f"{self.body.query} {' '.join(extra)}"))
            await self.recheck([h.id for h in lists.feedback])
            return await self.rank(lists)

    async def neighbours_round(self, lists: RetrieveInput, ranked: RetrieveOutput) -> RetrieveOutput:
        """The turns around a strong hit, in its session: the question it answers, what came of it."""
        anchors = self.parts.ranking.rank_neighbour_anchors
        if not (anchors and ranked.ranked):
            return ranked
        with step("neighbours"):
            around = await self._neighbours(ranked.ranked[:anchors])
            if not around:
                return ranked
            lists.neighbours = around
            await self.recheck([h.id for h in around])
            return await self.rank(lists)

    async def _neighbours(self, anchors: list[RankedContext]) -> list[Hit]:
        """The memories just before and just after each anchor in its session and namespace, each scored
        as its anchor, in the anchors' order (what the reader may read of them is re-checked after, as
        for every candidate)."""
        rows = await reads.session_neighbours(self.parts.pool, [a.id for a in anchors])
        taken = {a.id for a in anchors}
        around: dict[str, Hit] = {}
        for r in rows:
            if r["id"] not in taken and r["id"] not in around:
                around[r["id"]] = Hit(id=r["id"], score=anchors[r["ord"] - 1].score)
        return list(around.values())

    # ---- 5. answer

    async def answer(self, ranked: RetrieveOutput) -> list[SearchHit]:
        results = [
            SearchHit(
                memory=to_record(self.rows[r.id]),
                score=r.score,
                duplicates=r.duplicates,
                explain=r.components if self.body.explain else None,
            )
            for r in ranked.ranked
        ]
        found = [r.memory.id for r in results]
        self.parts.marks.note(found)
        self.parts.audit.note(
            self.p,
            "memory_search",
            target_type="memory",
            target_id=",".join(found)[:2000] or None,
            reason=f"{len(results)} hits",
        )
        return results


def _rank_facts(row: Any, embedding: np.ndarray) -> RankFacts:
    # Each with the array storage reads as its embedding, not a list of 384 floats made of it.
    return RankFacts(
        id=row["id"],
        importance=row["importance"],
        confidence=row["confidence"],
        evidence_count=row["evidence_count"],
        source=row["source"],
        flags=[*row["flags"], *row["personal_feedback"]],
        touched_at=row["last_retrieved_at"] or row["updated_at"],
        content_hash=row["content_hash"],
        embedding=cast(list[float], embedding),
        session=f"{row['user_id']}/{row['session_id']}" if row["session_id"] else None,
    )


def _hits(found: list[IndexHit]) -> list[Hit]:
    return [Hit(id=h.memory_id, score=h.score) for h in found]
