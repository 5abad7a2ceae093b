"""The vault's two skills (seed 004 §E): a memory as the note a person reads, and a person's note read
back as a memory's text. Registered in the ``memgw.skills`` entry point group like every other."""

from __future__ import annotations

from pydantic import BaseModel, Field

from memgw.common.domain import MemoryRecord
from memgw.common.skills import Skill
from memgw.obsidian_bridge.notes import memory_note, memory_text


class ExportInput(BaseModel):
    memory: MemoryRecord


class ExportOutput(BaseModel):
    markdown: str = Field(description="The note: properties (front matter) and the memory's text.")


class ExportToObsidian(Skill[ExportInput, ExportOutput]):
    name = "export_to_obsidian"
    summary = "A memory as an Obsidian note: properties a person can read and edit, its text, how to edit it."
    Input, Output = ExportInput, ExportOutput

    async def run(self, data: ExportInput) -> ExportOutput:
        return ExportOutput(markdown=memory_note(data.memory))


class ImportInput(BaseModel):
    body: str = Field(description="The note's Markdown below its properties.")


class ImportOutput(BaseModel):
    summary: str | None = Field(description="The note's first-level heading, None without one.")
    content: str


class ImportFromObsidian(Skill[ImportInput, ImportOutput]):
    name = "import_from_obsidian"
    summary = "A person's note read back as a memory's summary and content (the bridge's own comments dropped)."
    Input, Output = ImportInput, ImportOutput

    async def run(self, data: ImportInput) -> ImportOutput:
        summary, content = memory_text(data.body)
        return ImportOutput(summary=summary, content=content)
