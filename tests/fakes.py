"""Local stand-ins for the world outside the machine (GitHub, feeds, web pages, Composio, Twitter,
LLM endpoints) are served over real HTTP on loopback, so the readers' real code paths run."""

from __future__ import annotations

import hashlib
import json
import math
import re
import time
import uuid

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import Mount, Route

from memgw.launcher.http import serve

__all__ = ["composio_app", "openai_compatible_app", "outside_world", "scripted_agent_llm", "serve"]


def scripted_agent_llm(tool: str, arguments: dict[str, object], seen: list[dict[str, object]]) -> object:
    """An OpenAI-compatible chat endpoint (``POST /v1/chat/completions``, plain or streamed) scripted
    like a model that uses one tool: asked with tools on offer, it calls the one whose name ends with
    ``tool``; shown the tool's answer, it replies ``memory says: <answer>``. Requests land in ``seen``."""

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


def composio_app(calls: list[str], owners: dict[str, str] | None = None) -> Starlette:
    """A fake of Composio's v3 API; ``owners``: connection id → the user Composio says owns it
    (unlisted connections name no owner)."""

    async def execute(request: Request) -> Response:
        body = await request.json()
        calls.append(f"{request.path_params['tool']}:{body['connected_account_id']}")
        assert request.headers["x-api-key"] == "ck"
        return JSONResponse(
            {
                "successful": True,
                "data": {
                    "messages": [
                        {
                            "messageId": "m1",
                            "subject": "Invoice",
                            "messageText": "请在周五前付款",
                            "messageTimestamp": "1767225600",
                        },
                        {
                            "messageId": "m2",
                            "subject": "Hello",
                            "messageText": "Lunch?",
                            "messageTimestamp": "1767312000",
                        },
                    ]
                },
            }
        )

    def accounts(request: Request) -> Response:
        return JSONResponse(
            {
                "items": [
                    {
                        "id": "ca_old",
                        "toolkit": {"slug": "gmail"},
                        "status": "ACTIVE",
                        "user_id": request.query_params["user_ids"],
                    },
                ],
                "next_cursor": None,
            }
        )

    def account(request: Request) -> Response:
        cid = request.path_params["cid"]
        if cid == "ca_missing":
            return JSONResponse({"error": "not found"}, status_code=404)
        owner = (owners or {}).get(cid)
        return JSONResponse({"id": cid, "toolkit": {"slug": "gmail"}, "status": "ACTIVE", "user_id": owner})

    return Starlette(
        routes=[
            Route("/api/v3/tools/execute/{tool}", execute, methods=["POST"]),
            Route("/api/v3/connected_accounts", accounts),
            Route("/api/v3/connected_accounts/{cid}", account),
        ]
    )


def outside_world(owners: dict[str, str]) -> Starlette:
    """One loopback host standing in for every network source at once: a GitHub repository
    (``/repos/octo/hello``: a commit and an issue), a feed (``/feed.xml``), a web page (``/about``),
    Twitter's recent search, and Composio under ``/composio`` (``owners`` as in :func:`composio_app`)."""

    def commits(_: Request) -> Response:
        commit = {"message": "Add the hello page", "author": {"name": "Ann", "date": "2026-11-02T09:00:00Z"}}
        return JSONResponse([{"sha": "c0ffee1234567890", "commit": commit}])

    def issues(_: Request) -> Response:
        issue = {"number": 7, "title": "Greeting is too loud", "body": "Say hello, not HELLO.", "state": "open"}
        return JSONResponse([{**issue, "user": {"login": "bo"}, "updated_at": "2026-11-03T10:00:00Z"}])

    feed = """<?xml version="1.0"?><rss version="2.0"><channel><title>Garden notes</title>
<item><guid>g1</guid><title>Pruning</title><description>Prune the plum in summer.</description></item>
<item><guid>g2</guid><title>花园</title><description>秋天种大蒜。</description></item></channel></rss>"""
    page = "<html><body><nav>Menu</nav><main><h1>About</h1><p>We grow quinces.</p></main></body></html>"
    tweets = {"data": [{"id": "42", "text": "memory gateway 记忆网关 ships", "created_at": "2026-11-04T00:00:00Z"}]}
    return Starlette(
        routes=[
            Route("/repos/octo/hello/commits", commits),
            Route("/repos/octo/hello/issues", issues),
            Route("/feed.xml", lambda _: Response(feed, media_type="application/rss+xml")),
            Route("/about", lambda _: Response(page, media_type="text/html")),
            Route("/2/tweets/search/recent", lambda _: JSONResponse(tweets)),
            Mount("/composio", composio_app([], owners)),
        ]
    )
