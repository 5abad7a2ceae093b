"""Fair shares between keys: no key can slow another down by flooding the gateway.

Each API key gets a token bucket (``MEMGW_KEY_RATE_PER_S`` requests a second, bursts of
``MEMGW_KEY_BURST``) and a few requests in flight at once (``MEMGW_KEY_MAX_IN_FLIGHT``); what comes
beyond waits in the key's own queue (``MEMGW_KEY_MAX_QUEUED``). Past either limit the answer is 429
with Retry-After, before anything is read or decided. One key's flood so competes with another's
single request through its few slots only, however many connections it opens.

A plain ASGI middleware, keyed by a hash of the key the request carries (the key is not checked here:
authentication still decides it; a request without a key shares one bucket with the others that
have none). Long-lived streams (SSE, WebSocket, MCP's GET stream) hold no slot. Shares live in this
process: with several gateways each holds its own, so the limits apply per gateway.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import math
import time
from collections import OrderedDict
from dataclasses import dataclass

from starlette.datastructures import Headers
from starlette.types import ASGIApp, Receive, Scope, Send

from memgw.gateway.identity import api_key_from

_STREAMS = ("/v1/events",)  # answers that last as long as the client listens
_KEPT_SHARES = 10_000  # idle shares beyond this are forgotten, oldest first (a new one starts full)


@dataclass
class Limits:
    rate_per_s: float
    burst: int
    max_in_flight: int
    max_queued: int


@dataclass
class _Share:
    tokens: float
    at: float
    slots: asyncio.Semaphore
    waiting: int = 0
    busy: int = 0

    def take(self, limits: Limits, now: float) -> float:
        """0 when a token was taken, else the seconds until one is there."""
        self.tokens = min(float(limits.burst), self.tokens + (now - self.at) * limits.rate_per_s)
        self.at = now
        if self.tokens >= 1:
            self.tokens -= 1
            return 0.0
        return (1 - self.tokens) / limits.rate_per_s


class FairShares:
    def __init__(self, app: ASGIApp, limits: Limits):
        self.app, self.limits = app, limits
        self._shares: OrderedDict[str, _Share] = OrderedDict()

    def _share(self, key: str, now: float) -> _Share:
        share = self._shares.get(key)
        if share is None:
            share = _Share(float(self.limits.burst), now, asyncio.Semaphore(self.limits.max_in_flight))
            self._shares[key] = share
            self._forget_idle()
        self._shares.move_to_end(key)
        return share

    def _forget_idle(self) -> None:
        if len(self._shares) <= _KEPT_SHARES:
            return
        for key in list(self._shares)[: len(self._shares) - _KEPT_SHARES]:
            share = self._shares[key]
            if not share.busy and not share.waiting:
                del self._shares[key]

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or _is_stream(scope):
            await self.app(scope, receive, send)
            return
        secret = api_key_from(Headers(scope=scope)) or ""
        key = hashlib.sha256(secret.encode()).hexdigest()
        now = time.monotonic()
        share = self._share(key, now)
        if wait := share.take(self.limits, now):
            await _too_many(send, wait, f"this key's rate is {self.limits.rate_per_s:g} requests a second")
            return
        if share.busy >= self.limits.max_in_flight and share.waiting >= self.limits.max_queued:
            await _too_many(send, 1.0, f"this key has {share.busy} requests in flight and {share.waiting} waiting")
            return
        share.waiting += 1
        try:
            await share.slots.acquire()
        finally:
            share.waiting -= 1
        share.busy += 1
        try:
            await self.app(scope, receive, send)
        finally:
            share.busy -= 1
            share.slots.release()


def _is_stream(scope: Scope) -> bool:
    path: str = scope.get("path", "")
    if path.startswith(_STREAMS):
        return True
    return scope.get("method") == "GET" and path.rstrip("/").startswith("/mcp")  # MCP's server-sent stream


async def _too_many(send: Send, wait_s: float, why: str) -> None:
    retry = max(1, math.ceil(wait_s))
    body = json.dumps({"error": "rate_limited", "detail": f"too many requests: {why}; retry in {retry} s"}).encode()
    headers = [
        (b"content-type", b"application/json"),
        (b"content-length", str(len(body)).encode()),
        (b"retry-after", str(retry).encode()),
    ]
    await send({"type": "http.response.start", "status": 429, "headers": headers})
    await send({"type": "http.response.body", "body": body})
