"""The skills this install runs (seed 004 §E): which implementation serves each, and its models."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from memgw.common import policy
from memgw.gateway import access
from memgw.gateway.deps import PrincipalDep, ServicesDep
from memgw.gateway.errors import NotFound

router = APIRouter(prefix="/v1", tags=["skills"])


@router.get("/skills")
async def list_skills(services: ServicesDep, principal: PrincipalDep) -> list[dict[str, Any]]:
    """Every skill: name, viking:// URI, version, the bound implementation and its alternatives, the
    JSON Schemas of its input and output."""
    ref = policy.SkillRef()
    await access.require(services.pool, principal, policy.Action.SKILL_READ, ref, target_type="skill", target_id=None)
    return services.skills.describe()


@router.get("/skills/{name}")
async def get_skill(name: str, services: ServicesDep, principal: PrincipalDep) -> dict[str, Any]:
    ref = policy.SkillRef(name)
    await access.require(services.pool, principal, policy.Action.SKILL_READ, ref, target_type="skill", target_id=name)
    for skill in services.skills.describe():
        if skill["name"] == name:
            return skill
    raise NotFound(f"no skill {name!r}")
