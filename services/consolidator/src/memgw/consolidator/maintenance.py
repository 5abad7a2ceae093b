"""The consolidator's schedule: decay, archive, prune, purge, profile evolution.

Every function takes ``now`` (so tests drive the clock) and ``dry_run`` (so a person can see what
would change: ``memgw consolidate --user ID --dry-run``). Decay is the ``prune_memory`` skill's
decision, from the last retrieval (or creation) with a half-life, never compounded: importance =
base × 0.5^(age / half-life), base remembered in the metadata the first time a memory decays, the
half-life stretched by evidence and useful feedback and shortened by outdated feedback.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

import asyncpg

from memgw.common import profiles, sessions
from memgw.common.domain import MemoryStatus, MemoryType
from memgw.common.logging import get_logger
from memgw.common.memories import MemoryStore, reads
from memgw.common.principals import user_ids
from memgw.common.settings import ConsolidationSettings
from memgw.common.skills import Skills
from memgw.common.skills.memory import PruneFacts, PruneInput
from memgw.consolidator.profile_attributes import attribute_of, is_working_style
from memgw.consolidator.service import ACTOR, audit
from memgw.consolidator.skills import PruneMemory

log = get_logger("memgw.consolidator.maintenance")
# Profile memories are exempt from decay; so are memory-source chunks, whose life belongs to their
# source's syncs (an unchanged item is never ingested again, so a pruned chunk would not come back).
_EXEMPT_TYPES = (MemoryType.PROFILE.value, MemoryType.RESOURCE.value)


@dataclass
class Plan:
    decayed: list[dict[str, Any]] = field(default_factory=list)
    archived: list[str] = field(default_factory=list)
    deleted: list[str] = field(default_factory=list)
    expired_candidates: list[str] = field(default_factory=list)
    purged_episodes: int = 0
    empty_keyword_counts: int = 0
    profile: dict[str, Any] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        return {
            "decayed": self.decayed,
            "archived": self.archived,
            "deleted": self.deleted,
            "expired_candidates": self.expired_candidates,
            "purged_episodes": self.purged_episodes,
            "empty_keyword_counts": self.empty_keyword_counts,
            "profile": self.profile,
        }


class Maintenance:
    def __init__(self, *, pool: asyncpg.Pool, store: MemoryStore, settings: ConsolidationSettings, skills: Skills):
        self.pool, self.store, self.settings, self.skills = pool, store, settings, skills

    async def run(self, now: datetime, *, user_id: str | None = None, dry_run: bool = False) -> Plan:
        plan = Plan()
        await self._decay(now, user_id, dry_run, plan)
        await self._prune(now, user_id, dry_run, plan)
        if user_id is None:
            plan.purged_episodes = await self._purge_episodes(now, dry_run)
            # Counts of words no standing memory holds any more: kept by no one user, so by the round of all.
            plan.empty_keyword_counts = await self.store.forget_empty_keyword_counts(dry_run=dry_run)
        users = [user_id] if user_id else await user_ids(self.pool, active_only=False)
        for uid in users:
            change = await self.evolve_profile(uid, dry_run=dry_run)
            if change:
                plan.profile[uid] = change
        return plan

    async def _decay(self, now: datetime, user_id: str | None, dry_run: bool, plan: Plan) -> None:
        """What ``prune_memory`` decides for every memory that may decay, applied."""
        rows = await reads.decaying(self.pool, list(_EXEMPT_TYPES), user_id)
        by_id = {r["id"]: r for r in rows}
        facts = [
            PruneFacts(
                id=r["id"],
                importance=r["importance"],
                base_importance=float(r["metadata"].get("base_importance", r["importance"])),
                touched_at=r["last_retrieved_at"] or r["created_at"],
                evidence_count=r["evidence_count"],
                useful=r["useful"],
                outdated=r["outdated"],
            )
            for r in rows
        ]
        decided = await self.skills.run(PruneMemory, PruneInput(memories=facts, now=now))
        for d in decided.decisions:
            if d.action == "keep":
                continue
            row, archive = by_id[d.id], d.action == "archive"
            plan.decayed.append({"id": d.id, "from": row["importance"], "to": d.importance})
            if archive:
                plan.archived.append(d.id)
            if dry_run:
                continue
            base = float(row["metadata"].get("base_importance", row["importance"]))
            changes: dict[str, Any] = {
                "importance": d.importance,
                "metadata": {**row["metadata"], "base_importance": base},
            }
            if archive:
                changes["status"] = MemoryStatus.ARCHIVED.value
            async with self.pool.acquire() as conn, conn.transaction():
                await self.store.update(conn, d.id, changes, actor=ACTOR, change="archived" if archive else "updated")
                await audit(conn, row["user_id"], "archive" if archive else "decay", d.id, d.reason, row["namespace"])
            await self.store.sync_index(upserted=[d.id])

    async def _prune(self, now: datetime, user_id: str | None, dry_run: bool, plan: Plan) -> None:
        retention = now - timedelta(days=self.settings.archive_retention_days)
        # What this round archived waits out its own retention.
        old = await reads.archived_before(self.pool, retention, user_id, plan.archived)
        expired = await reads.expired_candidates(self.pool, now, user_id)
        plan.deleted += [r["id"] for r in old]
        plan.expired_candidates += [r["id"] for r in expired]
        if dry_run:
            return
        # Seed 004 §H step 7: a candidate that expired unpromoted is archived (a person can still find
        # it on request and bring it back); it goes when archived memories do, after the retention.
        for row in expired:
            async with self.pool.acquire() as conn, conn.transaction():
                archived = {"status": MemoryStatus.ARCHIVED.value, "expires_at": None}
                await self.store.update(conn, row["id"], archived, actor=ACTOR, change="archived")
                await audit(
                    conn, row["user_id"], "archive", row["id"], "candidate expired without promotion", row["namespace"]
                )
        await self.store.sync_index(upserted=[r["id"] for r in expired])
        for row in old:
            async with self.pool.acquire() as conn, conn.transaction():
                await self.store.delete(conn, row["id"], actor=ACTOR)
                reason = f"archived longer than {self.settings.archive_retention_days} days"
                await audit(conn, row["user_id"], "prune", row["id"], reason, row["namespace"])
        await self.store.sync_index(deleted=[r["id"] for r in old])

    async def _purge_episodes(self, now: datetime, dry_run: bool) -> int:
        """Expired session episodes go; their audit rows stay."""
        if dry_run:
            return await sessions.count_expired_episodes(self.pool, now)
        async with self.pool.acquire() as conn, conn.transaction():
            purged, of_sessions = await sessions.purge_expired(conn, now)
            if purged:
                await audit(conn, None, "purge_episodes", None, f"{purged} expired episodes of {of_sessions} sessions")
        return purged

    async def evolve_profile(self, user_id: str, *, dry_run: bool = False) -> dict[str, Any]:
        """Preferences and stable facts with enough evidence (count and distinct sessions) enter the
        profile; one conversation alone never changes it. When new evidence arrives the profile is
        drawn again from every such memory: each preference under the attribute it is about (the
        newest wins), how the person works under ``working_style``, the rest as stable facts."""
        rows = await reads.evidenced(self.pool, user_id, self.settings.profile_min_evidence)
        strong = [r for r in rows if len(set(r["metadata"].get("sessions", []))) >= self.settings.profile_min_sessions]
        if not strong:
            return {}
        profile = await profiles.profile_of(self.pool, user_id)
        known = set(profile["updated_from_memory_ids"]) if profile else set()
        fresh = [r for r in strong if r["id"] not in known]
        if not fresh:
            return {}
        preferences: dict[str, str] = {}
        sources: dict[str, str] = {}  # attribute → the memory that states it (the vault links to it)
        facts: list[str] = []
        style: list[str] = []
        for r in strong:
            text = r["content"]
            if is_working_style(text):
                style += [] if text in style else [text]
            elif r["memory_type"] == "preference":
                key = attribute_of(text) or f"preference_{sum(k.startswith('preference_') for k in preferences) + 1}"
                preferences[key], sources[key] = text, r["id"]
            elif text not in facts:
                facts.append(text)
        added = [r["id"] for r in fresh]
        change = {
            "added_from": added,
            "preferences": len(preferences),
            "stable_facts": len(facts),
            "working_style": len(style),
        }
        if dry_run:
            return change
        async with self.pool.acquire() as conn, conn.transaction():
            row = await profiles.draw(
                conn,
                user_id,
                preferences=preferences,
                sources=sources,
                facts=facts,
                style=style,
                from_memory_ids=sorted(r["id"] for r in strong),
            )
            await audit(
                conn,
                user_id,
                "profile_update",
                user_id,
                f"version {row['version']}: from memories {', '.join(added)}",
            )
        return change
