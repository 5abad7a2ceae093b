"""One embedded index per install, reached by every process of it (issue "Reliability").

The embedded Qdrant Edge shard lives in one process's data dir and can have only one writer. Left
alone, each process of a multi-process install (``memgw serve …`` per service, several
sync-workers) would open a shard of its own and split the index silently: a worker's chunks in its
shard, the gateway searching another. So the first process of an install (its database and bus
prefix) to start takes ownership (``lease.py``: an advisory lock and a lease with an epoch), opens
the shard and answers index calls on the bus; every other process gets a ``RemoteIndex`` that sends
its calls to the owner (core NATS request-reply, ``{prefix}.index.call``).

Ownership is fenced. The owner answers a call only while its lease holds (renewed first after a
pause), and stays silent once it is lost; calls and answers carry the epoch, so a caller that has
seen a newer owner refuses an older one's answer and tells it, and the owner's own calls
(``OwnedIndex``) go to the new owner once it has stepped down. A process that started remote stays
remote. When the owner is down, calls fail as an outage (the bus retries the work, the gateway
answers 503) until it is back. A Qdrant server (``MEMGW_QDRANT_URL``) needs none of this: every
process talks to it directly; it is the choice for more than one machine.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import json
from collections.abc import Mapping, Sequence
from typing import Any, Protocol

import numpy as np
from nats.aio.client import Client as NatsClient
from nats.aio.msg import Msg
from nats.aio.subscription import Subscription
from nats.errors import NoRespondersError
from nats.errors import TimeoutError as NatsTimeout

from memgw.common.bus import BusLayout
from memgw.common.events import Subject
from memgw.common.index.base import (
    Condition,
    IndexHit,
    IndexPoint,
    IsEmpty,
    Match,
    MatchAny,
    Range,
    VectorIndex,
    Where,
    one_of,
)
from memgw.common.index.lease import IndexLease
from memgw.common.logging import get_logger

log = get_logger("memgw.index.shared")

# Points per call: a 384-d vector is 2 KB in base64; NATS carries at most 1 MB per message.
_POINTS_PER_CALL = 100
_SEARCH_TIMEOUT_S = 30.0
_WRITE_TIMEOUT_S = 120.0
_OPTIMIZE_TIMEOUT_S = 3600.0  # building the graph of a large shard takes minutes


class IndexOwnerUnavailable(ConnectionError):
    """No owner of the embedded index answered: an outage (503, the bus retries), not a bug."""


class IndexCallFailed(RuntimeError):
    """The owner ran the call and it failed there."""


# --- the wire: JSON, vectors as base64 float32 ----------------------------------------------------


def _vector(values: Sequence[float]) -> str:
    return base64.b64encode(np.asarray(values, dtype=np.float32).tobytes()).decode()


def _floats(text: str) -> list[float]:
    return [float(x) for x in np.frombuffer(base64.b64decode(text), dtype=np.float32)]


def _cond(c: Condition) -> dict[str, Any]:
    if isinstance(c, Match):
        return {"match": [c.key, c.value]}
    if isinstance(c, MatchAny):
        return {"any": [c.key, list(c.values)]}
    if isinstance(c, Range):
        return {"range": [c.key, c.gt, c.gte, c.lt, c.lte]}
    if isinstance(c, IsEmpty):
        return {"empty": c.key}
    return {"where": where_to_wire(c)}


def _cond_from(d: dict[str, Any]) -> Condition:
    if "match" in d:
        return Match(d["match"][0], d["match"][1])
    if "any" in d:
        return MatchAny(d["any"][0], tuple(d["any"][1]))
    if "range" in d:
        key, gt, gte, lt, lte = d["range"]
        return Range(key, gt=gt, gte=gte, lt=lt, lte=lte)
    if "empty" in d:
        return IsEmpty(d["empty"])
    return _where(d["where"])


def _where(data: dict[str, Any]) -> Where:
    return Where(**{part: tuple(_cond_from(c) for c in data.get(part, [])) for part in ("must", "should", "must_not")})


def where_to_wire(where: Where | None) -> dict[str, Any] | None:
    if where is None:
        return None
    return {part: [_cond(c) for c in getattr(where, part)] for part in ("must", "should", "must_not")}


def where_from_wire(data: dict[str, Any] | None) -> Where | None:
    return None if data is None else _where(data)


def _point(p: IndexPoint) -> dict[str, Any]:
    return {"id": p.memory_id, "dense": _vector(p.dense), "text": p.text, "payload": p.payload}


def _point_from(d: dict[str, Any]) -> IndexPoint:
    return IndexPoint(memory_id=d["id"], dense=_floats(d["dense"]), text=d["text"], payload=d["payload"])


# --- the owner's side -----------------------------------------------------------------------------


async def _answer(index: VectorIndex, call: dict[str, Any]) -> Any:
    op = call["op"]
    if op == "upsert":
        await index.upsert([_point_from(p) for p in call["points"]])
    elif op == "delete":
        await index.delete(call["ids"])
    elif op == "set_payload":
        await index.set_payload(call["ids"], call["payload"])
    elif op == "search":
        dense = _floats(call["dense"]) if call.get("dense") else None
        weights = {int(term): float(w) for term, w in call["weights"]} if call.get("weights") else None
        hits = await index.search(
            dense=dense,
            text=call.get("text"),
            weights=weights,
            where=where_from_wire(call.get("where")),
            limit=int(call["limit"]),
        )
        return [{"id": h.memory_id, "score": h.score} for h in hits]
    elif op == "count":
        return await index.count(where_from_wire(call.get("where")))
    elif op == "clear":
        await index.clear()
    elif op == "optimize":
        await index.optimize()
    else:
        raise ValueError(f"unknown index call {op!r}")
    return None


class Fence(Protocol):
    """What an owner answers by: its epoch, and whether it may act now (``lease.IndexLease``)."""

    epoch: int

    def learned_of(self, epoch: int) -> None: ...

    async def confirmed(self) -> bool: ...


async def serve_index(nc: NatsClient, layout: BusLayout, index: VectorIndex, lease: Fence) -> Subscription:
    """Answer the install's index calls from ``index`` (the owner's shard) while ``lease`` holds, until
    unsubscribed. Each call runs as a task of its own, so a graph build never holds up searches. A call
    from someone who has seen a newer epoch tells this owner it is stale; a stale owner stays silent,
    so the caller hears the owner there is, or waits it out as an outage."""
    running: set[asyncio.Task[None]] = set()

    async def reply(msg: Msg) -> None:
        try:
            call = json.loads(msg.data)
            lease.learned_of(int(call.get("epoch") or 0))
            if not await lease.confirmed():
                return
        except Exception as exc:  # unreadable, or the lease cannot be confirmed: not an owner's answer
            log.warning("index.call.unanswered", error=str(exc)[:300])
            return
        try:
            result = await _answer(index, call)
            answer: dict[str, Any] = {"ok": True, "result": result, "epoch": lease.epoch}
        except Exception as exc:
            log.warning("index.call.failed", error=str(exc)[:300])
            answer = {"ok": False, "error": f"{type(exc).__name__}: {exc}"[:500], "epoch": lease.epoch}
        with contextlib.suppress(Exception):  # the caller gave up or the bus is down: nothing to tell
            await msg.respond(json.dumps(answer).encode())

    async def on_call(msg: Msg) -> None:
        task = asyncio.create_task(reply(msg))
        running.add(task)
        task.add_done_callback(running.discard)

    subscription = await nc.subscribe(layout.subject(Subject.INDEX_CALL), cb=on_call)
    await nc.flush()  # the server knows of it before anyone is told the index is there
    return subscription


# --- everyone else's side -------------------------------------------------------------------------


_NO_RESPONDER_PAUSES_S = (0.05, 0.2, 0.5, 1.0)
_STALE_ANSWERS_TAKEN = 3  # a call answered by stale owners this often is an outage


def _owner_unavailable() -> IndexOwnerUnavailable:
    return IndexOwnerUnavailable(
        "the process that owns the embedded index did not answer; is it running? (a shared index for"
        " several machines needs MEMGW_QDRANT_URL)"
    )


class RemoteIndex:
    """The install's embedded index, owned by another process and reached through the bus."""

    def __init__(self, nc: NatsClient, layout: BusLayout):
        self._nc = nc
        self._subject = layout.subject(Subject.INDEX_CALL)
        self.epoch = 0  # the newest owner's epoch this caller has heard

    async def _call(self, call: dict[str, Any], wait_s: float) -> Any:
        for _ in range(_STALE_ANSWERS_TAKEN):
            answer = json.loads(await self._request({**call, "epoch": self.epoch}, wait_s))
            epoch = int(answer.get("epoch") or 0)
            if epoch < self.epoch:  # a stale owner's: refused, and asked again (it knows now)
                log.warning("index.stale_answer", epoch=epoch, newest=self.epoch)
                continue
            self.epoch = epoch
            if not answer["ok"]:
                raise IndexCallFailed(answer["error"])
            return answer["result"]
        raise _owner_unavailable()

    async def _request(self, call: dict[str, Any], wait_s: float) -> bytes:
        payload = json.dumps(call).encode()
        for pause in (*_NO_RESPONDER_PAUSES_S, None):
            try:
                return bytes((await self._nc.request(self._subject, payload, timeout=wait_s)).data)
            except NoRespondersError as exc:
                # No subscriber known to this server yet: an owner restarting, or its interest still
                # on its way across a NATS cluster's routes. Asked again a few times, then an outage.
                if pause is None:
                    raise _owner_unavailable() from exc
                await asyncio.sleep(pause)
            except NatsTimeout as exc:
                raise _owner_unavailable() from exc
        raise _owner_unavailable()

    async def ensure(self) -> None:
        """The owner made the shard."""

    async def upsert(self, points: Sequence[IndexPoint]) -> None:
        for start in range(0, len(points), _POINTS_PER_CALL):
            batch = points[start : start + _POINTS_PER_CALL]
            await self._call({"op": "upsert", "points": [_point(p) for p in batch]}, _WRITE_TIMEOUT_S)

    async def delete(self, memory_ids: Sequence[str]) -> None:
        await self._call({"op": "delete", "ids": list(memory_ids)}, _WRITE_TIMEOUT_S)

    async def set_payload(self, memory_ids: Sequence[str], payload: dict[str, Any]) -> None:
        await self._call({"op": "set_payload", "ids": list(memory_ids), "payload": payload}, _WRITE_TIMEOUT_S)

    async def search(
        self,
        *,
        dense: Sequence[float] | None = None,
        text: str | None = None,
        weights: Mapping[int, float] | None = None,
        where: Where | None,
        limit: int,
    ) -> list[IndexHit]:
        one_of(dense, text)  # the caller's mistake is told here, as by the index itself
        call = {
            "op": "search",
            "dense": _vector(dense) if dense is not None else None,
            "text": text,
            "weights": list(weights.items()) if weights is not None else None,
            "where": where_to_wire(where),
            "limit": limit,
        }
        hits = await self._call(call, _SEARCH_TIMEOUT_S)
        return [IndexHit(memory_id=h["id"], score=float(h["score"])) for h in hits]

    async def count(self, where: Where | None = None) -> int:
        return int(await self._call({"op": "count", "where": where_to_wire(where)}, _SEARCH_TIMEOUT_S))

    async def clear(self) -> None:
        await self._call({"op": "clear"}, _WRITE_TIMEOUT_S)

    async def optimize(self) -> None:
        await self._call({"op": "optimize"}, _OPTIMIZE_TIMEOUT_S)

    async def close(self) -> None:
        """Nothing of its own to close: the connection is the broker's."""


class OwnedIndex:
    """The owner's shard, used while this process's lease holds; once the lease is lost, the install's
    index through its new owner, so this process's own writes never land in a shard nobody reads."""

    def __init__(self, shard: VectorIndex, lease: IndexLease, remote: RemoteIndex):
        self.shard, self.lease, self._remote = shard, lease, remote

    async def _index(self) -> VectorIndex:
        if await self.lease.confirmed():
            return self.shard
        if self.lease.lost:
            return self._remote
        raise IndexOwnerUnavailable("this process owns the embedded index but cannot renew its lease: is Postgres up?")

    async def ensure(self) -> None:
        await self.shard.ensure()

    async def upsert(self, points: Sequence[IndexPoint]) -> None:
        await (await self._index()).upsert(points)

    async def delete(self, memory_ids: Sequence[str]) -> None:
        await (await self._index()).delete(memory_ids)

    async def set_payload(self, memory_ids: Sequence[str], payload: dict[str, Any]) -> None:
        await (await self._index()).set_payload(memory_ids, payload)

    async def search(
        self,
        *,
        dense: Sequence[float] | None = None,
        text: str | None = None,
        weights: Mapping[int, float] | None = None,
        where: Where | None,
        limit: int,
    ) -> list[IndexHit]:
        index = await self._index()
        return await index.search(dense=dense, text=text, weights=weights, where=where, limit=limit)

    async def count(self, where: Where | None = None) -> int:
        return await (await self._index()).count(where)

    async def clear(self) -> None:
        await (await self._index()).clear()

    async def optimize(self) -> None:
        await (await self._index()).optimize()

    async def close(self) -> None:
        await self.shard.close()
