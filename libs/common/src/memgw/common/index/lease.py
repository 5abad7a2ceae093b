"""Who owns an install's embedded index (table ``index_leases``; all its SQL is here).

Ownership is two things. A Postgres advisory lock on a connection of the owner's own says at once
when an owner is gone (a crash drops the connection, and the lock with it), so only one process at a
time can become the owner. A lease with an epoch (a fencing token) says how long the owner may act:
it renews the lease every quarter of its term over that connection, and trusts it only until a local
deadline taken before it asked (``TRUST_SHARE`` of the term), so Postgres's expiry is always later.

An owner paused past its deadline (a stopped process, a frozen VM) stops acting the moment it
resumes: it must renew first, and cannot, because its lock went with its connection and a successor
took the next epoch. A successor waits out the old lease before it acts, so their terms never
overlap. Index calls and answers carry the epoch (``shared.py``): a caller that has seen a newer
epoch refuses a stale owner's answer, and tells the stale owner so.
"""

from __future__ import annotations

import asyncio
import contextlib
import time

import asyncpg

from memgw.common.logging import get_logger

log = get_logger("memgw.index.lease")

TERM_S = 10.0  # how long a lease lasts in Postgres without a renewal
TRUST_SHARE = 0.75  # of the term the owner trusts its lease for, counted from before it asked
_STATEMENT_S = 2.0  # a renewal Postgres does not answer in this time has failed (a frozen server)


class IndexLease:
    """The ownership of one install's embedded index by this process, while ``acting()``."""

    def __init__(self, database_url: str, conn: asyncpg.Connection, prefix: str, epoch: int, term_s: float):
        self._url, self._conn, self._prefix = database_url, conn, prefix
        self.epoch = epoch
        self._term_s = term_s
        self._deadline = 0.0  # time.monotonic() until which the lease is trusted
        self.lost = False
        self._renewing: asyncio.Task[bool] | None = None

    @staticmethod
    def _key(prefix: str) -> str:
        return f"memgw-embedded-index:{prefix}"

    @classmethod
    async def try_take(cls, database_url: str, prefix: str, *, term_s: float = TERM_S) -> IndexLease | None:
        """The lease, with the next epoch, when no other process of the install owns the index; None
        when one does. Waits out a lease its last owner did not give back (a crash, a lost connection)."""
        conn = await asyncpg.connect(database_url)
        try:
            if not await conn.fetchval("SELECT pg_try_advisory_lock(hashtext($1))", cls._key(prefix)):
                await conn.close()
                return None
            while True:
                left = await conn.fetchval(
                    "SELECT EXTRACT(EPOCH FROM expires_at - now())::float8 FROM index_leases WHERE prefix = $1", prefix
                )
                if left is None or left <= 0:
                    break
                log.info("index.lease.waiting", seconds=round(left, 1), reason="the last owner's lease is not over")
                await asyncio.sleep(left)
            asked = time.monotonic()
            epoch = await conn.fetchval(
                "INSERT INTO index_leases (prefix, epoch, expires_at) VALUES ($1, 1, now() + make_interval(secs => $2))"
                " ON CONFLICT (prefix) DO UPDATE SET epoch = index_leases.epoch + 1, expires_at = EXCLUDED.expires_at"
                " RETURNING epoch",
                prefix,
                term_s,
            )
        except BaseException:
            await conn.close()
            raise
        log.info("index.lease.taken", epoch=epoch)
        lease = cls(database_url, conn, prefix, int(epoch), term_s)
        lease._deadline = asked + term_s * TRUST_SHARE
        return lease

    def acting(self) -> bool:
        """Whether this process may act as the owner now: its lease holds, by its own clock."""
        return not self.lost and time.monotonic() < self._deadline

    async def confirmed(self) -> bool:
        """Whether this process is the owner, renewing first when its trust ran out (after a pause, or
        while Postgres was away): True only with a renewed lease. One renewal for all who ask."""
        if self.acting() or self.lost:
            return not self.lost
        if self._renewing is None or self._renewing.done():
            self._renewing = asyncio.create_task(self.renew())
        return await asyncio.shield(self._renewing)

    def learned_of(self, epoch: int) -> None:
        """A caller has seen a newer epoch than ours: another process owns the index now."""
        if epoch > self.epoch and not self.lost:
            self._step_down(f"a caller has seen epoch {epoch}")

    def _step_down(self, why: str) -> None:
        self.lost = True
        log.error("index.lease.lost", epoch=self.epoch, why=why)

    async def renew(self) -> bool:
        """Extend the lease when it is still ours (same epoch, lock held); step down when it is not.
        False also while Postgres does not answer (the lease may still be ours: asked again later).
        A connection that failed is replaced at once: Postgres may have dropped it (and the lock)."""
        if self.lost:
            return False
        asked = time.monotonic()
        for attempt in range(2):
            try:
                held = await self._renew_once()
                break
            except Exception as exc:  # a dropped or frozen connection, Postgres away
                log.warning("index.lease.renewal_failed", error=str(exc)[:200], attempt=attempt + 1)
                with contextlib.suppress(Exception):
                    self._conn.terminate()
        else:
            return False
        if not held:
            return False
        self._deadline = asked + self._term_s * TRUST_SHARE
        return True

    async def _renew_once(self) -> bool:
        if self._conn.is_closed():  # the lock went with the old connection: take it again first
            self._conn = await asyncpg.connect(self._url, timeout=_STATEMENT_S)
            key = self._key(self._prefix)
            if not await self._conn.fetchval("SELECT pg_try_advisory_lock(hashtext($1))", key, timeout=_STATEMENT_S):
                self._step_down("another process of this install holds the lock")
                return False
        held = await self._conn.fetchval(
            "UPDATE index_leases SET expires_at = now() + make_interval(secs => $3)"
            " WHERE prefix = $1 AND epoch = $2 RETURNING true",
            self._prefix,
            self.epoch,
            self._term_s,
            timeout=_STATEMENT_S,
        )
        if not held:
            self._step_down("another process took the next epoch")
        return bool(held)

    async def keep(self) -> None:
        """Renew every quarter of the term until the lease is lost or this task is cancelled."""
        while not self.lost:
            await asyncio.sleep(self._term_s / 4)
            await self.renew()

    async def release(self) -> None:
        """Give the lease back (a clean stop): the next owner need not wait it out."""
        with contextlib.suppress(Exception):
            if not self.lost and not self._conn.is_closed():
                await self._conn.execute(
                    "UPDATE index_leases SET expires_at = now() WHERE prefix = $1 AND epoch = $2",
                    self._prefix,
                    self.epoch,
                    timeout=_STATEMENT_S,
                )
        with contextlib.suppress(Exception):  # a dropped connection released the lock already
            await self._conn.close()
