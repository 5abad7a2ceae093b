"""The one way a conversation forms memory, on every path (session commit, mem0 ``add`` with infer,
EverMemOS ``flush``, the plugins, the Conversation source): the user's statements by speaker, each
judged durable or not by the shipped models over the embedder's vectors, then the ``extract_memory``
skill (the LLM's, when one is configured)."""

from __future__ import annotations

from memgw.common.embedding.base import Embedder
from memgw.common.formation import answers, durable, ongoing
from memgw.common.formation.durable import KEEP_AT, DurableModel
from memgw.common.formation.speakers import user_statements
from memgw.common.formation.structure import (
    asks,
    clauses_alone,
    framed,
    in_progress,
    is_question,
    names_an_address,
    opens_in_role,
    standing_instruction,
)
from memgw.common.secrets import contains_secret
from memgw.common.skills import Skills
from memgw.common.skills.memory import ExtractInput, ExtractMemory, ExtractOutput

# The durable model; the ongoing model, for statements in progress; the answers model, for an answer to a question.
Models = tuple[DurableModel, DurableModel, DurableModel]


async def extract(skills: Skills, embedder: Embedder, episodes: list[tuple[str | None, str]]) -> ExtractOutput:
    """Candidate memories of what the user said in ``episodes`` ((role, text), role None = the user's)."""
    said = user_statements(episodes)
    name = embedder.name
    lasting, going, answer = durable.for_embedder(name), ongoing.for_embedder(name), answers.for_embedder(name)
    weights: list[float] | None = None
    if lasting is not None and going is not None and answer is not None:
        said, weights = await _judged((lasting, going, answer), embedder, said)
    return await skills.run(ExtractMemory, ExtractInput(episodes=said, durable=weights))


async def _probabilities(models: Models, embedder: Embedder, said: list[str]) -> list[float]:
    """How likely each statement is durable: the durable model's, the ongoing model's for what the user says
    they are doing ("I'm charging my phone"), or the answers model's for an answer to the assistant's question
    ("Where am I based? Leeds")."""
    vectors = await embedder.embed_passages(said)
    lasting, going, answer = models
    p = durable.in_place(said, vectors, lasting.probabilities(vectors), going, in_progress)
    return durable.in_place(said, vectors, p, answer, answers.answered)


async def _judged(models: Models, embedder: Embedder, said: list[str]) -> tuple[list[str], list[float]]:
    """Each statement with how likely it is durable. A sentence the model does not keep may still state a
    fact beside a request or an aside ("推荐个菜吧，香菜我是一点都不碰的", "I have a boyfriend now, so dinner
    for two"): the whole weighs the fact down, so such a sentence's clauses are judged each alone instead. So
    are those of a question, which as a whole states nothing ("I'm diabetic so can you suggest a cake?"). So
    are those of a sentence a condition or a moment frames in part ("I'm exhausted today, I have a newborn at
    home"), within its scope (``structure.clauses_alone``: not "今天好累啊，不想动"). A role the user speaks in is
    a clause of its own ("as a dad of two girls I need ideas for a rainy weekend"), judged as said ("as a result"
    is no role) and kept as a statement ("I'm a dad of two girls"). Not a sentence that holds a secret: none of it
    becomes a memory; nor an answer read with its question, which says what it says only whole."""
    if not said:
        return [], []
    whole = await _probabilities(models, embedder, said)
    parts = {
        i: [piece for clause in cut for piece in _in_role(clause)]
        for i, (sentence, p) in enumerate(zip(said, whole, strict=True))
        if (cut := _cut(sentence, p))
    }
    flat = [judged for cut in parts.values() for judged, _ in cut]
    found = iter(await _probabilities(models, embedder, flat)) if flat else iter(())
    statements, weights = [], []
    for i, (sentence, p) in enumerate(zip(said, whole, strict=True)):
        if i not in parts:
            alone = _in_role(sentence)  # a role said alone ("As a nurse working nights") is kept as a statement
            statements.append(alone[0][1] if len(alone) == 1 else sentence)
            weights.append(p)
        for _, kept in parts.get(i, []):
            statements.append(kept)
            weights.append(next(found))
    return statements, weights


def _cut(sentence: str, p: float) -> list[str] | None:
    """The clauses ``sentence`` is judged by, each alone (``_judged``); None when it is judged whole. A clause that
    asks is none of them, unless it asks how to answer or reach the user from now on ("please use sam@proton.me from
    now on"): the ask itself is no memory ("帮我写封邮件")."""
    weighed_down = p < KEEP_AT or framed(sentence)
    if contains_secret(sentence) or answers.answered(sentence) or not (weighed_down or is_question(sentence)):
        return None
    cut = clauses_alone(sentence)
    if not cut:
        return [sentence] if weighed_down else None
    return [c for c in cut if standing_instruction(c) or names_an_address(c) or not asks(c)] or None


def _in_role(clause: str) -> list[tuple[str, str]]:
    """(as judged, as kept) of each piece of ``clause``: a role it opens with, and the rest."""
    role = opens_in_role(clause)
    if role is None:
        return [(clause, clause)]
    return [(role.said, role.statement), *([(role.rest, role.rest)] if role.rest else [])]
