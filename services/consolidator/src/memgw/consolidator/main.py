"""The consolidator (the EverMemOS role): session episodes into long-term memory, dedup, merge,
conflicts to review, decay, profile evolution. Its bus subscribers are added with that work; until
then the service contributes nothing to a process, and nothing in the API depends on it."""

from __future__ import annotations

from memgw.common.runtime import Infra, ServiceParts


def build(infra: Infra) -> ServiceParts:
    return ServiceParts(name="consolidator")
