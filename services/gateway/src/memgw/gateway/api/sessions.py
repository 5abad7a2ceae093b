from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Response, status

from memgw.gateway import review_service as reviews
from memgw.gateway import session_service as sessions
from memgw.gateway.deps import InfraDep, PrincipalDep
from memgw.gateway.schemas import ResourceId

router = APIRouter(prefix="/v1", tags=["sessions"])


@router.post("/sessions", status_code=status.HTTP_201_CREATED, response_model=sessions.Session)
async def open_session(body: sessions.SessionCreate, infra: InfraDep, principal: PrincipalDep) -> sessions.Session:
    return await sessions.open_session(infra, principal, body)


@router.get("/sessions/{session_id}", response_model=sessions.Session)
async def get_session(session_id: ResourceId, infra: InfraDep, principal: PrincipalDep) -> sessions.Session:
    return await sessions.get_session(infra, principal, session_id)


@router.get("/sessions/{session_id}/episodes", response_model=list[sessions.Episode])
async def list_episodes(session_id: ResourceId, infra: InfraDep, principal: PrincipalDep) -> list[sessions.Episode]:
    return await sessions.list_episodes(infra, principal, session_id)


@router.post("/episodes", status_code=status.HTTP_201_CREATED, response_model=sessions.Episode)
async def append_episode(body: sessions.EpisodeCreate, infra: InfraDep, principal: PrincipalDep) -> sessions.Episode:
    """Write to `session/{id}/episodic`; the session is opened on first use. Never long-term by itself."""
    return await sessions.append_episode(infra, principal, body)


@router.post("/sessions/{session_id}/commit", status_code=status.HTTP_202_ACCEPTED)
async def commit_session(
    session_id: ResourceId, body: sessions.CommitRequest, infra: InfraDep, principal: PrincipalDep, response: Response
) -> dict[str, Any]:
    """Hand the session's episodes to the consolidator; follow the job at `/v1/jobs/{job_id}`."""
    answer = await sessions.commit(infra, principal, session_id, body)
    response.headers["Location"] = answer["job"]
    return answer


@router.get("/jobs/{job_id}", response_model=sessions.Job)
async def get_job(job_id: ResourceId, infra: InfraDep, principal: PrincipalDep) -> sessions.Job:
    return await sessions.get_job(infra, principal, job_id)


@router.get("/reviews", response_model=list[reviews.Review], tags=["reviews"])
async def list_reviews(infra: InfraDep, principal: PrincipalDep, status: str | None = "open") -> list[reviews.Review]:
    """Contradictions the consolidator would not decide alone, waiting for a person."""
    return await reviews.list_reviews(infra, principal, status)


@router.post(
    "/reviews/{review_id}/decision",
    status_code=status.HTTP_202_ACCEPTED,
    response_model=reviews.Review,
    tags=["reviews"],
)
async def decide_review(
    review_id: ResourceId, body: reviews.ReviewDecision, infra: InfraDep, principal: PrincipalDep
) -> reviews.Review:
    """accept_new, keep_old, keep_both, or edit (with edited_content); applied by the consolidator."""
    return await reviews.decide_review(infra, principal, review_id, body)
