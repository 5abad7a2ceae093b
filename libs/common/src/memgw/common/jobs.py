"""Jobs (table ``jobs``): long work a request started, followed at ``/v1/jobs/{id}``. The gateway
creates and reads them; the consumer doing the work moves their state. All their SQL is here."""

from __future__ import annotations

from typing import Any, Literal

from memgw.common.db.pool import Conn, Executor

JobState = Literal["queued", "running", "done", "failed"]
JOB_COLUMNS = "id, kind, state, subject_id, detail, result, created_at, updated_at, user_id"


async def create(db: Executor, job_id: str, *, kind: str, user_id: str, subject_id: str | None) -> None:
    await db.execute(
        "INSERT INTO jobs (id, kind, user_id, subject_id) VALUES ($1, $2, $3, $4)", job_id, kind, user_id, subject_id
    )


async def get(db: Executor, job_id: str, *, stale_after_s: float | None = None) -> dict[str, Any] | None:
    """The job; with ``stale_after_s``, one queued or running that long without a move is ended
    failed first (its worker died, or its message was dead-lettered): nobody waits on it forever. If
    its work does arrive later, the worker moves it on again. A poll of a live job only reads."""
    row = await db.fetchrow(
        f"SELECT {JOB_COLUMNS}, state IN ('queued', 'running') AND updated_at < now() - make_interval(secs => $2)"
        " AS stale FROM jobs WHERE id = $1",
        job_id,
        stale_after_s,  # None: never stale (the comparison is NULL)
    )
    if row is not None and row["stale"]:
        row = await db.fetchrow(
            f"UPDATE jobs SET state = 'failed', detail = $2, updated_at = now() WHERE id = $1 RETURNING {JOB_COLUMNS}",
            job_id,
            f"abandoned: no progress for {int(stale_after_s or 0)} s",
        )
    return {k: v for k, v in row.items() if k != "stale"} if row else None


async def state(db: Executor, job_id: str) -> JobState | None:
    found: JobState | None = await db.fetchval("SELECT state FROM jobs WHERE id = $1", job_id)
    return found


async def move(
    db: Executor, job_id: str, to: JobState, *, detail: str | None = None, result: dict[str, Any] | None = None
) -> None:
    """Set the state (and, when given, the detail and the result)."""
    await db.execute(
        "UPDATE jobs SET state = $2, detail = COALESCE($3, detail), result = COALESCE($4, result), updated_at = now()"
        " WHERE id = $1",
        job_id,
        to,
        detail,
        result,
    )


async def record_step(conn: Conn, job_id: str, step: int, kind: str, target_id: str) -> None:
    """Note, in the transaction that made it, what step ``step`` of the job did: a job replayed after a
    crash skips what is noted and ends with the same result as one never interrupted."""
    await conn.execute(
        "UPDATE jobs SET result = jsonb_set(result, '{steps}', COALESCE(result->'steps', '{}'::jsonb)"
        " || jsonb_build_object($2::text, jsonb_build_array($3::text, $4::text))), updated_at = now() WHERE id = $1",
        job_id,
        str(step),
        kind,
        target_id,
    )
