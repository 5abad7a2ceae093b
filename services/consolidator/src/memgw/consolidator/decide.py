"""With an LLM configured (``MEMGW_LLM_BASE_URL``): what a new fact does to the owner's nearest
memories, decided by the model as mem0's update step decides, then checked.

The model is shown the new fact and, numbered, the owner's nearest existing memories (never another
owner's), and answers one of:
- ``add``: a new fact; it is stored beside the others;
- ``update``: the same fact as memory N (in other words, or a little more precise): evidence on it;
- ``supersede``: a new value of memory N's single-valued attribute that replaces it (N is archived with
  when it stopped holding, the new one stands from now);
- ``review``: it contradicts memory N and the model is not sure which holds: a person decides;
- ``none``: nothing worth keeping.

The answer is structured output checked against ``Decision``: an unknown action, a memory number not
shown, malformed JSON, a refusal, a truncated answer, an error or a timeout all give None, and the
default decides as if no LLM were configured.
"""

from __future__ import annotations

from typing import Any, Literal

import httpx
from pydantic import BaseModel, ValidationError

from memgw.common.extraction import ask_json, chat_client
from memgw.common.logging import get_logger
from memgw.common.secrets import redact
from memgw.common.settings import ConsolidationSettings

log = get_logger("memgw.consolidator.decide")

Action = Literal["add", "update", "supersede", "review", "none"]

PROMPT = (
    "You keep a person's long-term memory. You get one NEW fact about the user and their EXISTING memories, "
    "numbered. Decide what the new fact does:\n"
    '- "add": it is a new fact, unrelated to or compatible with every existing one (also an addition to a '
    'many-valued fact, like "I also like jazz");\n'
    '- "update": it says the same as existing memory N, maybe in other words or a little more precisely;\n'
    '- "supersede": it gives a new value of the same single-valued attribute as memory N (where they live, '
    "their employer, relationship, diet, phone number …), so N no longer holds;\n"
    '- "review": it contradicts memory N and you cannot tell which one holds;\n'
    '- "none": it is not a lasting fact about the user (small talk, a question, a hypothetical, someone '
    "else's fact, the past).\n"
    'Answer with JSON only: {"action": …, "memory": N or null, "reason": "…"}.'
)
SCHEMA = {
    "name": "memory_decision",
    "schema": {
        "type": "object",
        "properties": {
            "action": {"enum": ["add", "update", "supersede", "review", "none"]},
            "memory": {"type": ["integer", "null"]},
            "reason": {"type": "string"},
        },
        "required": ["action", "memory", "reason"],
        "additionalProperties": False,
    },
}


class Decision(BaseModel):
    action: Action
    memory: int | None = None
    reason: str = ""


class Decided(BaseModel):
    """A checked decision: ``target`` is one of the memories shown (None for add and none)."""

    action: Action
    target: Any = None
    reason: str


class LlmDecider:
    def __init__(self, settings: ConsolidationSettings, transport: httpx.AsyncBaseTransport | None = None):
        self._client = chat_client(settings, transport)
        self._model = settings.llm_model

    async def close(self) -> None:
        await self._client.aclose()

    async def decide(self, fact: str, existing: list[Any]) -> Decided | None:
        """The model's checked decision on ``fact`` against ``existing`` rows, None to fall back."""
        try:
            decision = Decision.model_validate(await self._ask(fact, existing))
        except (httpx.HTTPError, ValueError, KeyError, TypeError, ValidationError) as exc:
            log.warning("decide.llm_fallback", error=str(exc)[:300])
            return None
        needs_target = decision.action in ("update", "supersede", "review")
        shown = decision.memory is not None and 1 <= decision.memory <= len(existing)
        if needs_target and not shown:
            log.warning("decide.llm_fallback", error=f"{decision.action} names no memory shown: {decision.memory}")
            return None
        target = existing[decision.memory - 1] if needs_target and decision.memory is not None else None
        return Decided(action=decision.action, target=target, reason=f"llm: {decision.reason[:200]}")

    async def _ask(self, fact: str, existing: list[Any]) -> Any:
        listed = "\n".join(f"{n}. {redact(row['content'])}" for n, row in enumerate(existing, start=1)) or "(none)"
        return await ask_json(self._client, self._model, PROMPT, f"NEW: {redact(fact)}\n\nEXISTING:\n{listed}", SCHEMA)
