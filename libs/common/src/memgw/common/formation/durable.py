"""Durable or transient, by meaning: a logistic model over the bundled embedder's passage vectors,
trained on a labelled Chinese and English set shipped beside it (``statements.jsonl``; ``bench/
formation.py train`` makes ``durable.json`` from it again).

"Keep" is a statement of the user about themselves that stays true: who they are, where they live and
work, family, health and allergies, diet, routines, preferences, tools, plans and deadlines, contact
details, and the decisions and lessons of their work. Moods, today's weather and plans, questions,
requests, hypotheticals, small talk and other people's facts are not kept. A word list cannot tell
"I'm allergic to peanuts" from "my colleague is allergic to peanuts"; the vector of the whole sentence
can, and it carries to phrasings the set never wrote down.

The model is a pure function of a vector: no state, no I/O after loading. A vector of another
embedder means nothing to it, so ``for_embedder`` answers None for any but the one it was trained on.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

import numpy as np

MODEL_FILE = "durable.json"
STATEMENTS_FILE = "statements.jsonl"
KEEP_AT = 0.5  # probability from which a statement is kept
# Below KEEP_AT, a statement of the user's is still worth comparing with what they said before, unless the
# model is sure it is chatter: whether it stands is then up to what it says again or changes.
DOUBTED_AT = 0.25


@dataclass(frozen=True)
class DurableModel:
    embedder: str
    mean: np.ndarray
    scale: np.ndarray
    weights: np.ndarray
    bias: float

    def probabilities(self, vectors: list[list[float]]) -> list[float]:
        """How likely each statement is a durable fact of the user, 0 to 1."""
        if not vectors:
            return []
        x = (np.asarray(vectors, dtype=np.float64) - self.mean) / self.scale
        return [float(p) for p in 1.0 / (1.0 + np.exp(-(x @ self.weights + self.bias)))]

    def as_json(self) -> dict[str, Any]:
        return {
            "embedder": self.embedder,
            "bias": self.bias,
            "mean": self.mean.round(6).tolist(),
            "scale": self.scale.round(6).tolist(),
            "weights": self.weights.round(6).tolist(),
        }


def fit(embedder: str, vectors: np.ndarray, keep: np.ndarray, *, l2: float = 0.1, steps: int = 4000) -> DurableModel:
    """Logistic regression on standardised vectors, by full-batch gradient descent (deterministic)."""
    mean = vectors.mean(axis=0)
    scale = vectors.std(axis=0) + 1e-6
    x = (vectors - mean) / scale
    y = keep.astype(np.float64)
    w, b = np.zeros(x.shape[1]), 0.0
    for _ in range(steps):
        g = 1.0 / (1.0 + np.exp(-(x @ w + b))) - y
        w -= 0.1 * (x.T @ g / len(y) + l2 * w)
        b -= 0.1 * float(g.mean())
    return DurableModel(embedder, mean, scale, w, b)


def statements() -> list[dict[str, Any]]:
    """The labelled set the shipped model is trained on: {text, lang, keep}."""
    text = resources.files(__package__).joinpath(STATEMENTS_FILE).read_text(encoding="utf-8")
    return [json.loads(line) for line in text.splitlines() if line.strip()]


@cache
def shipped() -> DurableModel:
    raw = json.loads(resources.files(__package__).joinpath(MODEL_FILE).read_text(encoding="utf-8"))
    return DurableModel(
        raw["embedder"],
        np.asarray(raw["mean"]),
        np.asarray(raw["scale"]),
        np.asarray(raw["weights"]),
        float(raw["bias"]),
    )


def for_embedder(name: str) -> DurableModel | None:
    model = shipped()
    return model if model.embedder == name else None
