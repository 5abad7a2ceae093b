"""The user's profile (seed 004 §B ProfileRecord): stable facts and preferences, evolved by the
consolidator with evidence; read here."""

from __future__ import annotations

from typing import Any

import asyncpg
from pydantic import BaseModel, Field

from memgw.common import policy, profiles
from memgw.common.domain import Principal
from memgw.common.namespaces import user_namespace
from memgw.common.principals import user_card
from memgw.gateway import access, audit
from memgw.gateway.errors import NotFound


class Profile(BaseModel):
    id: str
    user_id: str
    namespace: str
    display_name: str
    stable_facts: list[Any]
    preferences: dict[str, Any] = Field(description="By attribute: language, output_style, tone, …")
    working_style: list[Any]
    updated_from_memory_ids: list[str]
    version: int


class Profiles:
    """A user profile assembled from their memories."""

    def __init__(self, pool: asyncpg.Pool) -> None:
        self.pool = pool

    async def get_profile(self, p: Principal, user_id: str) -> Profile:
        ref = policy.OwnedRef("profile", user_id, user_id)
        await access.require(self.pool, p, policy.Action.PROFILE_READ, ref, target_type="profile", target_id=user_id)
        user = await user_card(self.pool, user_id)
        if user is None:
            raise NotFound(f"no user {user_id!r}")
        row = await profiles.profile_of(self.pool, user_id)
        await audit.record(self.pool, p, "memory_get_profile", target_type="profile", target_id=user_id)
        if row is None:  # no evolved profile yet: what the user told us at sign-up
            return Profile(
                id=f"profile_{user_id}",
                user_id=user_id,
                namespace=user_namespace(user_id, "profile"),
                display_name=user["display_name"],
                stable_facts=[],
                preferences=user["preferences"],
                working_style=[],
                updated_from_memory_ids=[],
                version=0,
            )
        return Profile(
            id=f"profile_{user_id}",
            user_id=user_id,
            namespace=user_namespace(user_id, "profile"),
            display_name=row["display_name"] or user["display_name"],
            stable_facts=row["stable_facts"],
            preferences={**user["preferences"], **row["preferences"]},
            working_style=row["working_style"],
            updated_from_memory_ids=list(row["updated_from_memory_ids"]),
            version=row["version"],
        )
