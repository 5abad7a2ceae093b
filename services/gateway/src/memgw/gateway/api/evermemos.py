"""EverMemOS's v0 API under ``/evermemos`` (the ``evermemos`` SDK's ``base_url``), Bearer key =
our API key. The shapes are EverMemOS's; what is behind them is ours (see ``evermemos_service``)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Body, Query

from memgw.gateway.deps import EverMemOSDep, PrincipalDep
from memgw.gateway.evermemos_service import EverDelete, EverListing, EverMessage, EverSearch

router = APIRouter(prefix="/evermemos/api/v0", tags=["evermemos"])


@router.post("/memories")
async def add(body: EverMessage, ever: EverMemOSDep, principal: PrincipalDep) -> dict[str, Any]:
    """Store a message of a conversation; ``flush`` extracts memories from the conversation now."""
    return await ever.add(principal, body)


@router.get("/memories")
async def fetch(query: Annotated[EverListing, Query()], ever: EverMemOSDep, principal: PrincipalDep) -> dict[str, Any]:
    return await ever.listing(principal, query)


@router.get("/memories/search")
async def search(query: Annotated[EverSearch, Query()], ever: EverMemOSDep, principal: PrincipalDep) -> dict[str, Any]:
    return await ever.search(principal, query)


@router.delete("/memories")
async def delete(body: Annotated[EverDelete, Body()], ever: EverMemOSDep, principal: PrincipalDep) -> dict[str, Any]:
    return await ever.delete(principal, body)


@router.get("/status/request")
async def request_status(
    ever: EverMemOSDep, principal: PrincipalDep, request_id: Annotated[str, Query(max_length=200)]
) -> dict[str, Any]:
    return await ever.status(principal, request_id)
