"""The consolidator's decisions (seed 004 §E, §H): session episodes into clean long-term memory.

For each candidate, in order: exact duplicate (content hash) → merge; close memories found through
the index are checked for a contradiction first (→ both ``needs_review`` and a ReviewRequested, never
a silent overwrite), then for a near duplicate (→ merge); otherwise it is promoted when important
and confident enough, or kept as a short-lived candidate. Every decision is audited with its reason;
every change is a new version with its MemoryChanged event.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any, Literal

import asyncpg

from memgw.common import audit_log, jobs, policy, reviews, sessions
from memgw.common.bus import BusLayout
from memgw.common.db.pool import Conn, Executor
from memgw.common.domain import MemoryStatus, content_hash, new_id
from memgw.common.embedding.base import Embedder
from memgw.common.events import MemoryFeedbackGiven, ReviewDecided, SessionCommitted
from memgw.common.extraction import classify_type
from memgw.common.formation import answers, statuses, structure
from memgw.common.formation import form as formation
from memgw.common.index.base import Match, MatchAny, VectorIndex, Where
from memgw.common.logging import get_logger
from memgw.common.memories import MemoryStore, NewMemory, reads, vector_of
from memgw.common.namespaces import USER_KINDS, Owners, owners_in, user_namespace
from memgw.common.principals import principal_of
from memgw.common.settings import ConsolidationSettings
from memgw.common.skills import Skills
from memgw.common.skills.memory import (
    CandidateMemory,
    ClassifyInput,
    ClassifyMemory,
    CommitDecision,
    CommitInput,
    ExtractOutput,
    MergeInput,
    MergeSide,
    SummarizeInput,
)
from memgw.consolidator import reading, relation
from memgw.consolidator.conflicts import attribute_triggers, contradiction, new_values, other_kinds
from memgw.consolidator.decide import Decided, LlmDecider
from memgw.consolidator.skills import CommitMemory, MergeMemory, SummarizeEpisode

log = get_logger("memgw.consolidator")
ACTOR = "consolidator"
# A statement the durable model doubted (``stands_only_as``) stands only as a surer one.
SURE_AT = 0.8
# Said again, a memory gains evidence: a candidate's may promote it.
MERGES_INTO = (MemoryStatus.ACTIVE, MemoryStatus.CANDIDATE)
# The LLM's actions that make a doubted statement what it may stand as.
STANDS_AS = {relation.SAME: ("update",), relation.CHANGE: ("supersede", "review")}


@dataclass
class Outcome:
    promoted: list[str] = field(default_factory=list)
    candidates: list[str] = field(default_factory=list)
    merged: list[str] = field(default_factory=list)
    reviews: list[str] = field(default_factory=list)
    skipped_secrets: int = 0

    def as_dict(self) -> dict[str, Any]:
        return {
            "promoted": self.promoted,
            "candidates": self.candidates,
            "merged": self.merged,
            "reviews": self.reviews,
        }


@dataclass(frozen=True)
class _Asked:
    """One candidate of a commit being considered, with where it would go."""

    event: SessionCommitted
    candidate: CandidateMemory
    namespace: str
    owners: Owners
    vector: list[float]
    min_importance: float
    outcome: Outcome
    step: int


def _finished(job: dict[str, Any]) -> bool:
    """Done, or refused for good. A job that failed because its worker gave up or vanished is taken
    up again when its message comes back (a replayed dead letter, a late redelivery)."""
    return job["state"] == "done" or (job["state"] == "failed" and (job["detail"] or "").startswith("refused"))


async def audit(
    conn: Executor,
    user_id: str | None,
    action: str,
    target: str | None,
    reason: str,
    namespace: str | None = None,
    decision: Literal["allow", "deny"] = "allow",
) -> None:
    await audit_log.write(
        conn,
        actor_user_id=user_id,
        actor_agent_id=ACTOR,
        action=action,
        decision=decision,
        reason=reason,
        target_type="memory",
        targets=[(target, namespace)],
    )


def _role_of(episode: Any) -> str | None:
    """Who said an episode, when its client said so (EverMemOS messages carry their sender's role)."""
    events = episode["events"] or []
    first = events[0] if events else None
    return str(first["role"]) if isinstance(first, dict) and first.get("role") else None


async def _metadata(conn: Conn, memory_id: str) -> dict[str, Any] | None:
    found = await reads.row(conn, memory_id)
    return found["metadata"] if found is not None else None


async def first_time(conn: Conn, consumer: str, message_id: str) -> bool:
    """Record a message as applied; False when it was applied before (a redelivery)."""
    done = await conn.fetchval(
        "INSERT INTO processed_messages (consumer, message_id) VALUES ($1, $2) ON CONFLICT DO NOTHING RETURNING 1",
        consumer,
        message_id,
    )
    return bool(done)


class Consolidator:
    def __init__(
        self,
        *,
        pool: asyncpg.Pool,
        store: MemoryStore,
        index: VectorIndex,
        embedder: Embedder,
        layout: BusLayout,
        settings: ConsolidationSettings,
        skills: Skills,
    ):
        self.pool, self.store, self.index, self.embedder, self.layout = pool, store, index, embedder, layout
        self.settings = settings
        self.skills = skills
        self.decider = LlmDecider(settings) if settings.llm_base_url else None

    async def close(self) -> None:
        if self.decider is not None:
            await self.decider.close()

    # -- session commits ------------------------------------------------------------------------------------

    async def extract(self, episodes: list[tuple[str | None, str]]) -> ExtractOutput:
        return await formation.extract(self.skills, self.embedder, episodes)

    async def _summary(self, episode: str) -> str:
        return (await self.skills.run(SummarizeEpisode, SummarizeInput(episodes=[episode], limit=160))).summary

    async def on_session_committed(self, event: SessionCommitted) -> Outcome | None:
        pool = self.pool
        job = await jobs.get(pool, event.job_id)
        if job is not None and _finished(job):
            return None  # delivered again: it was applied already
        refusal = await self._refusal(event)
        if refusal is not None:
            async with pool.acquire() as conn, conn.transaction():
                await jobs.move(conn, event.job_id, "failed", detail=f"refused: {refusal}")
                await audit(
                    conn, event.user_id, "commit_target", event.session_id, refusal, event.target_namespace, "deny"
                )
            log.warning("consolidate.refused", session_id=event.session_id, reason=refusal)
            return None
        progress = (job or {}).get("result") or {}
        if "extraction" in progress:  # a replay after a crash: the same candidates, in the same order
            extraction = ExtractOutput.model_validate(progress["extraction"])
            episodes = int(progress.get("episodes", 0))
        else:
            rows = await sessions.live_episodes(pool, event.user_id, event.session_id, since=event.episodes_since)
            extraction = await self.extract([(_role_of(r), r["content"]) for r in rows])
            episodes = len(rows)
            # The summarize step (seed 004 §E summarize_episode): an episode its agent left without a
            # summary gets its lead sentence, secrets redacted. Idempotent, so a replay may skip it.
            await sessions.fill_summaries(
                pool, {r["id"]: await self._summary(r["content"]) for r in rows if not r["summary"]}
            )
            kept = {"extraction": extraction.model_dump(), "episodes": episodes}
            await jobs.move(pool, event.job_id, "running", result=kept)
        outcome = Outcome()
        min_importance = (
            event.min_importance if event.min_importance is not None else self.settings.promote_min_importance
        )
        done = progress.get("steps", {})
        for step, candidate in enumerate(extraction.candidates):
            if str(step) in done:  # applied before the crash: counted, not applied again
                kind, target = done[str(step)]
                getattr(outcome, kind).append(target)
                continue
            await self._consider(event, candidate, min_importance if event.promote else 2.0, outcome, step)
        result = {
            **outcome.as_dict(),
            "summary": extraction.summary,
            "method": extraction.method,
            "episodes": episodes,
        }
        async with pool.acquire() as conn, conn.transaction():
            await jobs.move(
                conn,
                event.job_id,
                "done",
                result=result,
                detail=(
                    f"{len(outcome.promoted)} promoted, {len(outcome.merged)} merged, {len(outcome.reviews)} to review"
                ),
            )
            await audit(
                conn,
                event.user_id,
                "consolidate_session",
                event.session_id,
                f"{extraction.method}: {result['episodes']} episodes → {len(extraction.candidates)} candidates",
            )
        return outcome

    async def gave_up(self, event: SessionCommitted, error: Exception) -> None:
        """The last delivery failed too: the job says so now (its message goes to the dead letters,
        and ``memgw dead replay`` takes it up again from where it stopped)."""
        await jobs.move(self.pool, event.job_id, "failed", detail=f"gave up: {str(error)[:300]}")

    async def _namespace(self, event: SessionCommitted, candidate: CandidateMemory) -> tuple[str, Owners]:
        """Where a candidate goes and the ACL columns that go with it (they always agree): where the
        committer asked, else where ``classify_memory`` files it (an agent's lessons and tool
        experience are its own, seed 004 §C; everything else is the user's, private)."""
        namespace = event.target_namespace
        if not namespace:
            asked = ClassifyInput(
                content=candidate.content,
                user_id=event.user_id,
                agent_id=event.agent_id,
                memory_type=candidate.memory_type,
            )
            namespace = (await self.skills.run(ClassifyMemory, asked)).namespaces[0]
        return namespace, owners_in(namespace, user_id=event.user_id, agent_id=event.agent_id)

    async def _refusal(self, event: SessionCommitted) -> str | None:
        """Why the committer may not write where it asked, judged on its rights now (a member removed
        from a workspace since committing no longer writes into it); None when it may."""
        if not event.target_namespace:
            return None
        committer = await principal_of(self.pool, event.user_id, event.actor_agent_id or event.agent_id)
        if committer is None:
            return f"user {event.user_id} is gone or disabled"
        session = policy.SessionRef(event.session_id, event.user_id, event.agent_id)
        decision = policy.decide(
            committer, policy.Action.COMMIT_TARGET, policy.NamespaceRef(event.target_namespace, session)
        )
        return None if decision.allowed else decision.reason

    async def _neighbours(
        self, user_id: str, namespace: str, text: str, vector: list[float]
    ) -> list[tuple[Any, float]]:
        """This user's active, candidate or reviewed memories on the same subject, each with its similarity in
        meaning (0.0 when only words or the attribute brought it): the nearest by meaning and by words
        through the index, and every one stating the same attribute, from the database. No cut on
        similarity decides which are compared: the relation model tells what each one is to the new statement."""
        namespaces = tuple(sorted({namespace, *(user_namespace(user_id, k) for k in USER_KINDS)}))
        statuses = (MemoryStatus.ACTIVE.value, MemoryStatus.CANDIDATE.value, MemoryStatus.NEEDS_REVIEW.value)
        where = Where(must=(Match("user_id", user_id), MatchAny("namespace", namespaces), MatchAny("status", statuses)))
        k = self.settings.conflict_neighbours
        by_meaning, by_words = await asyncio.gather(
            self.index.search(dense=vector, where=where, limit=k),
            self.index.search(text=text, where=where, limit=k),
        )
        similarity = {h.memory_id: h.score for h in by_meaning}
        rows = await reads.related(
            self.pool,
            user_id,
            list(namespaces),
            list(statuses),
            [*similarity, *(h.memory_id for h in by_words)],
            list(attribute_triggers(text)),
        )
        found = [(r, similarity.get(r["id"], 0.0)) for r in rows]
        return sorted(found, key=lambda pair: pair[1], reverse=True)

    def _related(
        self, text: str, vector: list[float], neighbours: list[tuple[Any, float]], *, theirs: bool = False
    ) -> Any:
        """(memory, relation, probability) for the user's own memory that ``text`` most surely says again or
        changes (relation.py, weighed by ``reading.weighed``), or None. A memory about someone else ("My sister
        lives in Rome") only when ``text`` is about the same person, and then only said again: another's change
        is never the user's to review, nor is anything ``theirs`` (``text`` about someone else) a change."""
        others = {e["id"] for e, _ in neighbours if theirs or structure.about_someone_else(e["content"])}
        known = [
            (e, e["content"], vector_of(e["embedding"]).tolist())
            for e, _ in neighbours
            if e["embedding_model"] == self.embedder.name
            and (e["id"] not in others or structure.the_same_person(e["content"], text))
        ]
        return self._surest(text, vector, known, others)

    def _surest(
        self, text: str, vector: list[float], known: list[tuple[Any, str, list[float]]], others: set[str]
    ) -> Any:
        """(memory, relation, probability) for what ``text`` most surely says again or changes among ``known``:
        each a memory, the words it is read by (its content, or one clause of it) and their vector; a memory in
        ``others`` is someone else's."""
        model = relation.for_embedder(self.embedder.name)
        if model is None or not known:
            return None
        found = model.probabilities([v for _, _, v in known], [vector] * len(known))
        decision = classify_type(text) == "decision"
        best: Any = None
        for (existing, words, _), p in zip(known, found, strict=True):
            decisions = decision and existing["memory_type"] == "decision"
            weighed = reading.weighed(p, words, text, decisions=decisions, another=existing["id"] in others)
            for kind, sure_at in ((relation.SAME, reading.SAME_AT), (relation.CHANGE, reading.CHANGE_AT)):
                if weighed is not None and weighed[kind] >= sure_at and (best is None or weighed[kind] > best[2]):
                    best = (existing, kind, weighed[kind])
        return best

    async def _related_in_whole_or_part(
        self, asked: _Asked, neighbours: list[tuple[Any, float]]
    ) -> tuple[Any, str | None]:
        """What the statement is to the user's memories in whole or by its own clauses
        (``reading.in_whole_or_part``): "Claire left, so my manager is Hassan now" beside "My manager is
        Claire" is a change by a clause. The clauses are embedded only when the whole is no same again. When
        neither the whole nor a change by a clause is found, one clause may say a memory again ("Nuts are
        dangerous for me, I carry an EpiPen" beside "I'm allergic to nuts"), and so may the role it is said in ("As
        a vegan I need more protein" beside "I've been vegan for years": ``structure.as_a_role``), which is never a
        change ("As a parent I …" beside "I'm a teacher"), and so may a clause without the reason it gives ("I bike to
        the office every day" of "… because it's quicker than the bus" beside "I cycle to work most days"): that
        memory, with the rest of the statement (the reason too), which is not lost in the merge but goes on as a
        statement of its own."""
        text = asked.candidate.content
        whole = self._related(text, asked.vector, neighbours)
        if whole is not None and whole[1] == relation.SAME:
            return whole, None
        if not any(e["embedding_model"] == self.embedder.name for e, _ in neighbours):
            return whole, None  # nothing a clause could be compared with: not worth embedding the clauses
        # Clauses as formation reads them: what follows a thing's change is that thing's ("楼下面包店换了老板，无麸质
        # 的都不做了"), and what a condition or a moment frames says nothing alone.
        cut = structure.clauses_alone(text)
        # Failing the whole and its clauses, a clause without the reason it gives may tell a change the reason
        # hid (``reading.changed_without_reason``), or say a memory again.
        cores = [core for c in cut or [text] if (core := structure.without_reason(c)) != c]
        own, cores = [c for c in cut if self._owns(c)], [c for c in cores if self._owns(c)]
        role = structure.as_a_role(text)
        roles = [role[0]] if role else []  # "I'm a …", "我是…": the user's own, as it holds now
        if not (own or cores or roles) or relation.for_embedder(self.embedder.name) is None:
            return whole, None
        said_alone = [*own, *cores, *roles]
        vectors = await self.store.embed_passages(said_alone, self.embedder, tenant=asked.event.user_id)
        read = [self._related(c, vector, neighbours) for c, vector in zip(said_alone, vectors, strict=True)]
        reasons_end = len(own) + len(cores)
        parts, without_reasons, in_role = read[: len(own)], read[len(own) : reasons_end], read[reasons_end:]
        in_role = [f if f and structure.a_role_it_names(f[0]["content"], roles[0]) else None for f in in_role]
        found = reading.in_whole_or_part(text, whole, parts)
        if found is None and whole is None:
            found = reading.changed_without_reason(cores, without_reasons)
        if found is not None:
            return found, None
        if (again := reading.said_again_in_part([*own, *cores, *roles], [*parts, *without_reasons, *in_role])) is None:
            return None, None
        said, clause = again
        return said, role[1] if role and clause == role[0] else structure.without_clause(text, clause)

    async def _related_to_a_part(self, asked: _Asked, neighbours: list[tuple[Any, float]]) -> Any:
        """The memory one of whose own clauses the statement says again, read as the user's memory of that clause
        alone ("Airbus is my employer" beside "I work at Airbus in Toulouse, so I'm usually busy Mon-Fri"): evidence
        on it; or, as surely as a doubted statement must be, changes ("Settling into Manchester now" beside "I live
        in Brighton, so beach walks are my thing"): the whole goes to review, where a person sees all it said."""
        parts = [
            (e, c)
            for e, _ in neighbours
            if e["embedding_model"] == self.embedder.name
            for c in structure.clauses(e["content"])
            if self._owns(c)
        ]
        if not parts:
            return None
        vectors = await self.store.embed_passages([c for _, c in parts], self.embedder, tenant=asked.event.user_id)
        known = [(e, c, v) for (e, c), v in zip(parts, vectors, strict=True)]
        found = self._surest(asked.candidate.content, asked.vector, known, set())  # an own clause is no one else's
        return found if found is not None and (found[1] == relation.SAME or found[2] >= SURE_AT) else None

    async def _said_in_a_clause_of_the_users(self, asked: _Asked, neighbours: list[tuple[Any, float]]) -> Any:
        """What the user says of themselves after opening with someone or something else ("the Brompton got nicked,
        so I take the bus to the office now", ``structure.the_users_own_after_another``) tells of their memories as
        a statement of their own: each such clause read alone (``_related``), the surest taken. Not of a memory
        whose value another person just moved to ("my brother just moved to Edinburgh, so we're neighbours now"
        beside "I live in Edinburgh"): what the user says then follows from that."""
        text = asked.candidate.content
        own = [c for c in structure.the_users_own_after_another(text) if self._owns(c)]
        if not own:
            return None
        neighbours = [(e, s) for e, s in neighbours if not structure.follows_anothers_move_to(e["content"], text)]
        if not any(e["embedding_model"] == self.embedder.name for e, _ in neighbours):
            return None
        vectors = await self.store.embed_passages(own, self.embedder, tenant=asked.event.user_id)
        read = [found for c, v in zip(own, vectors, strict=True) if (found := self._related(c, v, neighbours))]
        return max(read, key=lambda found: found[2], default=None)

    @staticmethod
    def _owns(clause: str) -> bool:
        """Whether a clause is the user's own as it holds now (not another's, nor a past, nor imagined, nor an ask or
        a proposal: "let's do a risotto instead"), and a statement of its own (not "an iPhone 15" of "bought my mum a
        new phone, an iPhone 15")."""
        return not (
            structure.an_apposition(clause)
            or structure.about_someone_else(clause)
            or structure.in_the_past(clause)
            or structure.imagined(clause)
            or structure.asks(clause)
        )

    async def _consider(
        self,
        event: SessionCommitted,
        candidate: CandidateMemory,
        min_importance: float,
        outcome: Outcome,
        step: int,
        *,
        beside: str | None = None,
    ) -> None:
        """Merge, review, supersede or store ``candidate``; never against memory ``beside`` (one the statement it
        was part of said again)."""
        namespace, owners = await self._namespace(event, candidate)
        exact = await reads.same_text(self.pool, namespace, content_hash(candidate.content))
        if exact is not None:
            await self._merge(exact, candidate, event, "exact duplicate (same content hash)", min_importance, step)
            outcome.merged.append(exact["id"])
            return
        [vector] = await self.store.embed_passages([candidate.content], self.embedder, tenant=event.user_id)
        neighbours = await self._neighbours(event.user_id, namespace, candidate.content, vector)
        neighbours = [(e, score) for e, score in neighbours if e["id"] != beside]
        asked = _Asked(event, candidate, namespace, owners, vector, min_importance, outcome, step)
        if self.decider is not None:
            shown = [e for e, _ in neighbours[: self.settings.conflict_neighbours]]
            decided = await self.decider.decide(candidate.content, shown)
            if decided is not None:
                await self._follow(decided, asked)
                return
        if not await self._judged(asked, neighbours):
            await self._store_new(asked)

    async def _follow(self, decided: Decided, asked: _Asked) -> None:
        """Apply the LLM's checked decision (decide.py). A doubted statement stands only as what it may be."""
        target = decided.target
        if doubted := asked.candidate.stands_only_as:
            if decided.action not in {action for kind in doubted for action in STANDS_AS[kind]}:
                return
            if decided.action == "update" and target["status"] != MemoryStatus.ACTIVE:
                return
        if decided.action == "none":
            return
        if decided.action == "review":
            asked.outcome.reviews.append(await self._review_for(asked, target, decided.reason))
        elif decided.action == "update" and target["status"] == MemoryStatus.ACTIVE:
            await self._merged_into(asked, target, decided.reason)
        elif decided.action == "supersede":
            await self._store_new(asked, supersedes=target, reason=decided.reason)
        else:
            await self._store_new(asked)

    async def _judged(self, asked: _Asked, neighbours: list[tuple[Any, float]]) -> bool:
        """The default's judgement against the user's nearest memories: the same fact again merges into its memory
        as evidence, a new value of it goes to review with both; False when the candidate is new. Only a statement
        of the user's own, as it holds now, can do either: not someone else's ("my sister moved …"), not a past
        ("I used to …"), not an imagined one ("if I …"), not a question. Those open no review. One that adds ("I
        also …", "我也…") is one more value, never either, unless it turns one around ("我现在也吃牛肉了" beside
        "我不吃牛肉"). A thing named with "the" is the user's when one of their memories calls it theirs ("The
        thesis deadline …" beside "My thesis is due …"); a person named by one of them is someone else ("Emma
        changed her hair colour" beside "My girlfriend is Emma"), and so is what one names when the statement
        names no user ("Santander changed their app" beside "I bank with Santander"). Someone else's fact said
        again ("Theo, my son, is allergic to nuts") is evidence on the memory about the same person, and never a
        change of it. Nor is an answer read with its question ("Where did I grow up? Inverness" beside "Which city do
        I live in? Glasgow"), unless the answer itself tells a change ("Still in Nanjing? 不了，搬到杭州了"): the
        relation model reads two questions answered with two values as one value changed, where the questions ask
        different things. An answer that says a relationship, a diet or drinking outright tells its own value
        ("你和男朋友最近怎么样？分了，现在单身"), whatever was asked."""
        text = asked.candidate.content
        theirs = structure.about_someone_else(text) and not any(
            structure.refers_back(e["content"], text) for e, _ in neighbours
        )
        theirs = theirs or any(
            structure.about_someone_named(e["content"], text) or structure.about_what_it_names(e["content"], text)
            for e, _ in neighbours
        )
        now = not (structure.in_the_past(text) or structure.imagined(text) or structure.is_question(text))
        own = now and not theirs
        adds = structure.adds_to(text)
        if adds:  # one more value: compared only with what it turns around ("我现在也吃牛肉了" beside "我不吃牛肉")
            neighbours = [(e, s) for e, s in neighbours if structure.turns_around(e["content"], text)]
        related, rest = None, None
        if own:
            related, rest = await self._related_in_whole_or_part(asked, neighbours)
            if related is None or (related[1] == relation.CHANGE and related[2] < SURE_AT):
                # A memory of several facts read whole may hide which one changed: one of its own clauses may say.
                part = await self._related_to_a_part(asked, neighbours)
                if part is not None and (related is None or part[1] == relation.CHANGE):
                    related = part
        elif now:  # another's fact said again is evidence on it: never a change
            related = self._related(text, asked.vector, neighbours, theirs=True)
            related = related or await self._said_in_a_clause_of_the_users(asked, neighbours)
        if related and related[1] == relation.CHANGE and answers.answered(text):
            answer = answers.the_answer(text)
            if not (structure.says_it_changed(answer) or statuses.said_outright(answer)):
                related = None  # an answer read with its question is a change only when the answer tells one
        if doubted := asked.candidate.stands_only_as:  # worth keeping only as what the model is sure it is
            if related is None or related[1] not in doubted or related[2] < SURE_AT:
                return True
            if related[1] == relation.SAME and related[0]["status"] not in MERGES_INTO:
                return True
        if related:
            existing, kind, p = related
            if kind == relation.SAME and existing["status"] in MERGES_INTO:
                await self._merged_into(
                    asked, existing, f"the same fact again (p {p:.2f}{', by a clause' if rest else ''})"
                )
                if rest and not doubted:
                    await self._consider_rest(asked, rest, existing["id"])
                return True
            if kind == relation.CHANGE and existing["status"] == MemoryStatus.CANDIDATE:
                # A candidate is nobody's trusted memory yet: its new value replaces it, unreviewed.
                await self._store_new(asked, supersedes=existing, reason=f"a new value of a candidate (p {p:.2f})")
                return True
            if kind == relation.CHANGE:
                why = f"a new value of the same fact (p {p:.2f})"
                asked.outcome.reviews.append(await self._review_for(asked, existing, why))
                return True
        if own and relation.for_embedder(self.embedder.name) is None:  # no model for this embedder: word rules
            for existing, _ in neighbours:
                if reason := contradiction(existing["content"], text):
                    asked.outcome.reviews.append(await self._review_for(asked, existing, reason))
                    return True
        for existing, score in neighbours:  # the same words of the same subject: a near duplicate
            same = score >= self.settings.near_duplicate_similarity and not new_values(existing["content"], text)
            same = same and not other_kinds(existing["content"], text)
            same = same and not structure.event_beside_state(existing["content"], text)
            same = same and not structure.denies_having(existing["content"], text)
            same = same and not structure.turns_around(existing["content"], text)
            # What holds now beside what was stated as holding is a new situation, close in words as it may be
            # ("我谈恋爱了" beside "我单身"): the relation model weighs it; the words alone do not merge it.
            same = same and not (structure.holds_now(text) and not structure.holds_now(existing["content"]))
            same = same and not statuses.changed(existing["content"], text)
            another = structure.about_someone_else(existing["content"])
            same_subject = another == structure.about_someone_else(text)
            same_subject = same_subject and (not another or structure.the_same_person(existing["content"], text))
            if same and same_subject and not adds and existing["status"] in MERGES_INTO:
                await self._merged_into(asked, existing, f"near duplicate (similarity {score:.3f})")
                return True
        return False

    async def _consider_rest(self, asked: _Asked, rest: str, said_again: str) -> None:
        """What else a statement says beside a memory one of its clauses said again: a statement of its own,
        formed as any is, and never a change of that memory."""
        for more in (await self.extract([(None, rest)])).candidates:
            await self._consider(asked.event, more, asked.min_importance, asked.outcome, asked.step, beside=said_again)

    async def _merged_into(self, asked: _Asked, existing: Any, reason: str) -> None:
        await self._merge(existing, asked.candidate, asked.event, reason, asked.min_importance, asked.step)
        asked.outcome.merged.append(existing["id"])

    async def _review_for(self, asked: _Asked, existing: Any, reason: str) -> str:
        a = asked
        return await self._review(existing, a.candidate, a.event, a.namespace, a.owners, a.vector, reason, a.step)

    async def _store_new(self, asked: _Asked, *, supersedes: Any = None, reason: str = "") -> None:
        """Store the candidate, promoted or kept as a candidate; when it ``supersedes`` a memory, that one
        is archived in the same transaction, with when it stopped holding (its history keeps it)."""
        a = asked
        decision = await self._commit_decision(
            a.candidate.importance, a.candidate.confidence, 1, ACTOR, a.min_importance
        )
        promote = decision.promote or (supersedes is not None and supersedes["status"] == MemoryStatus.ACTIVE)
        status = MemoryStatus.ACTIVE if promote else MemoryStatus.CANDIDATE
        expires = None if promote else datetime.now(UTC) + timedelta(days=self.settings.candidate_ttl_days)
        new = self._new(a.event, a.candidate, a.namespace, a.owners, a.vector, status, expires)
        now = datetime.now(UTC).isoformat()
        if supersedes is not None:
            new.metadata = {**(new.metadata or {}), "supersedes": supersedes["id"], "valid_from": now}
        async with self.pool.acquire() as conn, conn.transaction():
            record = await self.store.insert(conn, new, actor=ACTOR)
            why = f"{reason}; supersedes {supersedes['id']}" if supersedes is not None else decision.reason
            await audit(conn, a.event.user_id, "promote" if promote else "keep_candidate", record.id, why, a.namespace)
            if supersedes is not None:
                meta = await _metadata(conn, supersedes["id"])
                await self.store.update(
                    conn,
                    supersedes["id"],
                    {
                        "status": MemoryStatus.ARCHIVED.value,
                        "metadata": {**(meta or {}), "superseded_by": record.id, "valid_to": now},
                    },
                    actor=ACTOR,
                    change="archived",
                )
            await jobs.record_step(conn, a.event.job_id, a.step, "promoted" if promote else "candidates", record.id)
        await self.store.sync_index(upserted=[record.id, *([supersedes["id"]] if supersedes is not None else [])])
        (a.outcome.promoted if promote else a.outcome.candidates).append(record.id)

    def _new(
        self,
        event: SessionCommitted,
        candidate: CandidateMemory,
        namespace: str,
        owners: Owners,
        vector: list[float],
        status: MemoryStatus,
        expires_at: datetime | None,
    ) -> NewMemory:
        return NewMemory(
            id=new_id("mem"),
            user_id=event.user_id,
            agent_id=owners.agent_id,
            workspace_id=owners.workspace_id,
            session_id=event.session_id,
            namespace=namespace,
            memory_type=candidate.memory_type,
            content=candidate.content,
            visibility=owners.visibility.value,
            embedding=vector,
            embedding_model=self.embedder.name,
            tags=candidate.tags,
            importance=candidate.importance,
            confidence=candidate.confidence,
            source="consolidator",
            source_ref=f"session:{event.session_id}",
            status=status.value,
            expires_at=expires_at,
            metadata={"sessions": [event.session_id], "job_id": event.job_id},
        )

    async def _commit_decision(
        self, importance: float, confidence: float, evidence: int, source: str, min_importance: float
    ) -> CommitDecision:
        asked = CommitInput(
            importance=importance,
            confidence=confidence,
            evidence_count=evidence,
            source=source,
            min_importance=min_importance,
            min_confidence=self.settings.promote_min_confidence,
        )
        return await self.skills.run(CommitMemory, asked)

    async def _merge(
        self,
        existing: Any,
        candidate: CandidateMemory,
        event: SessionCommitted,
        reason: str,
        min_importance: float,
        step: int | None = None,
    ) -> None:
        """The same fact again: its evidence joins the memory (``merge_memory``). A candidate said
        again may now be promoted (``commit_memory`` counts the repetitions)."""
        meta = existing["metadata"]
        old = MergeSide(
            importance=existing["importance"],
            confidence=existing["confidence"],
            tags=existing["tags"],
            evidence_count=existing["evidence_count"],
            sessions=meta.get("sessions", []),
            source_refs=meta.get("source_refs", []),
        )
        new = MergeSide(
            importance=candidate.importance,
            confidence=candidate.confidence,
            tags=candidate.tags,
            sessions=[event.session_id],
            source_refs=[f"session:{event.session_id}"],
        )
        merged = await self.skills.run(MergeMemory, MergeInput(existing=old, incoming=new))
        changes: dict[str, Any] = {
            "evidence_count": merged.evidence_count,
            "confidence": merged.confidence,
            "importance": merged.importance,
            "tags": merged.tags,
            "metadata": {**meta, "sessions": merged.sessions, "source_refs": merged.source_refs},
        }
        promoted = None
        if existing["status"] == MemoryStatus.CANDIDATE:
            decision = await self._commit_decision(
                merged.importance, merged.confidence, merged.evidence_count, existing["source"], min_importance
            )
            if decision.promote:
                changes.update(status=MemoryStatus.ACTIVE.value, expires_at=None)
                promoted = decision.reason
        async with self.pool.acquire() as conn, conn.transaction():
            await self.store.update(conn, existing["id"], changes, actor=ACTOR, change="merged")
            await audit(conn, event.user_id, "merge", existing["id"], reason, existing["namespace"])
            if promoted:
                await audit(conn, event.user_id, "promote", existing["id"], promoted, existing["namespace"])
            if step is not None:
                await jobs.record_step(conn, event.job_id, step, "merged", existing["id"])
        await self.store.sync_index(upserted=[existing["id"]])

    async def _review(
        self,
        existing: Any,
        candidate: CandidateMemory,
        event: SessionCommitted,
        namespace: str,
        owners: Owners,
        vector: list[float],
        reason: str,
        step: int,
    ) -> str:
        async with self.pool.acquire() as conn, conn.transaction():
            record = await self.store.insert(
                conn,
                self._new(event, candidate, namespace, owners, vector, MemoryStatus.NEEDS_REVIEW, None),
                actor=ACTOR,
            )
            await self.store.update(
                conn, existing["id"], {"status": MemoryStatus.NEEDS_REVIEW.value}, actor=ACTOR, change="status"
            )
            review_id = await reviews.open_review(
                conn, self.layout, user_id=event.user_id, memory_ids=[existing["id"], record.id], reason=reason
            )
            await audit(
                conn,
                event.user_id,
                "conflict_to_review",
                record.id,
                f"{reason}; kept both as needs_review, review {review_id}",
                namespace,
            )
            await jobs.record_step(conn, event.job_id, step, "reviews", review_id)
        await self.store.sync_index(upserted=[existing["id"], record.id])
        return review_id

    async def _feedback_for_owner(self, event: MemoryFeedbackGiven, row: Any) -> None:
        """A reader who may not write the memory judged it incorrect or outdated: the owner decides,
        through a review (one open review per memory, however many readers say so)."""
        async with self.pool.acquire() as conn, conn.transaction():
            if not await first_time(conn, "consolidator-feedback", event.id):
                return
            if event.feedback not in ("incorrect", "outdated"):
                return
            await conn.execute("SELECT pg_advisory_xact_lock(hashtext('review:' || $1))", event.memory_id)
            if await reviews.open_feedback_exists(conn, event.memory_id):
                return
            reason = f"{event.given_by} says it is {event.feedback}" + (f": {event.comment}" if event.comment else "")
            await reviews.open_review(
                conn,
                self.layout,
                user_id=row["user_id"],
                memory_ids=[event.memory_id],
                reason=reason,
                kind="feedback",
                requested_by=event.given_by,
                feedback=event.feedback,
            )
            await audit(conn, row["user_id"], "feedback_to_review", event.memory_id, reason, row["namespace"])

    # -- review decisions -----------------------------------------------------------------------------------

    async def on_review_decided(self, event: ReviewDecided) -> bool:
        """Apply a person's decision and announce it settled; False when the review is unknown, was decided
        already, or the decision could not be applied (announced too, with why: the review stays open)."""
        try:
            return await self._apply_decision(event)
        except LookupError as gone:
            await self.decision_failed(event, f"a memory of this review is gone ({gone})")
        except ValueError as invalid:  # an edit without its text
            await self.decision_failed(event, str(invalid))
        return False

    async def decision_failed(self, event: ReviewDecided, reason: str) -> None:
        """The decision was not applied: the review stays open, and ReviewSettled says why, so a vault
        note is not filed as decided and can be decided again."""
        async with self.pool.acquire() as conn, conn.transaction():
            review = await reviews.get(conn, event.review_id, lock=True)
            if review is None or review["status"] == "decided":
                return
            await audit(
                conn, event.decided_by, "review_decide", event.review_id, f"not applied: {reason}", None, "deny"
            )
            await reviews.settle(conn, self.layout, review, event, reason=reason)

    async def _apply_decision(self, event: ReviewDecided) -> bool:
        async with self.pool.acquire() as conn, conn.transaction():
            review = await reviews.get(conn, event.review_id, lock=True)
            if review is None or review["status"] == "decided":
                return False
            if refusal := await self._may_not_decide(event, review):
                await audit(
                    conn, event.decided_by, "review_decide", event.review_id, f"not applied: {refusal}", None, "deny"
                )
                return False
            if review["kind"] == "feedback":
                touched = await self._decide_feedback(conn, review, event)
                await self._close_review(conn, review, event)
                await self.store.sync_index(upserted=touched)
                return True
            old_id, new_id_ = review["memory_ids"][0], review["memory_ids"][1]
            active, archived = {
                "accept_new": ([new_id_], [old_id]),
                "keep_old": ([old_id], [new_id_]),
                "keep_both": ([old_id, new_id_], []),
                "edit": ([new_id_], [old_id]),
            }[event.decision]
            if event.decision == "edit":
                if not event.edited_content:
                    raise ValueError("an 'edit' decision needs edited_content")
                [vector] = await self.store.embed_passages(
                    [event.edited_content], self.embedder, tenant=review["user_id"]
                )
                await self.store.update(
                    conn,
                    new_id_,
                    {
                        "content": event.edited_content,
                        "embedding": vector,
                        "embedding_model": self.embedder.name,
                    },
                    actor=event.decided_by,
                    change="updated",
                )
            # What a decision replaces keeps when it stopped holding; what replaces it, since when it holds.
            now = datetime.now(UTC).isoformat()
            for memory_id in active:
                changes: dict[str, Any] = {"status": MemoryStatus.ACTIVE.value}
                if archived:
                    meta = await _metadata(conn, memory_id)
                    changes["metadata"] = {**(meta or {}), "valid_from": now}
                await self.store.update(conn, memory_id, changes, actor=event.decided_by, change="status")
            for memory_id in archived:
                superseded_by = new_id_ if memory_id == old_id else old_id
                meta = await _metadata(conn, memory_id)
                await self.store.update(
                    conn,
                    memory_id,
                    {
                        "status": MemoryStatus.ARCHIVED.value,
                        "metadata": {**(meta or {}), "superseded_by": superseded_by, "valid_to": now},
                    },
                    actor=event.decided_by,
                    change="archived",
                )
            await self._close_review(conn, review, event)
        await self.store.sync_index(upserted=[old_id, new_id_])
        return True

    async def _may_not_decide(self, event: ReviewDecided, review: Any) -> str | None:
        """Why the user a ReviewDecided message acts for may not decide this review now (the bus is an
        input: a message names its decider, the policy decides); None when they may."""
        decider = await principal_of(self.pool, event.decided_by, None)
        if decider is None:
            return f"user {event.decided_by} is gone or disabled"
        ref = policy.OwnedRef("review", event.review_id, review["user_id"])
        verdict = policy.decide(decider, policy.Action.REVIEW_DECIDE, ref)
        return None if verdict.allowed else verdict.reason

    async def _close_review(self, conn: Conn, review: Any, event: ReviewDecided) -> None:
        await reviews.settle(conn, self.layout, dict(review), event)
        await audit(
            conn, review["user_id"], "review_decided", event.review_id, f"{event.decision} by {event.decided_by}"
        )

    async def _decide_feedback(self, conn: Conn, review: Any, event: ReviewDecided) -> list[str]:
        """The owner on a reader's feedback: accept_new = the reader is right (archived, flagged);
        edit = corrected in place; keep_old / keep_both = it stays as it is."""
        [memory_id] = review["memory_ids"]
        row = await reads.row(conn, memory_id)
        if row is None:
            return []
        if event.decision == "accept_new":
            flag = review["feedback"]
            await self.store.update(
                conn,
                memory_id,
                {"status": MemoryStatus.ARCHIVED.value, "flags": sorted({*row["flags"], flag})},
                actor=event.decided_by,
                change="archived",
            )
        elif event.decision == "edit":
            if not event.edited_content:
                raise ValueError("an 'edit' decision needs edited_content")
            [vector] = await self.store.embed_passages([event.edited_content], self.embedder, tenant=review["user_id"])
            changes = {
                "content": event.edited_content,
                "embedding": vector,
                "embedding_model": self.embedder.name,
            }
            await self.store.update(conn, memory_id, changes, actor=event.decided_by, change="updated")
        return [memory_id]

    # -- feedback -------------------------------------------------------------------------------------------

    async def _may_change(self, event: MemoryFeedbackGiven, *rows: Any) -> bool:
        """A bus message acts for the user who gave the feedback: the shared record changes only when
        that user (through the agent they used), as they stand now, may write every record it touches.
        A refusal is audited and the message settles (asking again would be refused again)."""
        giver = await principal_of(self.pool, event.given_by, event.given_by_agent) if event.given_by else None
        for row in rows:
            ref = policy.MemoryRef(row["user_id"], row["agent_id"], row["visibility"], row["workspace_id"])
            verdict = policy.decide(giver, policy.Action.MEMORY_WRITE, ref) if giver else None
            if verdict is None or not verdict.allowed:
                why = verdict.reason if verdict else "no such user, or the user is disabled"
                await audit(
                    self.pool,
                    event.given_by,
                    f"feedback_{event.feedback}",
                    row["id"],
                    f"not applied: {why}",
                    row["namespace"],
                    decision="deny",
                )
                return False
        return True

    async def on_feedback(self, event: MemoryFeedbackGiven) -> None:
        row = await reads.row(self.pool, event.memory_id)
        if row is None:
            return
        if event.personal:
            await self._feedback_for_owner(event, row)
            return
        target_row = None
        if event.feedback == "duplicate" and event.target_memory_id:
            target_row = await reads.row(self.pool, event.target_memory_id)
        if not await self._may_change(event, row, *([target_row] if target_row else [])):
            return
        touched = [event.memory_id]
        async with self.pool.acquire() as conn, conn.transaction():
            if not await first_time(conn, "consolidator-feedback", event.id):
                return
            if event.feedback == "incorrect":
                await self.store.update(
                    conn, event.memory_id, {"status": MemoryStatus.ARCHIVED.value}, actor=ACTOR, change="archived"
                )
                reason = "marked incorrect: archived, out of retrieval"
            elif event.feedback == "useful":
                importance = min(1.0, row["importance"] + 0.1)
                await self.store.update(conn, event.memory_id, {"importance": importance}, actor=ACTOR)
                reason = f"useful: importance {row['importance']:.2f} → {importance:.2f}"
            elif event.feedback == "duplicate" and event.target_memory_id:
                target = await reads.full_row(conn, event.target_memory_id)
                if target is None:
                    return
                await self.store.update(
                    conn,
                    target["id"],
                    {
                        "evidence_count": target["evidence_count"] + row["evidence_count"],
                        "confidence": max(target["confidence"], row["confidence"]),
                        "tags": sorted({*target["tags"], *row["tags"]}),
                    },
                    actor=ACTOR,
                    change="merged",
                )
                await self.store.update(
                    conn,
                    event.memory_id,
                    {
                        "status": MemoryStatus.ARCHIVED.value,
                        "metadata": {**row["metadata"], "merged_into": target["id"]},
                    },
                    actor=ACTOR,
                    change="archived",
                )
                touched.append(target["id"])
                reason = f"duplicate: merged into {target['id']}"
            elif event.feedback == "outdated":
                await self.store.update(
                    conn,
                    event.memory_id,
                    {
                        "status": MemoryStatus.ARCHIVED.value,
                        "metadata": {**row["metadata"], "superseded_by": event.target_memory_id},
                    },
                    actor=ACTOR,
                    change="archived",
                )
                reason = f"outdated: archived, newer is {event.target_memory_id or 'not named'}"
            else:
                reason = f"{event.feedback} without a target: nothing to merge"
            await audit(conn, row["user_id"], f"feedback_{event.feedback}", event.memory_id, reason, row["namespace"])
        await self.store.sync_index(upserted=touched)
