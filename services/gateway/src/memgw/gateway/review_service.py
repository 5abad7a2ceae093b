"""Contradictions the consolidator would not decide alone, waiting for a person, and the person's
decisions, sent back to the consolidator as ReviewDecided."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

import asyncpg
from pydantic import BaseModel, ConfigDict, Field

from memgw.common import policy, reviews
from memgw.common.bus import BusLayout
from memgw.common.db.outbox import enqueue
from memgw.common.domain import Principal
from memgw.common.events import ReviewDecided
from memgw.gateway import access, audit
from memgw.gateway.errors import BadRequest, Conflict, NotFound
from memgw.gateway.schemas import Content, RequestBody


class Review(BaseModel):
    id: str
    user_id: str
    memory_ids: list[str]
    reason: str
    status: str
    decision: str | None
    decided_by: str | None
    created_at: datetime
    decided_at: datetime | None
    kind: Literal["contradiction", "feedback"] = "contradiction"
    requested_by: str | None = Field(default=None, description="For feedback reviews: the reader who asked.")
    feedback: str | None = None


class ReviewDecision(RequestBody):
    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={
            "examples": [{"decision": "accept_new"}, {"decision": "edit", "edited_content": "搬到上海了"}]
        },
    )
    decision: Literal["accept_new", "keep_old", "keep_both", "edit"]
    edited_content: Content | None = None


def _ref(row: Any) -> policy.OwnedRef:
    return policy.OwnedRef("review", row["id"], row["user_id"])


class Reviews:
    """The review queue: what the machine was unsure of, decided by a person."""

    def __init__(self, *, pool: asyncpg.Pool, layout: BusLayout) -> None:
        self.pool, self.layout = pool, layout

    async def list_reviews(self, p: Principal, status: str | None) -> list[Review]:
        rows = await reviews.listing(self.pool, user_id=None if p.is_admin else p.user_id, status=status)
        return [Review(**dict(r)) for r in rows if access.allowed(p, policy.Action.REVIEW_READ, _ref(r))]

    async def decide_review(self, p: Principal, review_id: str, body: ReviewDecision) -> Review:
        """A person's decision on a contradiction, sent to the consolidator as ReviewDecided."""
        row = await reviews.get(self.pool, review_id)
        if row is None:
            raise NotFound(f"no review {review_id!r}")
        hidden = not access.allowed(p, policy.Action.REVIEW_READ, _ref(row))
        await access.require(
            self.pool,
            p,
            policy.Action.REVIEW_DECIDE,
            _ref(row),
            target_type="review",
            target_id=review_id,
            hidden=hidden,
        )
        if row["status"] != "open":
            raise Conflict(f"review {review_id} was decided already ({row['decision']})")
        if body.decision == "edit" and not body.edited_content:
            raise BadRequest("an 'edit' decision needs edited_content")
        async with self.pool.acquire() as conn, conn.transaction():
            await enqueue(
                conn,
                self.layout,
                ReviewDecided(
                    review_id=review_id,
                    decision=body.decision,
                    edited_content=body.edited_content,
                    decided_by=p.user_id,
                ),
            )
            await audit.record(
                conn, p, "review_decide", target_type="review", target_id=review_id, reason=body.decision
            )
        return Review(**dict(row))
