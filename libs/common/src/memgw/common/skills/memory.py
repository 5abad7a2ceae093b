"""The skills over memories and episodes (seed 004 §E): every one's contract (its input and output
models), and the defaults that more than one service calls (``extract_memory``, ``classify_memory``).
The others' defaults live with the service that calls them: ``ingest`` with the gateway
(``memgw.gateway.ingest``), ``commit_memory``, ``summarize_episode``, ``merge_memory`` and
``prune_memory`` with the consolidator (``memgw.consolidator.skills``). Skills are pure decisions, no
storage: the services read and write around them, and what a skill decides is the whole of the
decision."""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any, Literal

import httpx
from pydantic import BaseModel, Field, model_validator

from memgw.common.domain import MemoryType, Visibility
from memgw.common.extraction import (
    LlmExtractor,
    chat_client,
    classify_type,
    durable_extract,
    rule_extract,
)
from memgw.common.logging import get_logger
from memgw.common.namespaces import namespaces_for
from memgw.common.secrets import redact
from memgw.common.settings import Settings
from memgw.common.skills.registry import Skill

log = get_logger("memgw.skills")

# -- ingest -------------------------------------------------------------------------------------------------


class RawItem(BaseModel):
    role: str = "user"
    content: str | list[Any] | dict[str, Any] = Field(
        description="Text, or OpenAI-style content parts ([{type: text, text: …}]) of which the text is kept."
    )


class IngestInput(BaseModel):
    items: list[RawItem]


class NormalizedEpisode(BaseModel):
    role: str
    content: str


class IngestOutput(BaseModel):
    episodes: list[NormalizedEpisode]


# -- extract_memory -----------------------------------------------------------------------------------------


class CandidateMemory(BaseModel):
    content: str
    memory_type: str
    importance: float = Field(ge=0, le=1)
    confidence: float = Field(ge=0, le=1)
    tags: list[str] = []
    stands_only_as: list[Literal["same", "change"]] = Field(
        default=[],
        description="Empty: kept alone. Else kept only as what it surely is to a memory the owner has: the same "
        'fact said again ("坐飞机让我很紧张" beside "我怕坐飞机"), or a change told in passing ("Sold the Corolla, '
        'got a BYD"). A statement the durable model doubts is worth nothing alone.',
    )


class ExtractInput(BaseModel):
    episodes: list[str] = Field(description="What the user said, a statement each (memgw.common.formation).")
    durable: list[float] | None = Field(
        default=None, description="Each statement's probability of being a durable fact of the user, when known."
    )

    @model_validator(mode="after")
    def _aligned(self) -> ExtractInput:
        if self.durable is not None and len(self.durable) != len(self.episodes):
            raise ValueError("durable must give one probability for each statement")
        return self


class ExtractOutput(BaseModel):
    candidates: list[CandidateMemory]
    summary: str
    method: str = Field(
        description="How: 'durable' (the default model), 'rules' (an embedder the model does not know), or 'llm'"
        " when an endpoint is configured and answered usably."
    )


class ExtractMemory(Skill[ExtractInput, ExtractOutput]):
    name = "extract_memory"
    summary = "Candidate memories (facts, preferences, decisions, experiences, lessons) from episodes."
    Input, Output = ExtractInput, ExtractOutput

    def __init__(self, settings: Settings) -> None:
        super().__init__(settings)
        c = settings.consolidation
        self._llm = LlmExtractor(c) if c.llm_base_url else None

    async def run(self, data: ExtractInput) -> ExtractOutput:
        if self._llm is not None:
            found = await self._llm.extract(data.episodes, data.durable)
        elif data.durable is not None:
            found = durable_extract(data.episodes, data.durable)
        else:
            found = rule_extract(data.episodes)
        candidates = [CandidateMemory(**vars(c)) for c in found.candidates]
        return ExtractOutput(candidates=candidates, summary=found.summary, method=found.method)

    async def close(self) -> None:
        if self._llm is not None:
            await self._llm.close()


# -- classify_memory ----------------------------------------------------------------------------------------


class ClassifyInput(BaseModel):
    content: str
    user_id: str
    agent_id: str | None = None
    workspace_id: str | None = None
    memory_type: str | None = Field(default=None, description="Kept when given.")
    visibility: Visibility | None = Field(default=None, description="Kept when given.")


class Classification(BaseModel):
    memory_type: str
    visibility: Visibility
    namespaces: list[str] = Field(description="Where such a memory may go, the default first.")
    reason: str


def _visibility_for(data: ClassifyInput, memory_type: str) -> tuple[Visibility, str]:
    if data.visibility is not None:
        return data.visibility, "visibility as given"
    if data.workspace_id:
        return Visibility.WORKSPACE_SHARED, "a workspace was named"
    if data.agent_id and memory_type in (MemoryType.EXPERIENCE, MemoryType.FAILURE):
        return Visibility.AGENT_ONLY, "an agent's own experience (seed 004 §C: agent/{agent}/memory)"
    return Visibility.PRIVATE, "the user's own"


def classified(data: ClassifyInput, memory_type: str, type_reason: str) -> Classification:
    visibility, why = _visibility_for(data, memory_type)
    # A visibility the writer asked for and its ids cannot carry (agent-only without an agent) is
    # ValueError, the writer's to mend; one the rules chose always can.
    namespaces = namespaces_for(
        memory_type=memory_type,
        visibility=visibility,
        user_id=data.user_id,
        agent_id=data.agent_id,
        workspace_id=data.workspace_id,
    )
    return Classification(
        memory_type=memory_type, visibility=visibility, namespaces=list(namespaces), reason=f"{type_reason}; {why}"
    )


class ClassifyMemory(Skill[ClassifyInput, Classification]):
    name = "classify_memory"
    summary = "Type, visibility and namespace of a memory whose writer did not say (rules over zh/en cues)."
    Input, Output = ClassifyInput, Classification

    async def run(self, data: ClassifyInput) -> Classification:
        if data.memory_type:
            return classified(data, data.memory_type, "type as given")
        memory_type = classify_type(data.content) or MemoryType.FACT.value
        return classified(data, memory_type, f"rules: {memory_type}")


_CLASSIFY_PROMPT = (
    "Classify one memory of an AI agent's user. memory_type: profile (who the user is), preference, fact, decision, "
    "experience (what worked), failure (a lesson from what did not), note. Answer with JSON only."
)
_CLASSIFY_SCHEMA = {
    "name": "classification",
    "schema": {
        "type": "object",
        "properties": {"memory_type": {"enum": [t.value for t in MemoryType if t != MemoryType.RESOURCE]}},
        "required": ["memory_type"],
    },
}


class LlmClassifyMemory(ClassifyMemory):
    """``classify_memory`` by the configured OpenAI-compatible chat endpoint (MEMGW_LLM_BASE_URL);
    the rules answer when it is not configured or its answer cannot be used. Visibility stays a rule:
    who may read a memory is not left to a model."""

    summary = "Type of a memory by the configured LLM (rules as fallback); visibility and namespace by rule."

    def __init__(self, settings: Settings) -> None:
        super().__init__(settings)
        c = settings.consolidation
        self._model = c.llm_model
        self._client = chat_client(c) if c.llm_base_url else None

    async def run(self, data: ClassifyInput) -> Classification:
        if data.memory_type or self._client is None:
            return await super().run(data)
        body = {
            "model": self._model,
            "messages": [
                {"role": "system", "content": _CLASSIFY_PROMPT},
                {"role": "user", "content": redact(data.content)},
            ],
            "response_format": {"type": "json_schema", "json_schema": _CLASSIFY_SCHEMA},
            "temperature": 0,
        }
        try:
            response = await self._client.post("chat/completions", json=body)
            response.raise_for_status()
            memory_type = MemoryType(json.loads(response.json()["choices"][0]["message"]["content"])["memory_type"])
        except (httpx.HTTPError, ValueError, KeyError, TypeError, IndexError) as exc:
            log.warning("classify.llm_fallback", error=str(exc)[:300])
            return await super().run(data)
        return classified(data, memory_type.value, f"llm: {memory_type.value}")

    async def close(self) -> None:
        if self._client is not None:
            await self._client.aclose()


# -- commit_memory ------------------------------------------------------------------------------------------


class CommitInput(BaseModel):
    importance: float = Field(ge=0, le=1)
    confidence: float = Field(ge=0, le=1)
    evidence_count: int = Field(default=1, ge=1)
    source: str = Field(default="consolidator", description="Where the memory came from, for its credibility.")
    min_importance: float
    min_confidence: float


class CommitDecision(BaseModel):
    promote: bool
    score: float
    reason: str


# -- summarize_episode --------------------------------------------------------------------------------------


class SummarizeInput(BaseModel):
    episodes: list[str]
    limit: int = Field(default=300, ge=20, le=5_000)


class SummarizeOutput(BaseModel):
    summary: str


# -- merge_memory -------------------------------------------------------------------------------------------


class MergeSide(BaseModel):
    importance: float
    confidence: float
    tags: list[str] = []
    evidence_count: int = 1
    sessions: list[str] = []
    source_refs: list[str] = []


class MergeInput(BaseModel):
    existing: MergeSide
    incoming: MergeSide


class MergeOutput(BaseModel):
    importance: float
    confidence: float
    tags: list[str]
    evidence_count: int
    sessions: list[str]
    source_refs: list[str]


# -- prune_memory -------------------------------------------------------------------------------------------


class PruneFacts(BaseModel):
    id: str
    importance: float
    base_importance: float
    touched_at: datetime = Field(description="Last retrieved, else created.")
    evidence_count: int = 1
    useful: int = Field(default=0, description="Times marked useful.")
    outdated: int = Field(default=0, description="Times marked outdated.")


class PruneInput(BaseModel):
    memories: list[PruneFacts]
    now: datetime


class PruneDecision(BaseModel):
    id: str
    action: Literal["keep", "decay", "archive"]
    importance: float
    reason: str


class PruneOutput(BaseModel):
    decisions: list[PruneDecision]
