"""In from the vault: a person's decisions and edits, applied as that person, under the one policy.

- a review draft moved to ``Reviews/Accepted|Rejected``, or given a ``decision`` property, is sent to
  the consolidator as ReviewDecided (``edit`` takes the text under "Your version"); the note says
  ``deciding`` until the consolidator settles it: filed as decided when applied, back in the queue
  with why beside it when not;
- an exported memory note whose text changed becomes a new version of that memory (``source:
  obsidian``, ``source_ref`` the note's path), unless the memory changed meanwhile;
- a new note under ``Users/{user}/LongTerm/`` becomes a memory of that user.

What the bridge wrote itself (its hash is in the manifest) is never applied, so nothing loops. A note
that cannot be applied is left exactly as it is, with a note beside it saying why; nothing is half
applied. Every refusal of the policy is audited.
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any, Literal

import asyncpg
from pydantic import TypeAdapter, ValidationError

from memgw.common import audit_log, policy, reviews
from memgw.common.bus import BusLayout
from memgw.common.db.outbox import enqueue
from memgw.common.db.pool import Executor
from memgw.common.domain import MemoryContent, MemoryRecord, MemoryType, Visibility
from memgw.common.embedding.base import Embedder
from memgw.common.events import ReviewDecided
from memgw.common.logging import get_logger
from memgw.common.memories import MemoryStore, NewMemory, reads
from memgw.common.namespaces import derive_namespace
from memgw.common.principals import principal_of
from memgw.common.secrets import SecretRefused
from memgw.common.skills import Skills
from memgw.obsidian_bridge.exporter import Exporter
from memgw.obsidian_bridge.notes import (
    DECISIONS,
    BrokenNote,
    Note,
    parse,
    with_meta,
    your_version,
)
from memgw.obsidian_bridge.skills import ExportInput, ExportToObsidian, ImportFromObsidian, ImportInput
from memgw.obsidian_bridge.vault import UnreadableNote, UserVault, Vault, is_note

log = get_logger("memgw.obsidian_bridge.import")
_CONTENT: TypeAdapter[str] = TypeAdapter(MemoryContent)
_FOLDER_DECISION = {"Accepted": "accept_new", "Rejected": "keep_old"}
NEW_NOTE_TYPES = tuple(t.value for t in MemoryType if t is not MemoryType.RESOURCE)


class NotApplied(Exception):
    """Why a person's note was left as it is."""


def _content(text: str) -> str:
    try:
        return _CONTENT.validate_python(text)
    except ValidationError as exc:
        raise NotApplied(f"the text cannot be a memory: {exc.errors(include_url=False)[0]['msg']}") from exc


def _unit(meta: dict[str, Any], name: str, default: float) -> float:
    value = meta.get(name, default)
    if isinstance(value, bool) or not isinstance(value, int | float) or not 0 <= value <= 1:
        raise NotApplied(f"the property {name} must be a number from 0 to 1, not {value!r}")
    return float(value)


class Importer:
    def __init__(
        self,
        *,
        pool: asyncpg.Pool,
        store: MemoryStore,
        embedder: Embedder,
        layout: BusLayout,
        vault: Vault,
        skills: Skills,
        exporter: Exporter,
    ) -> None:
        self.pool, self.store, self.embedder, self.layout, self.vault = pool, store, embedder, layout, vault
        self.skills, self.exporter = skills, exporter

    async def _note(self, m: MemoryRecord) -> str:
        return (await self.skills.run(ExportToObsidian, ExportInput(memory=m))).markdown

    async def _text(self, note: Note) -> tuple[str | None, str]:
        read = await self.skills.run(ImportFromObsidian, ImportInput(body=note.body))
        return read.summary, read.content

    async def apply(self, user_id: str, rel: Path) -> str:
        """Apply what a person did to one note; return what happened (for logs, status and tests)."""
        if not is_note(rel):
            return "ignored"
        async with self.vault.lock(user_id):
            uv = self.vault.user(user_id)
            try:
                text = uv.read(rel)
                if text is None:
                    uv.forget(rel)  # deleted or moved away; a move shows up again at its new path
                    return "gone"
                if uv.is_own(rel, text):
                    return "own"
                outcome = await self._apply(uv, rel, text, parse(text))
            except (BrokenNote, NotApplied, UnreadableNote, SecretRefused) as exc:
                uv.error_note(rel, str(exc))
                log.info("vault.not_applied", user=user_id, note=str(rel), reason=str(exc))
                return "error"
            uv.clear_error(rel)
            log.info("vault.applied", user=user_id, note=str(rel), outcome=outcome)
            return outcome

    async def catch_up(self) -> dict[str, int]:
        """Apply what people changed while the bridge was away (a hash differs from the manifest)."""
        outcomes: dict[str, int] = {}
        for user_id in self.vault.existing_users():
            try:
                uv = self.vault.user(user_id)
                rels = sorted({*map(Path, uv.manifest), *uv.notes()})  # each note once, gone ones too
            except Exception:  # a folder that cannot be read is its owner's problem, no one else's
                log.exception("vault.folder_unreadable", user=user_id)
                outcomes["failed"] = outcomes.get("failed", 0) + 1
                continue
            for rel in rels:
                try:
                    outcome = await self.apply(user_id, rel)
                except Exception:  # one note's failure is its own: every other note, any user's, goes on
                    log.exception("vault.apply_failed", user=user_id, note=str(rel))
                    outcome = "failed"
                outcomes[outcome] = outcomes.get(outcome, 0) + 1
        return outcomes

    async def _apply(self, uv: UserVault, rel: Path, text: str, note: Note) -> str:
        if note.meta.get("review_id"):
            return await self._decide(uv, rel, text, note)
        if note.meta.get("memory_id"):
            return await self._edit(uv, rel, text, note)
        if rel.parts[:3] == ("Users", uv.user_id, "LongTerm"):
            return await self._create(uv, rel, note)
        return "ignored"

    async def _require(
        self,
        user_id: str,
        agent_id: str | None,
        action: policy.Action,
        ref: policy.Resource,
        *,
        operation: str,
        target: str,
        kind: str,
    ) -> None:
        """The person, as they stand now, may do this, or NotApplied with the policy's reason (audited)."""
        p = await principal_of(self.pool, user_id, agent_id)
        verdict = policy.decide(p, action, ref) if p else policy.Decision(False, "the user is disabled")
        if verdict.allowed:
            return
        await self._audit(self.pool, user_id, operation, kind, target, f"{verdict.reason} (obsidian)", decision="deny")
        raise NotApplied(f"not allowed: {verdict.reason}")

    @staticmethod
    async def _audit(
        db: Executor,
        user_id: str,
        action: str,
        kind: str,
        target: str,
        reason: str,
        *,
        namespace: str | None = None,
        decision: Literal["allow", "deny"] = "allow",
    ) -> None:
        await audit_log.write(
            db,
            actor_user_id=user_id,
            actor_agent_id=None,
            action=action,
            decision=decision,
            reason=reason,
            target_type=kind,
            targets=[(target, namespace)],
        )

    # -- decisions -----------------------------------------------------------------------------------

    async def _decide(self, uv: UserVault, rel: Path, text: str, note: Note) -> str:
        review_id = str(note.meta["review_id"])
        review = await reviews.get(self.pool, review_id)
        if review is None or review["user_id"] != uv.user_id:
            raise NotApplied(f"there is no review {review_id} in your queue")
        if review["status"] != "open":
            uv.applied(rel, text, review_id=review_id)
            return "decided already"
        folder = rel.parts[1] if len(rel.parts) > 2 and rel.parts[0] == "Reviews" else ""
        decision = note.meta.get("decision") or _FOLDER_DECISION.get(folder)
        if not decision:
            uv.applied(rel, text, review_id=review_id)
            return "waiting"
        if decision not in DECISIONS:
            raise NotApplied(f"decision must be one of {', '.join(DECISIONS)}, not {decision!r}")
        edited = _content(your_version(note.body)) if decision == "edit" else None
        ref = policy.OwnedRef("review", review_id, review["user_id"])
        await self._require(
            uv.user_id,
            None,
            policy.Action.REVIEW_DECIDE,
            ref,
            operation="review_decide",
            target=review_id,
            kind="review",
        )
        async with self.pool.acquire() as conn, conn.transaction():
            await enqueue(
                conn,
                self.layout,
                ReviewDecided(review_id=review_id, decision=decision, edited_content=edited, decided_by=uv.user_id),
            )
            await self._audit(conn, uv.user_id, "review_decide", "review", review_id, f"{decision} (obsidian: {rel})")
        # Sent, not yet applied: the note is filed as decided when ReviewSettled says so (exporter).
        uv.write(rel, with_meta(text, status="deciding", decision=decision), review_id=review_id)
        return "deciding"

    # -- edits of exported notes ---------------------------------------------------------------------

    async def _held(self, uv: UserVault, memory_id: str) -> MemoryRecord:
        """The memory a note names, when it is one this vault may hold; the note's words alone grant
        nothing. One answer for a memory that is gone and one that is not the person's to see, so a
        note cannot tell whether another user's id exists; the refusal is audited."""
        m = await reads.record(self.pool, memory_id)
        if m is not None and await self.exporter.may_hold(uv.user_id, m):
            return m
        if m is not None:
            reason = "a note named a memory this vault may not hold (not readable, flagged or not exported) (obsidian)"
            await self._audit(self.pool, uv.user_id, "memory_get", "memory", memory_id, reason, decision="deny")
        raise NotApplied(f"there is no memory {memory_id} in your vault")

    async def _edit(self, uv: UserVault, rel: Path, text: str, note: Note) -> str:
        memory_id = str(note.meta["memory_id"])
        m = await self._held(uv, memory_id)
        summary, content = await self._text(note)
        changes: dict[str, Any] = {}
        if content != m.content.strip():
            changes["content"] = _content(content)
        if summary is not None and summary != m.summary:
            changes["summary"] = summary
        if not changes:
            uv.applied(rel, text, memory_id=memory_id, version=m.version)
            return "unchanged"
        written = uv.manifest.get(str(rel))
        known = written.version if written and written.memory_id == memory_id else note.meta.get("version")
        if not isinstance(known, int) or known < m.version:
            return await self._conflict(uv, rel, text, m, known)
        await self._may_write(uv.user_id, m)
        if "content" in changes:
            [changes["embedding"]] = await self.store.embed_passages([content], self.embedder, tenant=m.user_id)
            changes["embedding_model"] = self.embedder.name
        changes |= {"source": "obsidian", "source_ref": str(rel)}
        async with self.pool.acquire() as conn, conn.transaction():
            current = await reads.locked_version(conn, memory_id)
            if current != m.version:
                raise NotApplied(f"memory {memory_id} changed while this edit was applied; save the note again")
            record = await self.store.update(conn, memory_id, changes, actor=uv.user_id)
            await self._audit(
                conn, uv.user_id, "memory_update", "memory", memory_id, f"obsidian: {rel}", namespace=m.namespace
            )
        await self.store.sync_index(upserted=[memory_id])
        uv.applied(rel, text, memory_id=memory_id, version=record.version)
        return "edited"

    async def _conflict(self, uv: UserVault, rel: Path, text: str, m: MemoryRecord, known: object) -> str:
        """The memory moved on since the note was written: the person's text is kept in a copy beside
        it, the note shows the memory as it is now, and nothing is applied."""
        copy = rel.with_name(f"{rel.stem} (your edit {hashlib.sha256(text.encode()).hexdigest()[:6]}).md")
        uv.path(copy).write_text(with_meta(text, memory_id=None, conflict_of=m.id), encoding="utf-8")
        uv.write(rel, await self._note(m), memory_id=m.id, version=m.version)
        uv.error_note(
            rel,
            f"Memory {m.id} changed since this note was written (version {known} → {m.version}). Your text is"
            f" in “{copy.name}”; the note now shows version {m.version}. Edit it again to apply your change.\n"
            f"这条记忆在你编辑期间已被修改；你的文字保存在“{copy.name}”，请在最新版本上重新编辑。",
        )
        return "conflict"

    async def _may_write(self, user_id: str, m: MemoryRecord) -> None:
        agent = m.agent_id if m.visibility is Visibility.AGENT_ONLY and m.user_id == user_id else None
        ref = policy.MemoryRef(m.user_id, m.agent_id, m.visibility.value, m.workspace_id)
        await self._require(
            user_id, agent, policy.Action.MEMORY_WRITE, ref, operation="memory_update", target=m.id, kind="memory"
        )

    # -- new notes -----------------------------------------------------------------------------------

    async def _create(self, uv: UserVault, rel: Path, note: Note) -> str:
        summary, content = await self._text(note)
        content = content or summary or ""
        if not content.strip():
            return "empty"  # a note just created; its text comes with a later save
        content = _content(content)
        memory_type = str(note.meta.get("memory_type") or MemoryType.NOTE.value)
        if memory_type not in NEW_NOTE_TYPES:
            raise NotApplied(f"memory_type must be one of {', '.join(NEW_NOTE_TYPES)}, not {memory_type!r}")
        importance = _unit(note.meta, "importance", 0.7)
        confidence = _unit(note.meta, "confidence", 0.9)
        raw_tags = note.meta.get("tags") or []
        tags = [str(t) for t in raw_tags if not str(t).startswith(("memory/", "source/", "visibility/"))][:32]
        ref = policy.MemoryRef(uv.user_id, None, Visibility.PRIVATE.value, None)
        await self._require(
            uv.user_id, None, policy.Action.MEMORY_WRITE, ref, operation="memory_upsert", target=str(rel), kind="memory"
        )
        [vector] = await self.store.embed_passages([content], self.embedder, tenant=uv.user_id)
        namespace = derive_namespace(
            memory_type=memory_type, visibility=Visibility.PRIVATE, user_id=uv.user_id, agent_id=None, workspace_id=None
        )
        # The id follows from the note's path: applying the same new note twice (a crash between the
        # insert and the manifest) updates the one memory instead of making a second.
        memory_id = "mem_" + hashlib.sha256(f"obsidian:{uv.user_id}:{rel}".encode()).hexdigest()[:32]
        new = NewMemory(
            id=memory_id,
            user_id=uv.user_id,
            namespace=namespace,
            memory_type=memory_type,
            content=content,
            summary=summary if summary and summary != content else "",
            tags=tags,
            importance=importance,
            confidence=confidence,
            visibility=Visibility.PRIVATE.value,
            source="obsidian",
            source_ref=str(rel),
            embedding=vector,
            embedding_model=self.embedder.name,
        )
        async with self.pool.acquire() as conn, conn.transaction():
            record = await self.store.insert(conn, new, actor=uv.user_id)
            await self._audit(
                conn, uv.user_id, "memory_upsert", "memory", record.id, f"obsidian: {rel}", namespace=namespace
            )
        await self.store.sync_index(upserted=[record.id])
        uv.write(rel, await self._note(record), memory_id=record.id, version=record.version)
        return "created"
