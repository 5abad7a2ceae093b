"""Local stand-ins for the world outside the machine (GitHub, feeds, web pages, Composio, Twitter,
LLM endpoints) are served over real HTTP on loopback, so the readers' real code paths run."""

from memgw.launcher.http import serve

__all__ = ["serve"]


def scripted_agent_llm(tool: str, arguments: dict[str, object], seen: list[dict[str, object]]) -> object:
    """An OpenAI-compatible chat endpoint (``POST /v1/chat/completions``, plain or streamed) scripted
    like a model that uses one tool: asked with tools on offer, it calls the one whose name ends with
    ``tool``; shown the tool's answer, it replies ``memory says: <answer>``. Requests land in ``seen``."""
    import json
    import time
    import uuid

    from starlette.applications import Starlette
    from starlette.requests import Request
    from starlette.responses import JSONResponse, StreamingResponse
    from starlette.routing import Route

    def _answer(body: dict[str, object]) -> dict[str, object]:
        messages = body.get("messages") or []
        told = [m for m in messages if isinstance(m, dict) and m.get("role") == "tool"]  # type: ignore[union-attr]
        if told:
            content = told[-1].get("content")
            if isinstance(content, list):
                content = " ".join(str(part.get("text", "")) for part in content if isinstance(part, dict))
            return {"role": "assistant", "content": f"memory says: {content}"}
        names = [t["function"]["name"] for t in body.get("tools") or [] if isinstance(t, dict)]  # type: ignore[index,union-attr]
        wanted = [n for n in names if n.endswith(tool)]
        if not wanted:
            return {"role": "assistant", "content": f"no tool ending in {tool} among {names}"}
        call = {
            "id": f"call_{uuid.uuid4().hex[:8]}",
            "type": "function",
            "function": {"name": wanted[0], "arguments": json.dumps(arguments)},
        }
        return {"role": "assistant", "content": None, "tool_calls": [call]}

    async def chat(request: Request) -> object:
        body = await request.json()
        seen.append(body)
        message = _answer(body)
        finish = "tool_calls" if message.get("tool_calls") else "stop"
        base = {"id": f"chatcmpl-{uuid.uuid4().hex[:8]}", "created": int(time.time()), "model": body.get("model", "m")}
        if not body.get("stream"):
            usage = {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}
            choice = {"index": 0, "message": message, "finish_reason": finish}
            return JSONResponse({**base, "object": "chat.completion", "choices": [choice], "usage": usage})

        def chunk(delta: dict[str, object], reason: str | None = None) -> str:
            choice = {"index": 0, "delta": delta, "finish_reason": reason}
            return f"data: {json.dumps({**base, 'object': 'chat.completion.chunk', 'choices': [choice]})}\n\n"

        def events() -> object:
            yield chunk({"role": "assistant", "content": ""})
            if message.get("tool_calls"):
                [call] = message["tool_calls"]  # type: ignore[misc]
                yield chunk({"tool_calls": [{"index": 0, **call}]})
            else:
                yield chunk({"content": message["content"]})
            yield chunk({}, finish)
            yield "data: [DONE]\n\n"

        return StreamingResponse(events(), media_type="text/event-stream")

    return Starlette(routes=[Route("/v1/chat/completions", chat, methods=["POST"])])


def openai_compatible_app(dim: int = 64) -> object:
    """An OpenAI-compatible embedding and chat endpoint (``/v1/embeddings``, ``/v1/chat/completions``),
    scripted: an embedding is a hashed bag of the text's words (texts sharing words are alike), and
    every chat answer is one plain sentence. Enough for a server that summarises and embeds what it
    stores (OpenViking) to run here without a model."""
    import hashlib
    import math
    import re

    from starlette.applications import Starlette
    from starlette.requests import Request
    from starlette.responses import JSONResponse
    from starlette.routing import Route

    def vector(text: str) -> list[float]:
        v = [0.0] * dim
        for word in re.findall(r"\w+", text.lower()):
            v[int(hashlib.sha256(word.encode()).hexdigest(), 16) % dim] += 1.0
        norm = math.sqrt(sum(x * x for x in v)) or 1.0
        return [x / norm for x in v]

    async def embeddings(request: Request) -> JSONResponse:
        body = await request.json()
        texts = body["input"] if isinstance(body["input"], list) else [body["input"]]
        data = [{"object": "embedding", "index": i, "embedding": vector(str(t))} for i, t in enumerate(texts)]
        usage = {"prompt_tokens": 1, "total_tokens": 1}
        return JSONResponse({"object": "list", "model": body.get("model", "m"), "data": data, "usage": usage})

    async def chat(request: Request) -> JSONResponse:
        body = await request.json()
        message = {"role": "assistant", "content": "A short summary of the text."}
        choice = {"index": 0, "message": message, "finish_reason": "stop"}
        usage = {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2}
        return JSONResponse(
            {
                "id": "c",
                "object": "chat.completion",
                "model": body.get("model", "m"),
                "choices": [choice],
                "usage": usage,
            }
        )

    return Starlette(
        routes=[
            Route("/v1/embeddings", embeddings, methods=["POST"]),
            Route("/v1/chat/completions", chat, methods=["POST"]),
        ]
    )
