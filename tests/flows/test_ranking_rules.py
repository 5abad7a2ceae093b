"""The ``retrieve_context`` skill on hand-made candidates (no infrastructure): fusion, the blend with
what is known of a memory, and near-duplicate collapse. Assertions compare orders, never scores at a
numeric edge."""

from __future__ import annotations

import math
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from memgw.common.settings import ConsolidationSettings, RankingSettings, Settings
from memgw.common.skills.retrieval import Hit, RankFacts, RetrieveInput
from memgw.gateway.ranking import RetrieveContext, expansion_terms

pytestmark = pytest.mark.unit
NOW = datetime(2026, 6, 1, tzinfo=UTC)
SKILL = RetrieveContext(Settings())
# Both retrievers weigh the same here, so a's dense rank 1 and b's BM25 rank 1 tie before the blend.
EVEN = RetrieveContext(Settings(ranking=RankingSettings(rank_weight_dense=1.0, rank_weight_bm25=1.0)))


def _hits(*ids: str) -> list[Hit]:
    return [Hit(id=i, score=1.0 / (n + 1)) for n, i in enumerate(ids)]


def _facts(
    memory_id: str,
    *,
    importance: float = 0.5,
    confidence: float = 0.8,
    flags: tuple[str, ...] = (),
    age_days: float = 1,
    vector: tuple[float, ...] = (1.0, 0.0),
    text: str | None = None,
    evidence: int = 1,
    source: str = "manual",
    session: str | None = None,
) -> RankFacts:
    return RankFacts(
        id=memory_id,
        importance=importance,
        confidence=confidence,
        evidence_count=evidence,
        source=source,
        flags=list(flags),
        touched_at=NOW - timedelta(days=age_days),
        embedding=list(vector),
        content_hash=text or f"{memory_id}-{vector}",
        session=session,
    )


async def _rank(
    skill: RetrieveContext, dense: tuple, bm25: tuple, facts: list[RankFacts], limit: int = 10
) -> list[Any]:
    data = RetrieveInput(query="q", dense=_hits(*dense), bm25=_hits(*bm25), facts=facts, now=NOW, limit=limit)
    return (await skill.run(data)).ranked


@pytest.mark.parametrize(
    ("dense", "bm25", "first"),
    [
        (("a", "b", "c"), ("a", "c", "b"), "a"),  # first in both lists
        ((), ("x", "y"), "x"),  # one retriever alone still ranks
    ],
)
async def test_fusion_puts_first_what_both_lists_rank_high(dense: tuple, bm25: tuple, first: str) -> None:
    ids = sorted({*dense, *bm25})
    ranked = await _rank(SKILL, dense, bm25, [_facts(i, vector=(1.0, float(n))) for n, i in enumerate(ids)])
    assert ranked[0].id == first
    assert [r.score for r in ranked] == sorted((r.score for r in ranked), reverse=True)


async def test_fusion_keeps_how_far_ahead_a_hit_is() -> None:
    """By far the closest in meaning, in no keyword list: still ahead of hits both lists put in their middle
    (reciprocal rank fusion put it behind them: it keeps ranks only)."""
    dense = [Hit(id="a", score=0.9), Hit(id="b", score=0.5), Hit(id="c", score=0.45), Hit(id="d", score=0.1)]
    bm25 = [Hit(id="x", score=3.0), Hit(id="b", score=1.5), Hit(id="c", score=1.4), Hit(id="y", score=1.0)]
    facts = [_facts(i, vector=(math.cos(n / 2), math.sin(n / 2))) for n, i in enumerate("abcdxy")]  # none alike
    data = RetrieveInput(query="q", dense=dense, bm25=bm25, facts=facts, now=NOW, limit=10)
    order = [r.id for r in (await EVEN.run(data)).ranked]
    assert order.index("a") < order.index("b") < order.index("c")
    assert order.index("b") < order.index("d")
    assert order.index("b") < order.index("y")


async def test_fused_scores_are_shares_of_the_best_possible() -> None:
    """First in every list is 1; a list whose hits all score alike gives each of them 1."""
    ranked = await _rank(SKILL, ("a",), ("a",), [_facts("a")])
    assert ranked[0].components["fused"] == pytest.approx(1.0)
    data = RetrieveInput(
        query="q",
        dense=[Hit(id="a", score=0.7), Hit(id="b", score=0.7)],
        bm25=[],
        facts=[_facts("a"), _facts("b", vector=(0.0, 1.0))],
        now=NOW,
        limit=10,
    )
    assert [r.components["fused"] for r in (await SKILL.run(data)).ranked] == pytest.approx([1.0, 1.0])


async def test_what_the_asker_may_not_read_never_shifts_what_they_may() -> None:
    """Scores are spread over the readable hits only: whether a hidden memory scored far above or below,
    the asker's results score the same (nothing to infer about it)."""
    # a and b support each other in their session; the hidden one, said there too, never does
    facts = [_facts("a", vector=(1.0, 0.0), session="u/s"), _facts("b", vector=(0.0, 1.0), session="u/s")]
    seen = []
    for hidden in (Hit(id="secret", score=0.99), Hit(id="secret", score=0.01)):
        dense = sorted([hidden, Hit(id="a", score=0.8), Hit(id="b", score=0.4)], key=lambda h: -h.score)
        data = RetrieveInput(query="q", dense=dense, bm25=[], facts=facts, now=NOW, limit=10)
        seen.append([(r.id, r.components["fused"], r.components["dense_rank"]) for r in (await SKILL.run(data)).ranked])
    assert seen[0] == seen[1]
    assert [i for i, _, _ in seen[0]] == ["a", "b"]


async def test_a_hit_is_lifted_by_the_other_hits_of_its_session() -> None:
    """y matches the question a little better than x, and both weakly; x was said in the session of the two
    best hits, y alone in its own: x comes first. Turned off, or with no sessions, y is ahead again."""
    dense = [Hit(id="a", score=0.9), Hit(id="b", score=0.8), Hit(id="y", score=0.35), Hit(id="x", score=0.3)]
    bm25 = [Hit(id="a", score=5.0), Hit(id="b", score=4.0), Hit(id="y", score=1.2), Hit(id="x", score=1.0)]
    angles = {"a": 0.0, "b": 0.5, "x": 1.0, "y": 1.5}  # none alike

    async def ranked(skill: RetrieveContext, sessions: dict[str, str]) -> list[Any]:
        facts = [_facts(i, vector=(math.cos(t), math.sin(t)), session=sessions.get(i)) for i, t in angles.items()]
        data = RetrieveInput(query="q", dense=dense, bm25=bm25, facts=facts, now=NOW, limit=10)
        return (await skill.run(data)).ranked

    sessions = {"a": "u/s1", "b": "u/s1", "x": "u/s1", "y": "u/s2"}
    supported = await ranked(SKILL, sessions)
    assert [r.id for r in supported] == ["a", "b", "x", "y"]
    assert supported[2].components["session_support"] > 0
    assert "session_support" not in supported[3].components  # alone in its session
    off = RetrieveContext(Settings(ranking=RankingSettings(rank_weight_session=0)))
    for skill, given in ((off, sessions), (SKILL, {})):
        assert [r.id for r in await ranked(skill, given)] == ["a", "b", "y", "x"]


@pytest.mark.parametrize(
    ("better", "worse"),
    [
        ({"importance": 0.9}, {"importance": 0.1}),
        ({"confidence": 1.0}, {"confidence": 0.2}),
        ({"age_days": 1}, {"age_days": 400}),
        ({"flags": ("useful",)}, {}),
        ({}, {"flags": ("outdated",)}),
        ({"evidence": 8}, {"evidence": 1}),  # said in many sessions
        ({"source": "manual"}, {"source": "memory_source"}),  # a person's word over a synced chunk
    ],
)
async def test_the_blend_lifts_what_is_known_to_be_better_at_equal_relevance(
    better: dict[str, Any], worse: dict[str, Any]
) -> None:
    facts = [_facts("a", vector=(1.0, 0.0), **better), _facts("b", vector=(0.0, 1.0), **worse)]
    for dense, bm25 in ((("a",), ("b",)), (("b",), ("a",))):  # the tie, either way round
        ranked = await _rank(EVEN, dense, bm25, facts)
        assert [r.id for r in ranked] == ["a", "b"]


async def test_credibility_is_the_operators_to_set() -> None:
    trusting = Settings(ranking=RankingSettings(rank_weight_dense=1.0, rank_weight_bm25=1.0))
    trusting.consolidation = ConsolidationSettings(source_credibility={"manual": 0.5})
    facts = [_facts("a", vector=(1.0, 0.0)), _facts("b", vector=(0.0, 1.0), source="memory_source")]
    ranked = await _rank(RetrieveContext(trusting), ("a",), ("b",), facts)
    assert [r.id for r in ranked] == ["b", "a"]


async def test_near_duplicates_fold_into_the_best_and_the_limit_counts_kept_hits_only() -> None:
    facts = [
        _facts("a", vector=(1.0, 0.0), text="A"),
        _facts("a-copy", vector=(1.0, 0.0001)),
        _facts("a-same-text", vector=(0.0, 1.0), text="A"),
        _facts("b", vector=(0.6, 0.8)),
        _facts("c", vector=(-1.0, 0.0)),
    ]
    order = ("a", "a-copy", "a-same-text", "b", "c")
    kept = await _rank(SKILL, order, order, facts, limit=2)
    assert [k.id for k in kept] == ["a", "b"]
    assert kept[0].duplicates == ["a-copy", "a-same-text"]


def test_expansion_terms_are_what_several_of_the_best_hits_share_and_the_query_does_not_say() -> None:
    seeds = [
        "Caroline went to the pottery class on Sunday",
        "The pottery class made Caroline happy",
        "Melanie painted a sunrise",
        "我们决定使用 数据库 迁移",
        "数据库 迁移 失败了",
    ]
    terms = expansion_terms("What did Caroline do on Sunday?", seeds, 5)
    assert terms[:2] == ["class", "pottery"]  # two hits each; the query's own words never come back
    assert {"数据库", "迁移"} <= set(terms)
    assert "painted" not in terms  # one hit only
    assert expansion_terms("anything", ["one text"], 5) == []
