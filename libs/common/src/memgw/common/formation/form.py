"""The one way a conversation forms memory, on every path (session commit, mem0 ``add`` with infer,
EverMemOS ``flush``, the plugins, the Conversation source): the user's statements by speaker, each
judged durable or not by the shipped model over the embedder's vectors, then the ``extract_memory``
skill (the LLM's, when one is configured)."""

from __future__ import annotations

from memgw.common.embedding.base import Embedder
from memgw.common.formation.durable import for_embedder
from memgw.common.formation.speakers import user_statements
from memgw.common.skills import Skills
from memgw.common.skills.memory import ExtractInput, ExtractMemory, ExtractOutput


async def extract(skills: Skills, embedder: Embedder, episodes: list[tuple[str | None, str]]) -> ExtractOutput:
    """Candidate memories of what the user said in ``episodes`` ((role, text), role None = the user's)."""
    said = user_statements(episodes)
    model = for_embedder(embedder.name)
    durable = model.probabilities(await embedder.embed_passages(said)) if model is not None and said else None
    if model is not None and not said:
        durable = []
    return await skills.run(ExtractMemory, ExtractInput(episodes=said, durable=durable))
