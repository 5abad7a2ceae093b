"""Reviews (table ``reviews``): what the consolidator would not decide alone, waiting for a person.

The consolidator opens them (a contradiction between two memories, or a reader's feedback on one
memory for its owner) and applies decisions; the gateway lists them and takes decisions. Opening a
review and announcing it (ReviewRequested), and settling a decision and announcing what came of it
(ReviewSettled), each happen in one transaction. All their SQL is here."""

from __future__ import annotations

from typing import Any, Literal

from memgw.common.bus import BusLayout
from memgw.common.db.outbox import enqueue
from memgw.common.db.pool import Conn, Executor
from memgw.common.domain import new_id
from memgw.common.events import ReviewDecided, ReviewRequested, ReviewSettled

ReviewKind = Literal["contradiction", "feedback"]


async def open_review(
    conn: Conn,
    layout: BusLayout,
    *,
    user_id: str,
    memory_ids: list[str],
    reason: str,
    kind: ReviewKind = "contradiction",
    requested_by: str | None = None,
    feedback: str | None = None,
) -> str:
    """Open a review for ``user_id`` and announce it, in the caller's transaction; return its id."""
    review_id = new_id("rev")
    await conn.execute(
        "INSERT INTO reviews (id, user_id, memory_ids, reason, kind, requested_by, feedback)"
        " VALUES ($1, $2, $3, $4, $5, $6, $7)",
        review_id,
        user_id,
        memory_ids,
        reason,
        kind,
        requested_by,
        feedback,
    )
    request = ReviewRequested(review_id=review_id, user_id=user_id, memory_ids=memory_ids, reason=reason, kind=kind)
    await enqueue(conn, layout, request)
    return review_id


async def open_feedback_exists(db: Executor, memory_id: str) -> bool:
    """Whether a reader's feedback on this memory already waits for its owner."""
    return bool(
        await db.fetchval(
            "SELECT 1 FROM reviews WHERE kind = 'feedback' AND status = 'open' AND memory_ids = $1", [memory_id]
        )
    )


async def get(db: Executor, review_id: str, *, lock: bool = False) -> dict[str, Any] | None:
    row = await db.fetchrow(f"SELECT * FROM reviews WHERE id = $1{' FOR UPDATE' if lock else ''}", review_id)
    return dict(row) if row else None


async def listing(db: Executor, *, user_id: str | None, status: str | None, limit: int = 200) -> list[dict[str, Any]]:
    """Newest first; of one user (None: of everyone)."""
    rows = await db.fetch(
        "SELECT * FROM reviews WHERE ($1::text IS NULL OR user_id = $1) AND ($2::text IS NULL OR status = $2)"
        " ORDER BY created_at DESC LIMIT $3",
        user_id,
        status,
        limit,
    )
    return [dict(r) for r in rows]


async def settle(
    conn: Conn, layout: BusLayout, review: dict[str, Any], decided: ReviewDecided, *, reason: str = ""
) -> None:
    """Close the review with the decision when it was applied (no ``reason``), or leave it open when it
    was not (``reason`` says why); either way announce what came of it, in the caller's transaction."""
    applied = not reason
    if applied:
        await conn.execute(
            "UPDATE reviews SET status = 'decided', decision = $2, decided_by = $3, decided_at = now() WHERE id = $1",
            review["id"],
            decided.decision,
            decided.decided_by,
        )
    settled = ReviewSettled(
        review_id=review["id"],
        user_id=review["user_id"],
        decision=decided.decision,
        applied=applied,
        reason=reason,
        correlation_id=decided.correlation_id,
    )
    await enqueue(conn, layout, settled)
