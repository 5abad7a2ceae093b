from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query, Response, status

from memgw.gateway import review_service, session_service
from memgw.gateway.deps import MemoriesDep, PrincipalDep, ReviewsDep, SessionsDep
from memgw.gateway.schemas import ResourceId

router = APIRouter(prefix="/v1", tags=["sessions"])


@router.post("/sessions", status_code=status.HTTP_201_CREATED, response_model=session_service.Session)
async def open_session(
    body: session_service.SessionCreate, sessions: SessionsDep, principal: PrincipalDep
) -> session_service.Session:
    return await sessions.open_session(principal, body)


@router.get("/sessions/{session_id}", response_model=session_service.Session)
async def get_session(
    session_id: ResourceId, sessions: SessionsDep, principal: PrincipalDep
) -> session_service.Session:
    return await sessions.get_session(principal, session_id)


@router.get("/sessions/{session_id}/episodes", response_model=list[session_service.Episode])
async def list_episodes(
    session_id: ResourceId, sessions: SessionsDep, principal: PrincipalDep
) -> list[session_service.Episode]:
    return await sessions.list_episodes(principal, session_id)


@router.post("/episodes", status_code=status.HTTP_201_CREATED, response_model=session_service.Episode)
async def append_episode(
    body: session_service.EpisodeCreate, sessions: SessionsDep, principal: PrincipalDep
) -> session_service.Episode:
    """Write to `session/{id}/episodic`; the session is opened on first use. Never long-term by itself."""
    return await sessions.append_episode(principal, body)


@router.post("/sessions/{session_id}/commit", status_code=status.HTTP_202_ACCEPTED)
async def commit_session(
    session_id: ResourceId,
    body: session_service.CommitRequest,
    sessions: SessionsDep,
    memories: MemoriesDep,
    principal: PrincipalDep,
    response: Response,
    wait: Annotated[
        bool,
        Query(
            description="Wait (at most `MEMGW_COMMIT_WAIT_S`) for the consolidator and answer 200 with what it"
            " promoted, as seed 004 §D shows; if it takes longer, the usual 202 with the job."
        ),
    ] = False,
) -> dict[str, Any]:
    """Hand the session's episodes to the consolidator; follow the job at `/v1/jobs/{job_id}`."""
    answer = await sessions.commit(principal, session_id, body)
    response.headers["Location"] = answer["job"]
    if wait:
        done = await sessions.finished_commit(answer)
        if done is not None:
            response.status_code = status.HTTP_200_OK
            # What was promoted, as far as this key may read it (an agent's lessons stay its own).
            return {**done, "promoted": await memories.briefs(principal, done["promoted"])}
    return answer


@router.get("/jobs/{job_id}", response_model=session_service.Job)
async def get_job(job_id: ResourceId, sessions: SessionsDep, principal: PrincipalDep) -> session_service.Job:
    return await sessions.get_job(principal, job_id)


@router.get("/reviews", response_model=list[review_service.Review], tags=["reviews"])
async def list_reviews(
    reviews: ReviewsDep, principal: PrincipalDep, status: str | None = "open"
) -> list[review_service.Review]:
    """Contradictions the consolidator would not decide alone, waiting for a person."""
    return await reviews.list_reviews(principal, status)


@router.post(
    "/reviews/{review_id}/decision",
    status_code=status.HTTP_202_ACCEPTED,
    response_model=review_service.Review,
    tags=["reviews"],
)
async def decide_review(
    review_id: ResourceId, body: review_service.ReviewDecision, reviews: ReviewsDep, principal: PrincipalDep
) -> review_service.Review:
    """accept_new, keep_old, keep_both, or edit (with edited_content); applied by the consolidator."""
    return await reviews.decide_review(principal, review_id, body)
