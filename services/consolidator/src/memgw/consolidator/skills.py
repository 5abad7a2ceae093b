"""The consolidator's default skills (seed 004 §E, §H): whether a candidate becomes long-term memory,
an episode's summary, the same fact said again, and decay. Their contracts are in
``memgw.common.skills.memory``."""

from __future__ import annotations

import math
from typing import Literal

from memgw.common.extraction import summarize
from memgw.common.skills.memory import (
    CommitDecision,
    CommitInput,
    MergeInput,
    MergeOutput,
    PruneDecision,
    PruneInput,
    PruneOutput,
    SummarizeInput,
    SummarizeOutput,
)
from memgw.common.skills.registry import Skill


class CommitMemory(Skill[CommitInput, CommitDecision]):
    """Seed 004 §H step 2: a candidate is scored by importance, repetition and the credibility of its
    source; it becomes long-term memory when the score and its confidence reach the thresholds.
    Each further time it is said adds evidence: a fact said once in passing stays a candidate, said
    again in other sessions it is promoted (its score rises by ``evidence_bonus`` per repetition)."""

    name = "commit_memory"
    summary = "Whether a candidate becomes long-term memory: importance × source credibility + repetition."
    Input, Output = CommitInput, CommitDecision

    async def run(self, data: CommitInput) -> CommitDecision:
        c = self.settings.consolidation
        credibility = c.credibility_of(data.source)
        score = min(1.0, data.importance * credibility + c.evidence_bonus * (data.evidence_count - 1))
        promote = score >= data.min_importance and data.confidence >= data.min_confidence
        reason = (
            f"score {score:.2f} (importance {data.importance:.2f} × credibility {credibility:.2f}"
            f" + {data.evidence_count - 1} repetitions), confidence {data.confidence:.2f}"
            f" (threshold {data.min_importance:.2f}/{data.min_confidence:.2f})"
        )
        return CommitDecision(promote=promote, score=round(score, 4), reason=reason)


class SummarizeEpisode(Skill[SummarizeInput, SummarizeOutput]):
    name = "summarize_episode"
    summary = "The lead sentence of each episode, secrets redacted, within a length."
    Input, Output = SummarizeInput, SummarizeOutput

    async def run(self, data: SummarizeInput) -> SummarizeOutput:
        return SummarizeOutput(summary=summarize(data.episodes, limit=data.limit))


class MergeMemory(Skill[MergeInput, MergeOutput]):
    """Seed 004 §H steps 3–4: the same fact said again adds its evidence to the memory; the surer and
    more important reading wins, nothing is overwritten by a weaker one."""

    name = "merge_memory"
    summary = "The same fact said again: evidence added, the higher confidence and importance kept."
    Input, Output = MergeInput, MergeOutput

    async def run(self, data: MergeInput) -> MergeOutput:
        old, new = data.existing, data.incoming
        return MergeOutput(
            importance=max(old.importance, new.importance),
            confidence=max(old.confidence, new.confidence),
            tags=sorted({*old.tags, *new.tags}),
            evidence_count=old.evidence_count + new.evidence_count,
            sessions=sorted({*old.sessions, *new.sessions}),
            source_refs=sorted({*old.source_refs, *new.source_refs}),
        )


class PruneMemory(Skill[PruneInput, PruneOutput]):
    """Seed 004 §H steps 6–7: a memory not retrieved for long and with little feedback loses importance
    (half-life decay from its base importance); below the floor it is archived. Evidence and
    "useful" feedback stretch its half-life (each doubles it at most once per doubling of the count),
    "outdated" feedback shortens it the same way."""

    name = "prune_memory"
    summary = "Decay of memories not retrieved, slower with evidence and useful feedback; archive below a floor."
    Input, Output = PruneInput, PruneOutput

    async def run(self, data: PruneInput) -> PruneOutput:
        c = self.settings.consolidation
        decisions = []
        for m in data.memories:
            stretch = 1 + math.log2(m.evidence_count) + math.log2(1 + m.useful)
            half_life = c.decay_half_life_days * stretch / (1 + math.log2(1 + m.outdated))
            age = max(0.0, (data.now - m.touched_at).total_seconds()) / 86400
            importance = round(m.base_importance * 0.5 ** (age / half_life), 4)
            if abs(importance - m.importance) < 0.005:
                decisions.append(PruneDecision(id=m.id, action="keep", importance=m.importance, reason="unchanged"))
                continue
            action: Literal["decay", "archive"] = "archive" if importance < c.decay_floor else "decay"
            reason = (
                f"importance {m.importance:.3f} → {importance:.3f} after {age:.1f} days unretrieved"
                f" (half-life {half_life:.1f} d: evidence {m.evidence_count}, useful {m.useful}, outdated {m.outdated})"
            )
            decisions.append(PruneDecision(id=m.id, action=action, importance=importance, reason=reason))
        return PruneOutput(decisions=decisions)
