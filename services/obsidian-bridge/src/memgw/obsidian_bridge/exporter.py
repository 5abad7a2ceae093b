"""Out to the vault: memories worth a person's eye, review drafts, and the pages that list them.

A memory's note is written into the vault of every user who may read it — the memory read rule of
``memgw.common.acl``, the same one search applies, asked for each candidate reader as they stand now
— and removed from every vault where it no longer may be. Never into the vault: episodes and
session traces, source chunks (raw documents and tool output), candidates, what is marked incorrect
or less sure than ``MEMGW_VAULT_MIN_CONFIDENCE``, and anything the secrets detector flags.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import asyncpg

from memgw.common import policy, profiles, reviews
from memgw.common.acl import ReadScope
from memgw.common.domain import MemoryRecord, MemoryStatus, MemoryType, Principal, Visibility
from memgw.common.events import ReviewSettled
from memgw.common.logging import get_logger
from memgw.common.memories import reads
from memgw.common.principals import members_of, principal_of, user_ids
from memgw.common.secrets import contains_secret
from memgw.common.settings import VaultSettings
from memgw.common.skills import Skills
from memgw.obsidian_bridge.notes import index_note, profile_note, review_note, with_meta
from memgw.obsidian_bridge.skills import ExportInput, ExportToObsidian
from memgw.obsidian_bridge.vault import UserVault, Vault

log = get_logger("memgw.obsidian_bridge.export")

VAULT_STATUSES = (MemoryStatus.ACTIVE, MemoryStatus.NEEDS_REVIEW, MemoryStatus.ARCHIVED)
ALWAYS_KEPT = (MemoryType.PROFILE.value, MemoryType.PREFERENCE.value)


REVIEW_QUEUE = "Reviews/Queue"


def review_folder(decision: str) -> str:
    return "Reviews/Rejected" if decision == "keep_old" else "Reviews/Accepted"


def flagged(m: MemoryRecord) -> bool:
    return contains_secret(m.content) or contains_secret(m.summary)


# The pages that list a user's notes are rebuilt once a burst of new and changed notes has settled
# this long, not once per note: each rebuild reads every memory the vault holds, so a rebuild per note
# made a bulk import quadratic (bench/reports/vault_export.md). A note taken out (rights lost,
# deleted, flagged) takes its line out of the pages at once.
PAGES_AFTER_S = 0.5


class Exporter:
    def __init__(self, *, pool: asyncpg.Pool, vault: Vault, settings: VaultSettings, skills: Skills):
        self.pool, self.vault, self.settings, self.skills = pool, vault, settings, skills
        self._pages_due: dict[str, asyncio.Task[None]] = {}

    def worth_a_note(self, m: MemoryRecord) -> bool:
        if m.source_id or m.namespace.startswith("session/"):
            return False
        if m.memory_type == MemoryType.RESOURCE.value or m.status not in VAULT_STATUSES:
            return False
        if "incorrect" in m.flags or m.confidence < self.settings.vault_min_confidence or flagged(m):
            return False
        if m.status is MemoryStatus.NEEDS_REVIEW or m.source == "obsidian" or m.memory_type in ALWAYS_KEPT:
            return True
        return m.importance >= self.settings.vault_min_importance

    async def _may_read(self, p: Principal, memory_id: str) -> bool:
        return memory_id in await reads.readable(self.pool, p, [memory_id], ReadScope(statuses=VAULT_STATUSES))

    async def readers(self, m: MemoryRecord) -> set[str]:
        """The people whose vault may hold this memory: its owner (through the memory's agent, for
        agent-only memories) and, for workspace knowledge, the workspace's members."""
        candidates = {m.user_id}
        if m.visibility is Visibility.WORKSPACE_SHARED and m.workspace_id:
            candidates |= await members_of(self.pool, m.workspace_id)
        out = set()
        for user_id in sorted(candidates):
            agent = m.agent_id if m.visibility is Visibility.AGENT_ONLY and user_id == m.user_id else None
            p = await principal_of(self.pool, user_id, agent)
            if p is not None and await self._may_read(p, m.id):
                out.add(user_id)
        return out

    async def may_hold(self, user_id: str, m: MemoryRecord) -> bool:
        """Whether ``m`` belongs in ``user_id``'s vault now: the one question for what the bridge
        writes out and for which memory a note in that vault may name (a note is a request from
        whoever could write it, so it reaches no further than the export does)."""
        return self.worth_a_note(m) and user_id in await self.readers(m)

    async def _memory(self, memory_id: str) -> MemoryRecord | None:
        return await reads.record(self.pool, memory_id)

    async def memory_changed(self, memory_id: str) -> None:
        m = await self._memory(memory_id)
        readers = await self.readers(m) if m is not None and self.worth_a_note(m) else set()
        for user_id in sorted(set(self.vault.holders(memory_id)) | readers):
            async with self.vault.lock(user_id):
                uv = self.vault.user(user_id)
                current = uv.where(memory_id=memory_id)
                kept = m if m is not None and user_id in readers else None
                if kept is not None:
                    await self._place(uv, kept, current)
                else:
                    for rel in current:
                        uv.remove(rel)
            if kept is None and current:  # what a reader may no longer read leaves the pages now, with its note
                await self._pages_now(user_id)
            else:
                self._pages_soon(user_id)

    def _pages_soon(self, user_id: str) -> None:
        if user_id not in self._pages_due:
            self._pages_due[user_id] = asyncio.create_task(self._pages_later(user_id))

    async def _pages_later(self, user_id: str) -> None:
        await asyncio.sleep(PAGES_AFTER_S)
        del self._pages_due[user_id]  # a change from here on asks for another rebuild
        try:
            async with self.vault.lock(user_id):
                await self._refresh_pages(self.vault.user(user_id))
        except Exception as exc:  # Postgres away: the next change, or the next start, rebuilds them
            log.warning("vault.pages_failed", user=user_id, error=str(exc)[:300])

    async def _pages_now(self, user_id: str) -> None:
        """Rebuild now, and drop a rebuild that was waiting: it would only repeat this one."""
        waiting = self._pages_due.pop(user_id, None)
        if waiting is not None:
            waiting.cancel()
        async with self.vault.lock(user_id):
            await self._refresh_pages(self.vault.user(user_id))

    async def close(self) -> None:
        """Rebuilds still waiting are dropped: every start rebuilds every vault's pages."""
        due = list(self._pages_due.values())
        for task in due:
            task.cancel()
        await asyncio.gather(*due, return_exceptions=True)

    async def _place(self, uv: UserVault, m: MemoryRecord, current: list[str]) -> None:
        if m.status is MemoryStatus.ARCHIVED:
            target = f"Memories/Archived/{m.id}.md"
        else:
            kept = [rel for rel in current if not rel.startswith("Memories/Archived/")]
            target = kept[0] if kept else f"Memories/LongTerm/{m.id}.md"
        existing = uv.read(target)
        if existing is not None and not uv.is_own(target, existing):
            # A person's edit not applied yet: theirs to finish; the importer reads it next.
            log.info("vault.export_deferred", user=uv.user_id, note=target, memory_id=m.id)
            return
        note = await self.skills.run(ExportToObsidian, ExportInput(memory=m))
        uv.write(target, note.markdown, memory_id=m.id, version=m.version)
        for rel in current:
            if rel != target:
                uv.remove(rel)

    async def _refresh_pages(self, uv: UserVault) -> None:
        """The seed's pages of a user's vault (profile, preferences, workspace knowledge, agent
        experience), each a list of links to the notes the vault holds."""
        records = await reads.records(self.pool, uv.memory_ids(), MemoryStatus.ACTIVE)
        mine = [m for m in records if m.user_id == uv.user_id and m.visibility is not Visibility.WORKSPACE_SHARED]
        pages: dict[str, tuple[str, str, list[MemoryRecord]]] = {
            f"Users/{uv.user_id}/Profile.md": (
                "画像 · Profile",
                "memory/profile",
                [m for m in mine if m.memory_type == MemoryType.PROFILE.value],
            ),
            f"Users/{uv.user_id}/Preferences.md": (
                "偏好 · Preferences",
                "memory/preference",
                [m for m in mine if m.memory_type == MemoryType.PREFERENCE.value],
            ),
        }
        for ws in sorted({m.workspace_id for m in records if m.workspace_id} | _existing(uv, "Workspaces")):
            shared = [m for m in records if m.visibility is Visibility.WORKSPACE_SHARED and m.workspace_id == ws]
            pages[f"Workspaces/{ws}/Shared.md"] = (f"{ws} · 共享知识 Shared", "memory/workspace", shared)
        for agent in sorted({m.agent_id for m in mine if m.agent_id} | _existing(uv, "Agents")):
            learned = [m for m in mine if m.agent_id == agent and m.visibility is Visibility.AGENT_ONLY]
            pages[f"Agents/{agent}/Experience.md"] = (f"{agent} · 经验 Experience", "memory/agent-experience", learned)
        for rel, (title, tag, listed) in pages.items():
            uv.write(rel, index_note(title, tag, listed))
        profile = await profiles.profile_of(self.pool, uv.user_id)
        if profile is not None:
            uv.write(f"Profiles/{uv.user_id}.md", profile_note(dict(profile)))

    async def review_requested(self, review_id: str) -> None:
        review = await reviews.get(self.pool, review_id)
        if review is None:
            return
        user_id = review["user_id"]
        p = await principal_of(self.pool, user_id, None)
        if p is None or not policy.decide(p, policy.Action.REVIEW_READ, _review_ref(review)).allowed:
            return
        for memory_id in review["memory_ids"]:
            await self.memory_changed(memory_id)  # the notes the draft links to
        memories = {mid: await self._memory(mid) for mid in review["memory_ids"]}
        withheld = {mid for mid, m in memories.items() if m is not None and flagged(m)}
        async with self.vault.lock(user_id):
            uv = self.vault.user(user_id)
            if uv.where(review_id=review_id):
                return  # drafted already (a redelivery, or a catch-up): the person may be working on it
            if review["status"] == "open":
                rel, status = f"{REVIEW_QUEUE}/{review_id}.md", "open"
            else:
                rel, status = f"{review_folder(review['decision'])}/{review_id}.md", "decided"
            uv.write(rel, review_note(review, memories, withheld, status=status), review_id=review_id)

    async def review_settled(self, settled: ReviewSettled) -> None:
        """What came of a decision (made here or through the API): applied, the draft is filed under
        Accepted or Rejected as decided; not applied, it goes back to the queue, open, with why beside it."""
        async with self.vault.lock(settled.user_id):
            uv = self.vault.user(settled.user_id)
            for rel in uv.where(review_id=settled.review_id):
                text = uv.read(rel)
                if text is None or not uv.is_own(rel, text):
                    continue  # a person's edit waits for the importer
                if settled.applied:
                    uv.clear_error(f"{REVIEW_QUEUE}/{Path(rel).name}")  # of an earlier try that failed
                    target = f"{review_folder(settled.decision)}/{Path(rel).name}"
                    uv.write(
                        target,
                        with_meta(text, status="decided", decision=settled.decision),
                        review_id=settled.review_id,
                    )
                else:
                    target = f"{REVIEW_QUEUE}/{Path(rel).name}"
                    uv.write(target, with_meta(text, status="open", decision=None), review_id=settled.review_id)
                    uv.error_note(target, f"the decision {settled.decision} was not applied: {settled.reason}")
                if target != rel:
                    uv.remove(rel)

    async def access_changed(self, user_id: str | None, workspace_id: str | None = None) -> None:
        """Someone's rights changed: their vault, or every vault's notes of the workspace whose members
        or agents changed, brought in line with what each reader may read now."""
        if user_id:
            await self.export_user(user_id)
        if workspace_id:
            for memory_id in await reads.workspace_ids_of(self.pool, workspace_id, VAULT_STATUSES):
                await self.memory_changed(memory_id)
        if not (user_id or workspace_id):
            for someone in self.vault.existing_users():
                await self.export_user(someone)

    async def export_user(self, user_id: str) -> int:
        """Write every note the user's vault should hold now, and take out what it may no longer hold;
        return how many memories were looked at."""
        held = self.vault.user(user_id).memory_ids()
        p = await principal_of(self.pool, user_id, None)  # gone or disabled: only their own notes go
        workspaces = sorted(p.workspace_ids) if p is not None else []
        wanted = await reads.vault_ids(self.pool, user_id, workspaces, VAULT_STATUSES)
        for memory_id in sorted(wanted | held):
            await self.memory_changed(memory_id)
        for review in await reviews.listing(self.pool, user_id=user_id, status="open"):
            await self.review_requested(review["id"])
        await self._pages_now(user_id)
        return len(wanted)

    async def start(self) -> None:
        """On every start: the seed's tree for every active user, and every vault brought in line with
        what its user may read now (what changed, and rights lost, while the bridge was away)."""
        for user_id in await user_ids(self.pool):
            try:
                self.vault.user(user_id)
            except ValueError:
                continue  # an id that cannot name a folder has no vault
        for user_id in self.vault.existing_users():  # every vault on disk is loaded, and checked
            await self.export_user(user_id)


def _review_ref(review: dict[str, Any]) -> policy.OwnedRef:
    return policy.OwnedRef("review", review["id"], review["user_id"])


def _existing(uv: UserVault, folder: str) -> set[str]:
    base = uv.root / folder
    return {p.name for p in base.iterdir() if p.is_dir()} if base.exists() else set()
