"""What the user says they are doing, or where they are: a stretch of their life or this minute. "I'm training
for a triathlon" and "I'm charging my phone", "我在读研" and "我在排队" share a form and often a topic with what
lasts, and the durable model, drawn over every kind of statement, keeps many chores of the moment. This is a
model of the same kind (``durable.DurableModel``) trained only on statements in that form
(``structure.in_progress``): ``ongoing.jsonl`` and those of the durable set, lasting or not. For a statement in
that form it is the judge in the durable model's place: it knows what the durable set says of such statements,
and its examples sit in a corner of the space of their own, so they cannot pull a plain short fact elsewhere
("我抽烟。", "I use Gmail.") under the keep line, as they did when added to the durable set.
"""

from __future__ import annotations

from typing import Any

from memgw.common.formation import durable
from memgw.common.formation.structure import in_progress

MODEL_FILE = "ongoing.json"
STATEMENTS_FILE = "ongoing.jsonl"


def statements() -> list[dict[str, Any]]:
    """The labelled set the ongoing model is trained on: its own, and the durable set's in the same form
    ({text, lang, keep}: keep means it lasts)."""
    return durable.labelled(STATEMENTS_FILE) + [r for r in durable.statements() if in_progress(r["text"])]


def for_embedder(name: str) -> durable.DurableModel | None:
    return durable.for_embedder(name, MODEL_FILE)
