"""API keys and principals. A key is shown once and stored as its SHA-256; the principal a request
acts as is resolved from the key alone."""

from __future__ import annotations

import hashlib
import os
import secrets
import time
from collections import OrderedDict
from collections.abc import Mapping
from pathlib import Path

import asyncpg

from memgw.common.db.pool import Conn
from memgw.common.domain import Principal, new_id
from memgw.common.principals import readable_workspaces_sql

ADMIN_USER = "admin"
ADMIN_KEY_FILE = "admin.key"
KEY_PREFIX = "mgw_"
# How long a key's principal is answered from memory. A change of rights made through this gateway
# forgets every principal at once, and one made through another gateway as soon as its AccessChanged
# arrives; this bounds what a lost announcement (or a change made behind the API's back) can leave.
KNOWN_KEY_S = 5.0
KNOWN_KEYS = 10_000  # principals remembered at most; the least recently used go first


def api_key_from(headers: Mapping[str, str], fallback: str | None = None) -> str | None:
    """The key a request carries: ``Authorization: Bearer <key>`` (or ``Token <key>``, mem0's
    scheme), else ``X-API-Key``, else the fallback (a browser's WebSocket can only send it in the
    query string)."""
    auth = headers.get("authorization", "")
    scheme, _, credential = auth.partition(" ")
    if scheme.lower() in ("bearer", "token"):
        return credential.strip() or None
    return headers.get("x-api-key") or fallback or None


def hash_key(secret: str) -> str:
    return hashlib.sha256(secret.encode("utf-8")).hexdigest()


def generate_key() -> str:
    return KEY_PREFIX + secrets.token_urlsafe(32)


async def create_key(
    conn: Conn,
    *,
    user_id: str,
    agent_id: str | None = None,
    is_admin: bool = False,
    label: str = "",
    secret: str | None = None,
) -> tuple[str, str]:
    """Store a new key; return (key id, secret). The secret is never stored."""
    secret = secret or generate_key()
    key_id = new_id("key")
    await conn.execute(
        "INSERT INTO api_keys (id, key_hash, user_id, agent_id, is_admin, label) VALUES ($1, $2, $3, $4, $5, $6)",
        key_id,
        hash_key(secret),
        user_id,
        agent_id,
        is_admin,
        label,
    )
    return key_id, secret


async def ensure_admin_key(pool: asyncpg.Pool, data_dir: Path, configured: str | None) -> str:
    """Provision the admin user and key. A configured key is registered as is; otherwise one is
    generated on first start and kept (mode 0600) in the data dir, so restarts print the same key."""
    key_file = data_dir / ADMIN_KEY_FILE
    secret = configured or (key_file.read_text().strip() if key_file.exists() else None)
    async with pool.acquire() as conn, conn.transaction():
        await conn.execute("SELECT pg_advisory_xact_lock(hashtext('memgw-admin-key'))")
        await conn.execute(
            "INSERT INTO users (id, display_name, is_trusted) VALUES ($1, 'Administrator', true)"
            " ON CONFLICT DO NOTHING",
            ADMIN_USER,
        )
        if secret and await conn.fetchval("SELECT 1 FROM api_keys WHERE key_hash = $1", hash_key(secret)):
            return secret
        _, secret = await create_key(conn, user_id=ADMIN_USER, is_admin=True, label="admin", secret=secret)
    if not configured:
        fd = os.open(key_file, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w") as f:
            f.write(secret + "\n")
    return secret


class KeyRing:
    """The principal of each key a request brings. A request's key is resolved in Postgres the first
    time and then remembered for ``KNOWN_KEY_S``, so a search or a write does not pay a round trip
    before its real work; ``forget`` drops everything remembered whenever rights change. A key that
    resolves to nobody is never remembered: a new key works at once, and a bad one is looked up (and
    refused, audited) every time."""

    def __init__(self, pool: asyncpg.Pool, *, known_s: float = KNOWN_KEY_S) -> None:
        self.pool = pool
        self._known_s = known_s
        self._known: OrderedDict[str, tuple[Principal, float]] = OrderedDict()
        self._era = 0  # counts forget()s: a lookup that began before one is not remembered after it

    async def principal(self, secret: str) -> Principal | None:
        digest = hash_key(secret)
        known = self._known.get(digest)
        if known is not None and time.monotonic() - known[1] < self._known_s:
            self._known.move_to_end(digest)
            return known[0]
        era, started = self._era, time.monotonic()
        principal = await _principal_of(self.pool, digest)
        if principal is None or era != self._era:
            self._known.pop(digest, None)
            return principal
        self._known[digest] = (principal, started)
        self._known.move_to_end(digest)
        while len(self._known) > KNOWN_KEYS:
            self._known.popitem(last=False)
        return principal

    def forget(self) -> None:
        """Rights changed somewhere (a key revoked, a member gone, an agent's scope changed): every
        principal is resolved again on its next request."""
        self._era += 1
        self._known.clear()


async def principal_for_key(pool: asyncpg.Pool, secret: str) -> Principal | None:
    """The principal of a key as Postgres has it now (``KeyRing`` remembers it for a request's sake)."""
    return await _principal_of(pool, hash_key(secret))


async def _principal_of(pool: asyncpg.Pool, digest: str) -> Principal | None:
    """One round trip: the key, its user, the workspaces it may read (member, and its agent allowed
    there) and its agent's source scope. ``last_used_at`` is written at most once a minute, so reads do
    not each cost a write."""
    row = await pool.fetchrow(
        "SELECT k.id, k.user_id, k.agent_id, k.is_admin, u.is_trusted,"
        " k.last_used_at IS NULL OR k.last_used_at < now() - interval '1 minute' AS stale,"
        " (SELECT a.memory_sources FROM agents a WHERE a.id = k.agent_id) AS memory_sources,"
        f" {readable_workspaces_sql('k.user_id', 'k.agent_id')} AS workspace_ids"
        " FROM api_keys k JOIN users u ON u.id = k.user_id"
        " WHERE k.key_hash = $1 AND k.revoked_at IS NULL AND u.status = 'active'",
        digest,
    )
    if row is None:
        return None
    if row["stale"]:
        await pool.execute("UPDATE api_keys SET last_used_at = now() WHERE id = $1", row["id"])
    sources = row["memory_sources"]
    return Principal(
        user_id=row["user_id"],
        agent_id=row["agent_id"],
        is_admin=row["is_admin"],
        is_trusted=row["is_trusted"] or row["is_admin"],
        key_id=row["id"],
        workspace_ids=frozenset(row["workspace_ids"]),
        memory_sources=tuple(sources) if sources is not None else None,
    )
