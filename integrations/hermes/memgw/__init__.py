"""Memory Gateway as a Hermes memory provider.

Install: copy this folder to ``$HERMES_HOME/plugins/memgw``, install ``memgw-client`` into Hermes'
environment, set ``memory.provider: memgw`` in ``config.yaml`` and give it the gateway:
``MEMGW_URL`` and ``MEMGW_API_KEY`` (environment or ``$HERMES_HOME/.env``).

- prefetch: a search for the coming turn, given to the model as context;
- sync_turn: the turn becomes an episode of this session (short-term, in the background);
- on_session_end: the session is committed; the gateway's consolidator keeps what lasts. A one-shot
  run (``hermes -z``) ends the session before Hermes sends its last turn (its memory manager drains the
  turns in ``shutdown_all``, after ``on_session_end``): a turn sent after the last commit is committed
  at ``shutdown``;
- tools: ``memgw_search``, ``memgw_remember``, ``memgw_forget``.
The key decides whose memory this is; nothing here names a user.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import queue
import re
import threading
from typing import Any

from agent.memory_provider import MemoryProvider

logger = logging.getLogger(__name__)
_SESSION_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.@-]{0,127}$")

SEARCH = {
    "name": "memgw_search",
    "description": "Search the user's long-term memory (facts, preferences, decisions) by meaning and keywords.",
    "parameters": {
        "type": "object",
        "properties": {
            "query": {"type": "string", "description": "What to look for, in any language."},
            "limit": {"type": "integer", "minimum": 1, "maximum": 20, "description": "How many memories (default 5)."},
        },
        "required": ["query"],
    },
}
REMEMBER = {
    "name": "memgw_remember",
    "description": "Store one durable fact, preference or decision about the user or the work.",
    "parameters": {
        "type": "object",
        "properties": {
            "content": {"type": "string", "description": "One self-contained statement."},
            "memory_type": {
                "type": "string",
                "enum": ["fact", "preference", "decision", "experience", "failure", "note"],
                "description": "What kind of memory it is (default fact).",
            },
        },
        "required": ["content"],
    },
}
FORGET = {
    "name": "memgw_forget",
    "description": "Delete a memory that is wrong or no longer wanted (its id comes from memgw_search).",
    "parameters": {
        "type": "object",
        "properties": {"memory_id": {"type": "string", "description": "The memory's id."}},
        "required": ["memory_id"],
    },
}


def _session(session_id: str) -> str:
    """Hermes' session id as a gateway session id (kept when it already is one)."""
    if _SESSION_ID.match(session_id or ""):
        return session_id
    return "hermes-" + hashlib.sha256((session_id or "default").encode()).hexdigest()[:24]


class MemgwProvider(MemoryProvider):  # type: ignore[misc]  # Hermes is not installed beside the project
    def __init__(self) -> None:
        self._gateway: Any = None
        self._session = ""
        self._pending: queue.Queue[tuple[str, str] | None] = queue.Queue()
        self._writer: threading.Thread | None = None
        self._uncommitted = False  # a turn was sent since the last commit

    @property
    def name(self) -> str:
        return "memgw"

    def is_available(self) -> bool:
        return bool(os.environ.get("MEMGW_URL") and os.environ.get("MEMGW_API_KEY"))

    def initialize(self, session_id: str, **kwargs: Any) -> None:
        from memgw.client import MemoryGateway

        self._gateway = MemoryGateway(os.environ["MEMGW_URL"], api_key=os.environ["MEMGW_API_KEY"], timeout=15)
        self._session = _session(session_id)

    def system_prompt_block(self) -> str:
        return (
            "You have a long-term memory (Memory Gateway). Relevant memories are given before each turn;"
            " use memgw_search for more, memgw_remember for durable facts, memgw_forget for wrong ones."
        )

    def prefetch(self, query: str, *, session_id: str = "") -> str:
        if self._gateway is None or not query.strip():
            return ""
        try:
            hits = self._gateway.search(query[:2000], limit=5)
        except Exception as exc:  # recall is best effort: the turn goes on without it
            logger.warning("memgw recall failed: %s", exc)
            return ""
        lines = [f"- {h['memory']['content']}" for h in hits]
        return "## From long-term memory\n" + "\n".join(lines) if lines else ""

    def sync_turn(self, user_content: str, assistant_content: str, *, session_id: str = "", **_: Any) -> None:
        """Queued: one writer sends the turns in order, off the agent's path."""
        if self._gateway is None:
            return
        text = f"User: {user_content}\nAssistant: {assistant_content}"[:30_000]
        self._pending.put((_session(session_id) if session_id else self._session, text))
        if self._writer is None or not self._writer.is_alive():
            self._writer = threading.Thread(target=self._write, name="memgw-episodes", daemon=True)
            self._writer.start()

    def _write(self) -> None:
        while (turn := self._pending.get()) is not None:
            try:
                self._gateway.append_episode(*turn)
                self._uncommitted = True
            except Exception as exc:
                logger.warning("memgw episode failed: %s", exc)

    def on_session_end(self, messages: list[dict[str, Any]]) -> None:
        self._flush()
        self._commit()

    def _commit(self) -> None:
        if self._gateway is None or not self._uncommitted:
            return
        try:
            self._gateway.commit(self._session)
            self._uncommitted = False
        except Exception as exc:  # the episodes stay in the session; the next end commits them
            logger.warning("memgw commit failed: %s", exc)

    def get_tool_schemas(self) -> list[dict[str, Any]]:
        return [SEARCH, REMEMBER, FORGET]

    def handle_tool_call(self, tool_name: str, args: dict[str, Any], **kwargs: Any) -> str:
        from memgw.client import GatewayError

        if self._gateway is None:
            return json.dumps({"error": "Memory Gateway is not initialised (MEMGW_URL, MEMGW_API_KEY)"})
        try:
            if tool_name == "memgw_search":
                limit = max(1, min(int(args.get("limit", 5)), 20))
                hits = self._gateway.search(str(args["query"]), limit=limit)
                return json.dumps(
                    {
                        "results": [
                            {"id": h["memory"]["id"], "memory": h["memory"]["content"], "score": h["score"]}
                            for h in hits
                        ]
                    },
                    ensure_ascii=False,
                )
            if tool_name == "memgw_remember":
                made = self._gateway.remember(str(args["content"]), memory_type=args.get("memory_type") or "fact")
                return json.dumps({"result": "stored", "id": made["id"]})
            if tool_name == "memgw_forget":
                self._gateway.delete(str(args["memory_id"]))
                return json.dumps({"result": "deleted", "id": args["memory_id"]})
        except GatewayError as exc:
            return json.dumps({"error": f"{exc.code}: {exc.detail}"})
        except (KeyError, ValueError) as exc:
            return json.dumps({"error": f"invalid arguments: {exc}"})
        return json.dumps({"error": f"unknown tool {tool_name}"})

    def shutdown(self) -> None:
        self._flush()
        self._commit()  # turns Hermes sent after on_session_end (a one-shot run's only turn)
        if self._gateway is not None:
            self._gateway.close()
            self._gateway = None

    def _flush(self) -> None:
        """Wait until every queued turn is sent."""
        if self._writer is not None and self._writer.is_alive():
            self._pending.put(None)
            self._writer.join(timeout=30)
        self._writer = None


def register(ctx: Any) -> None:
    """Hermes' plugin entry point."""
    ctx.register_memory_provider(MemgwProvider())
