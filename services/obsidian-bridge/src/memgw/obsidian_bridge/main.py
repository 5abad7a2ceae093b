"""The Obsidian bridge: review drafts and high-value notes out to a Markdown vault, the person's
decisions back in. Its bus subscribers are added with that work; until then the service contributes
nothing to a process, and nothing in the API depends on it."""

from __future__ import annotations

from memgw.common.runtime import Infra, ServiceParts


def build(infra: Infra) -> ServiceParts:
    return ServiceParts(name="obsidian-bridge")
