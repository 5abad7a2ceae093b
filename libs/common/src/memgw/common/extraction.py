"""How the ``extract_memory`` skill finds candidate memories in what people and agents said (a
session's episodes at commit, the turns a mem0 client adds): deterministic rules for Chinese and
English by default, an OpenAI-compatible chat endpoint with a structured-output prompt when one is
configured. Callers go through the skill (``memgw.common.skills.memory``), never here.

A bad LLM answer (an error, malformed or truncated JSON, too slow) falls back to the rules: the
episode is never lost. Secrets (tokens, keys, passwords) never become memories on either path.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field, replace
from typing import Any

import httpx

from memgw.common.formation import answers, statuses
from memgw.common.formation.durable import DOUBTED_AT, KEEP_AT
from memgw.common.formation.structure import (
    a_task,
    about_someone_else,
    about_user,
    an_acquaintances_own,
    family_named,
    for_a_while,
    imagined,
    is_question,
    make_believe,
    names_a_relation,
    news_of_someone_else,
    of_the_moment,
    presupposed,
    says_it_changed,
    says_what_holds_now,
    standing_instruction,
    states_a_contact,
    tells_a_change,
)
from memgw.common.logging import get_logger
from memgw.common.secrets import contains_secret, redact
from memgw.common.settings import ConsolidationSettings
from memgw.common.text import is_cjk, sentences

log = get_logger("memgw.common.extraction")


@dataclass
class Candidate:
    content: str
    memory_type: str
    importance: float
    confidence: float
    tags: list[str] = field(default_factory=list)
    stands_only_as: list[str] = field(default_factory=list)  # see CandidateMemory


@dataclass
class Extraction:
    candidates: list[Candidate]
    summary: str
    method: str  # "durable" (the default), "rules" (an embedder the model does not know) or "llm"


# (memory type, importance, confidence, patterns): the first rule that matches a sentence wins.
_RULES: list[tuple[str, float, float, re.Pattern[str]]] = [
    (
        "failure",
        0.75,
        0.8,
        re.compile(
            r"(教训|踩坑|失败|报错|不要再|下次要|\b(?:lesson|learned|failed|broke|mistake|never again|root cause)\b)",
            re.I,
        ),
    ),
    (
        "decision",
        0.8,
        0.85,
        re.compile(
            r"(决定|确定|选择了|采用|定下|\b(?:we decided|decided to|we chose|agreed to|will use|going with)\b)", re.I
        ),
    ),
    (
        "preference",
        0.7,
        0.8,
        re.compile(
            r"(偏好|喜欢|不喜欢|讨厌|习惯|希望|想要|不要|爱喝|不再|\b(?:prefers?|likes?|loves?|hates?|dislikes?|"
            r"would rather|favou?rite|no longer|doesn't like|does not like)\b)",
            re.I,
        ),
    ),
    (
        "fact",
        0.65,
        0.75,
        re.compile(
            r"(住在|搬到|搬回|搬去|来自|工作于|在.+工作|在[^，,。！？!?]+上班|常驻|base在|我是|我的名字|生日|名叫"
            r"|\b(?:lives? in|living in|rent(?:s|ing)? in|based (?:in|out of)"
            r"|moved (?:back |down |up |over |out |away )?to"
            r"|works? (at|for)|my name is|born in|is from|is a |is an ))",
            re.I,
        ),
    ),
    (
        "experience",
        0.55,
        0.7,
        re.compile(
            r"(完成了|实现了|学会|发现|经验|总结|\b(?:finished|implemented|learned that|found that|discovered)\b)", re.I
        ),
    ),
]
_FACT, _PREFERENCE = (
    next((importance, confidence) for t, importance, confidence, _ in _RULES if t == kind)
    for kind in ("fact", "preference")
)
_TAGS = {
    "failure": "lesson",
    "decision": "decision",
    "preference": "preference",
    "fact": "fact",
    "experience": "experience",
}


def _rule_of(sentence: str) -> tuple[str, float, float] | None:
    """(memory type, importance, confidence) of the first rule that matches ``sentence``, or None."""
    for memory_type, importance, confidence, pattern in _RULES:
        if pattern.search(sentence):
            return memory_type, importance, confidence
    return None


def classify_type(sentence: str) -> str | None:
    """The memory type the rules give one sentence, None when no rule matches."""
    rule = _rule_of(sentence)
    return rule[0] if rule else None


def _candidate(sentence: str, rule: tuple[str, float, float]) -> Candidate:
    memory_type, importance, confidence = rule
    return Candidate(sentence, memory_type, importance, confidence, [_TAGS[memory_type]])


def durable_extract(statements: list[str], durable: list[float]) -> Extraction:
    """The user's statements the durable model keeps (``durable``: each one's probability), each as it
    was said: the user's own clause. The model decides whether; besides, a statement whose
    subject is the user ("I …", "The user …", "我…", "用户…", not "If I …" nor "My brother …") and
    that states a fact, preference, decision or lesson of theirs is kept too (not an answer read with its question,
    "我之前说喜欢爬山，要不要推荐几条路线？先不用了": the answers model judges it whole), and so is one that says who
    someone is to the user ("Ravi is my husband", "我女朋友叫小雨": family is a standing fact), or says
    their relationship status, diet or drinking outright ("I'm seeing someone", "我们已经分开了", "I'm
    teetotal": ``statuses``), and one that tells the assistant how to answer or address the user from
    now on ("Please answer in Portuguese", "Call me Sam", "回答请用英文": a preference, whatever the
    model says of a request), and one that gives a contact of the user's with its value ("My email is
    tom.h@yahoo.com": the vectors read an address poorly). The type (and with it importance and
    confidence, so what is promoted at once and what waits as a candidate) is its rule's where one
    matches, else a plain fact's. A question, make-believe ("Imagine I were …"), a
    condition or a wish ("If I were rich …"), another person's news ("My cousin is getting married in
    May") or what holds only today ("I'm shattered today") is never kept, whatever its vector says.

    A statement of the user's that the model doubts but does not reject is passed on marked
    ``stands_only_as``: the consolidator keeps it only as the same fact said again as one of the user's
    memories ("坐飞机让我很紧张害怕" beside "我怕坐飞机"), or, when it tells a change in passing ("Sold the
    Corolla, got a BYD": no subject, so no rule; "我已经不去健身房了": a denial with the aspect of a change) or says
    what holds now ("I'm driving a Kia Picanto now"), as a change of one. What it is to a memory decides its
    worth. So is, whatever the sentence is worth, what it takes for granted of the user in passing
    (``structure.presupposed``: "I live in Aberdeen" of "it's freezing up here in Aberdeen"), as the same fact
    said again only, unless it is who a family member or a partner named is to the user ("Luke is my boyfriend"
    of "my boyfriend Luke and I are going to Rome in May"): a standing fact of their own."""
    candidates: list[Candidate] = []
    for sentence, p in zip(statements, durable, strict=True):
        if contains_secret(sentence):
            continue
        own = None if _too_short(sentence) or _not_a_standing_fact(sentence) else _judged_alone(sentence, p)
        if not make_believe(sentence):  # who they are to the user holds whatever the user imagines they do
            # Kept whole, the sentence says who they are already ("My daughter Emma is 7").
            family = family_named(sentence) if own is None or own.stands_only_as else []
            candidates += [_candidate(taken, ("fact", *_FACT)) for taken in family]
            if not imagined(sentence):
                candidates += [
                    replace(_candidate(taken, ("fact", *_FACT)), stands_only_as=["same"])
                    for taken in presupposed(sentence)
                    if taken not in family
                ]
        if own is not None:
            candidates.append(own)
    return Extraction(candidates=candidates, summary=summarize(statements), method="durable")


def _judged_alone(sentence: str, p: float) -> Candidate | None:
    """The candidate a statement of the user's is by itself (``durable_extract``), or None."""
    rule = _rule_of(sentence)
    if standing_instruction(sentence):
        return _candidate(sentence, rule or ("preference", *_PREFERENCE))
    if (
        p >= KEEP_AT
        or (about_user(sentence) and rule and not answers.answered(sentence))
        or names_a_relation(sentence)
        or statuses.said_outright(sentence)
        or states_a_contact(sentence)
    ):
        return _candidate(sentence, rule or ("fact", *_FACT))
    # The user's own change told as one ("I've started drinking coffee again") is doubted however the model reads it:
    # what began reads to it as an activity, and only a memory it changes, as sure as a doubted statement must be,
    # keeps it.
    changes = says_it_changed(sentence) or says_what_holds_now(sentence)
    if (p >= DOUBTED_AT or (changes and about_user(sentence))) and not _other_or_passing(sentence):
        stands_only_as = ["same", "change"] if changes else ["same"]
        return replace(_candidate(sentence, rule or ("fact", *_FACT)), stands_only_as=stands_only_as)
    return None


def _too_short(sentence: str) -> bool:
    """Too short to state a fact: "ok", "Hi!", "好安静". Chinese says one of the user's in three characters ("我吃素",
    "我单身")."""
    own_in_chinese = any(is_cjk(ch) for ch in sentence) and about_user(sentence)
    return len(sentence) < (3 if own_in_chinese else 4)


def _not_a_standing_fact(sentence: str) -> bool:
    """A question or a task ("in the draft, change the sender to …"), make-believe, a condition or a wish ("假如我中了
    彩票…", "Someday I'll learn to surf"), another person's news ("My uncle just got a job in Dubai") or a friend's or a
    colleague's own fact ("My colleague Dan is allergic to shellfish": ``an_acquaintances_own``), or what holds
    today only ("Today I started at …" begins what lasts) or for a while only ("I'm in Rome until Sunday",
    "这几天先用我老婆的旧手机")."""
    return (
        is_question(sentence)
        or a_task(sentence)
        or make_believe(sentence)
        or imagined(sentence)
        or news_of_someone_else(sentence)
        or an_acquaintances_own(sentence)
        or (of_the_moment(sentence) and not tells_a_change(sentence))
        or for_a_while(sentence)
    )


def _other_or_passing(sentence: str) -> bool:
    """Someone else's change, or one of today only ("Today I had tea instead")."""
    return about_someone_else(sentence) or of_the_moment(sentence)


def rule_extract(episodes: list[str]) -> Extraction:
    """Word rules, for an embedder the durable model was not trained on."""
    candidates: list[Candidate] = []
    for episode in episodes:
        for sentence in sentences(episode):
            if len(sentence) >= 4 and not contains_secret(sentence) and (rule := _rule_of(sentence)):
                candidates.append(_candidate(sentence, rule))
    return Extraction(candidates=candidates, summary=summarize(episodes), method="rules")


def summarize(episodes: list[str], limit: int = 300) -> str:
    """The first sentence of each episode, secrets redacted, within ``limit`` characters."""
    firsts = [redact(said[0]) for e in episodes if (said := sentences(e))]
    summary = " ".join(firsts)
    return summary if len(summary) <= limit else summary[: limit - 1] + "…"


_SCHEMA = {
    "name": "memories",
    "schema": {
        "type": "object",
        "properties": {
            "summary": {"type": "string"},
            "memories": {
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": {
                        "content": {"type": "string"},
                        "memory_type": {"enum": ["fact", "preference", "decision", "experience", "failure"]},
                        "importance": {"type": "number"},
                        "confidence": {"type": "number"},
                        "tags": {"type": "array", "items": {"type": "string"}},
                    },
                    "required": ["content", "memory_type", "importance", "confidence"],
                },
            },
        },
        "required": ["summary", "memories"],
    },
}
_PROMPT = (
    "Extract durable memories from this agent session: facts, preferences, decisions, experiences and lessons from "
    "failures. One self-contained sentence each, in the language of the session. Never include secrets, tokens, "
    "keys or passwords. Score importance and confidence from 0 to 1. Answer with JSON only."
)


def chat_client(
    settings: ConsolidationSettings, transport: httpx.AsyncBaseTransport | None = None
) -> httpx.AsyncClient:
    """A client of the configured OpenAI-compatible chat endpoint (MEMGW_LLM_*), for every skill that asks it."""
    assert settings.llm_base_url
    headers = {"Authorization": f"Bearer {settings.llm_api_key}"} if settings.llm_api_key else {}
    return httpx.AsyncClient(
        base_url=settings.llm_base_url.rstrip("/") + "/",
        timeout=settings.llm_timeout_s,
        headers=headers,
        transport=transport,
    )


async def ask_json(client: httpx.AsyncClient, model: str, system: str, user: str, schema: dict[str, Any]) -> Any:
    """The JSON a chat endpoint answers to ``system`` and ``user``, asked for as structured output by
    ``schema``; ValueError for a truncated or refused answer (JSON that does not parse raises too)."""
    body = {
        "model": model,
        "messages": [{"role": "system", "content": system}, {"role": "user", "content": user}],
        "response_format": {"type": "json_schema", "json_schema": schema},
        "temperature": 0,
    }
    response = await client.post("chat/completions", json=body)
    response.raise_for_status()
    choice = response.json()["choices"][0]
    if choice.get("finish_reason") == "length":
        raise ValueError("the answer was truncated")
    if choice["message"].get("refusal"):
        raise ValueError(f"the model refused: {choice['message']['refusal']}")
    return json.loads(choice["message"]["content"])


class LlmExtractor:
    def __init__(self, settings: ConsolidationSettings, transport: httpx.AsyncBaseTransport | None = None):
        self._client = chat_client(settings, transport)
        self._model = settings.llm_model

    async def close(self) -> None:
        await self._client.aclose()

    async def extract(self, episodes: list[str], durable: list[float] | None = None) -> Extraction:
        """The LLM's extraction, or the default's when the answer cannot be used."""
        try:
            return self._parse(await self._ask(episodes))
        except (httpx.HTTPError, ValueError, KeyError, TypeError) as exc:
            log.warning("extract.llm_fallback", error=str(exc)[:300])
            return durable_extract(episodes, durable) if durable is not None else rule_extract(episodes)

    async def _ask(self, episodes: list[str]) -> Any:
        said = "\n\n".join(f"- {redact(e)}" for e in episodes)
        return await ask_json(self._client, self._model, _PROMPT, said, _SCHEMA)

    @staticmethod
    def _parse(answer: Any) -> Extraction:
        candidates = []
        for item in answer["memories"]:
            content = str(item["content"]).strip()
            if not content or contains_secret(content):
                continue
            candidates.append(
                Candidate(
                    content=content,
                    memory_type=str(item["memory_type"]),
                    importance=min(1.0, max(0.0, float(item["importance"]))),
                    confidence=min(1.0, max(0.0, float(item["confidence"]))),
                    tags=[str(t) for t in item.get("tags", [])][:8],
                )
            )
        return Extraction(candidates=candidates, summary=redact(str(answer["summary"]))[:500], method="llm")
