"""The read rule as Postgres renders it (``acl.read_sql``) selects exactly what the rule table in
``test_read_keys`` lets each reader read, in every scope, the same as the index's filter does."""

from __future__ import annotations

import itertools
from datetime import UTC, datetime

from memgw.common.acl import ReadScope, SqlParams, read_sql
from memgw.common.domain import Principal
from memgw.common.runtime import Infra
from tests.common.test_read_keys import READERS, SCOPES, _may_read, _memories

COLUMNS = ("id", "user_id", "agent_id", "workspace_id", "visibility", "status", "flags", "expires_at")


async def test_every_scope_selects_in_postgres_exactly_what_the_rules_let_it_read(infra: Infra) -> None:
    now = datetime.now(UTC)
    memories = _memories(now)
    async with infra.pool.acquire() as conn:
        await conn.execute(
            "CREATE TEMP TABLE m_rules (id text, user_id text, agent_id text, workspace_id text, visibility text,"
            " status text, flags text[], expires_at timestamptz, source_id text, source_scope text)"
        )
        try:
            await conn.executemany(
                "INSERT INTO m_rules VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)",
                [(*(m[c] for c in COLUMNS), None, None) for m in memories],
            )
            admin = Principal(user_id="admin", is_admin=True)
            for scope, p in itertools.product((ReadScope(), *SCOPES), (*READERS, admin)):
                params = SqlParams()
                rows = await conn.fetch(
                    f"SELECT m.id FROM m_rules m WHERE {read_sql(p, params, scope)}", *params.values
                )
                if p.is_admin and scope.by_id:  # the admin opens any record in the asked statuses
                    expected = {m["id"] for m in memories if m["status"] in scope.statuses}
                else:
                    expected = {m["id"] for m in memories if _may_read(p, m, scope, now)}
                assert {r["id"] for r in rows} == expected, (scope, p)
        finally:
            await conn.execute("DROP TABLE m_rules")
