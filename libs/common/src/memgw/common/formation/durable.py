"""Durable or transient, by meaning: over the bundled embedder's passage vectors, a logistic model and
the vote of the nearest labelled statements, half each, both from a labelled Chinese and English set
shipped beside it (``statements.jsonl``; ``bench/formation.py train`` makes ``durable.json`` from it
again). The line a linear model draws is one for the whole space; the vote follows the set where a
kind of statement sits in a corner of it ("I have a girlfriend now" among the relationships, not the
"… now" of the moment); the linear model carries where the set is thin.

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

import base64
import json
from collections.abc import Callable
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
NEIGHBOURS = 10  # labelled statements that vote
TEMPERATURE = 0.02  # a vote weighs exp(cosine / TEMPERATURE): the nearest count most


@dataclass(frozen=True)
class DurableModel:
    embedder: str
    mean: np.ndarray
    scale: np.ndarray
    weights: np.ndarray
    bias: float
    examples: np.ndarray  # the labelled statements' unit vectors, one per row
    kept: np.ndarray  # each example's label, 1.0 kept

    def probabilities(self, vectors: list[list[float]]) -> list[float]:
        """How likely each statement is a durable fact of the user, 0 to 1."""
        if not vectors:
            return []
        v = np.asarray(vectors, dtype=np.float64)
        linear = 1.0 / (1.0 + np.exp(-(((v - self.mean) / self.scale) @ self.weights + self.bias)))
        return [float(p) for p in (linear + self._vote(v)) / 2]

    def _vote(self, v: np.ndarray) -> np.ndarray:
        """The share kept among each vector's nearest labelled statements, the nearer weighing more."""
        similar = v @ self.examples.T
        nearest = np.argsort(-similar, axis=1, kind="stable")[:, :NEIGHBOURS]
        near = np.take_along_axis(similar, nearest, axis=1)
        weight = np.exp((near - near[:, :1]) / TEMPERATURE)
        return np.asarray((weight * self.kept[nearest]).sum(axis=1) / weight.sum(axis=1))

    def as_json(self) -> dict[str, Any]:
        return {
            "embedder": self.embedder,
            "bias": self.bias,
            "mean": self.mean.round(6).tolist(),
            "scale": self.scale.round(6).tolist(),
            "weights": self.weights.round(6).tolist(),
            # float16 keeps a cosine to about 1e-3, far below what tells two statements apart
            "examples": base64.b64encode(self.examples.astype("<f2").tobytes()).decode("ascii"),
            "kept": "".join("1" if k else "0" for k in self.kept),
        }


def fit(embedder: str, vectors: np.ndarray, keep: np.ndarray, *, l2: float = 0.1, steps: int = 4000) -> DurableModel:
    """Logistic regression on standardised vectors, by full-batch gradient descent (deterministic), beside
    the labelled vectors themselves for the vote."""
    mean = vectors.mean(axis=0)
    scale = vectors.std(axis=0) + 1e-6
    x = (vectors - mean) / scale
    y = keep.astype(np.float64)
    w, b = np.zeros(x.shape[1]), 0.0
    for _ in range(steps):
        g = 1.0 / (1.0 + np.exp(-(x @ w + b))) - y
        w -= 0.1 * (x.T @ g / len(y) + l2 * w)
        b -= 0.1 * float(g.mean())
    examples = vectors.astype("<f2").astype(np.float64)  # as shipped, so a fit votes as its file does
    return DurableModel(embedder, mean, scale, w, b, examples, keep.astype(np.float64))


def statements() -> list[dict[str, Any]]:
    """The labelled set the shipped model is trained on: {text, lang, keep}."""
    return labelled(STATEMENTS_FILE)


def labelled(name: str) -> list[dict[str, Any]]:
    """A labelled set shipped beside the models, one JSON object a line."""
    text = resources.files(__package__).joinpath(name).read_text(encoding="utf-8")
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def shipped() -> DurableModel:
    return load(MODEL_FILE)


@cache
def load(name: str) -> DurableModel:
    """A model of this kind shipped beside its set (``durable.json``, ``ongoing.json``)."""
    raw = json.loads(resources.files(__package__).joinpath(name).read_text(encoding="utf-8"))
    return DurableModel(
        raw["embedder"],
        np.asarray(raw["mean"]),
        np.asarray(raw["scale"]),
        np.asarray(raw["weights"]),
        float(raw["bias"]),
        np.frombuffer(base64.b64decode(raw["examples"]), dtype="<f2").reshape(len(raw["kept"]), -1).astype(np.float64),
        np.asarray([c == "1" for c in raw["kept"]], dtype=np.float64),
    )


def for_embedder(name: str, model_file: str = MODEL_FILE) -> DurableModel | None:
    """The shipped model of this kind (``model_file``) for embedder ``name``, None for another embedder's vectors."""
    model = load(model_file)
    return model if model.embedder == name else None


def in_place(
    said: list[str], vectors: list[list[float]], p: list[float], model: DurableModel, form: Callable[[str], bool]
) -> list[float]:
    """``p``, each statement's durable probability, with ``model``'s in its place for each statement in ``form``
    (the ongoing model's for a statement in progress, the answers model's for an answer)."""
    chosen = [i for i, sentence in enumerate(said) if form(sentence)]
    weights = list(p)
    for i, q in zip(chosen, model.probabilities([vectors[i] for i in chosen]), strict=True):
        weights[i] = q
    return weights
