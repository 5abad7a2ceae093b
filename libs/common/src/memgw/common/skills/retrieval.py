"""The contract of ``retrieve_context``, the skill that orders a search's hits: what it is given (the
retrievers' lists and what is known of each hit the asker may read) and what it answers. The default,
the gateway's ranking, is ``memgw.gateway.ranking``."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Annotated, Any

from pydantic import BaseModel, Field


# A search hands ~100 candidates and their hits to ranking: plain dataclasses, made in a fraction of a pydantic
# model's time, which the models holding them take as they are (and describe with the same schema).
@dataclass(slots=True)
class Hit:
    id: str
    score: float


@dataclass(slots=True)
class RankFacts:
    """What ranking knows of one readable candidate."""

    id: str
    importance: float
    confidence: float
    touched_at: Annotated[datetime, Field(description="Last retrieved, else last updated.")]
    content_hash: str
    embedding: Annotated[
        list[float], Field(description="In process it may be a float32 numpy array (what storage reads).")
    ]
    evidence_count: int = 1
    source: str = "manual"
    flags: Annotated[list[str], Field(description="The record's flags and the asker's own feedback.")] = field(
        default_factory=list
    )
    session: Annotated[
        str | None,
        Field(description="The user and session it was said in ('user/session'); hits of one support each other."),
    ] = None


class RetrieveInput(BaseModel):
    query: str
    dense: list[Hit] = Field(description="The meaning retriever's hits, best first.")
    bm25: list[Hit] = Field(description="The keyword retriever's hits, best first.")
    openviking: list[Hit] = Field(default_factory=list, description="OpenViking's hits, best first, when it is asked.")
    neighbours: list[Hit] = Field(
        default_factory=list,
        description="The memories around the best hits in their sessions, each scored as its anchor.",
    )
    feedback: list[Hit] = Field(
        default_factory=list, description="A second keyword round's hits (query + expansion_terms of the first's best)."
    )
    facts: list[RankFacts] = Field(description="The candidates the asker may read; other hits are dropped.")
    now: datetime
    limit: int = Field(ge=1)


class RankedContext(BaseModel):
    id: str
    score: float
    components: dict[str, Any]
    duplicates: list[str] = Field(default_factory=list)  # a factory, not a default deep-copied per hit


class RetrieveOutput(BaseModel):
    ranked: list[RankedContext]
