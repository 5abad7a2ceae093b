"""``ingest``, the gateway's default: conversation turns, files and task events as episode text."""

from __future__ import annotations

import re
import unicodedata
from typing import Any

from memgw.common.skills.memory import IngestInput, IngestOutput, NormalizedEpisode
from memgw.common.skills.registry import Skill

_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f\u200b-\u200f\u2028\u2029\ufeff]")
_BLANK_RUN = re.compile(r"\n{3,}")


def _text_of(content: str | list[Any] | dict[str, Any]) -> str:
    if isinstance(content, str):
        return content
    parts = content if isinstance(content, list) else [content]
    texts = [p.get("text", "") if isinstance(p, dict) else str(p) for p in parts]
    return "\n".join(t for t in texts if isinstance(t, str) and t)


def normalize(text: str) -> str:
    """NFC, one kind of line break, no control or zero-width characters, at most one blank line."""
    text = unicodedata.normalize("NFC", text).replace("\r\n", "\n").replace("\r", "\n")
    return _BLANK_RUN.sub("\n\n", _CONTROL.sub("", text)).strip()


class Ingest(Skill[IngestInput, IngestOutput]):
    name = "ingest"
    summary = "Normalize conversation turns, files and task events into episode text (nothing is stored)."
    Input, Output = IngestInput, IngestOutput

    async def run(self, data: IngestInput) -> IngestOutput:
        episodes = [
            NormalizedEpisode(role=(i.role.strip().lower() or "user"), content=normalize(_text_of(i.content)))
            for i in data.items
        ]
        return IngestOutput(episodes=[e for e in episodes if e.content])
