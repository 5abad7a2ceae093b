"""Which single-valued attribute of the user a statement gives a value of (where they live, their
employer, their role, relationship, diet, phone, email, vehicle, main editor), or ``other``: a
multinomial logistic model over the bundled embedder's passage vectors, trained on a labelled Chinese
and English set shipped beside it (``attributes.jsonl``; ``bench/formation.py train`` makes
``attributes.json`` again).

Two statements of the same single-valued attribute cannot both stand: the newer is a change of the
older, unless it says the same again. A many-valued fact ("I also like jazz") is ``other`` and never
a change. Like the durable model, it answers only for the embedder it was trained on.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

import numpy as np

MODEL_FILE = "attributes.json"
EXAMPLES_FILE = "attributes.jsonl"
OTHER = "other"
SURE_AT = 0.6  # probability from which a statement is taken to state its attribute


@dataclass(frozen=True)
class AttributeModel:
    embedder: str
    classes: tuple[str, ...]
    mean: np.ndarray
    scale: np.ndarray
    weights: np.ndarray  # dim × classes
    bias: np.ndarray

    def of(self, vectors: list[list[float]]) -> list[str]:
        """Each statement's single-valued attribute, ``other`` when none (or not sure which)."""
        if not vectors:
            return []
        logits = ((np.asarray(vectors, dtype=np.float64) - self.mean) / self.scale) @ self.weights + self.bias
        logits -= logits.max(axis=1, keepdims=True)
        p = np.exp(logits)
        p /= p.sum(axis=1, keepdims=True)
        best = p.argmax(axis=1)
        return [self.classes[i] if p[n, i] >= SURE_AT else OTHER for n, i in enumerate(best)]

    def as_json(self) -> dict[str, Any]:
        return {
            "embedder": self.embedder,
            "classes": list(self.classes),
            "mean": self.mean.round(6).tolist(),
            "scale": self.scale.round(6).tolist(),
            "weights": self.weights.round(6).tolist(),
            "bias": self.bias.round(6).tolist(),
        }


def fit(
    embedder: str, vectors: np.ndarray, labels: list[str], *, l2: float = 1e-2, steps: int = 3000
) -> AttributeModel:
    """Softmax regression on standardised vectors, by full-batch gradient descent (deterministic)."""
    classes = tuple(sorted(set(labels)))
    y = np.eye(len(classes))[[classes.index(label) for label in labels]]
    mean, scale = vectors.mean(axis=0), vectors.std(axis=0) + 1e-6
    x = (vectors - mean) / scale
    w, b = np.zeros((x.shape[1], len(classes))), np.zeros(len(classes))
    for _ in range(steps):
        logits = x @ w + b
        logits -= logits.max(axis=1, keepdims=True)
        p = np.exp(logits)
        p /= p.sum(axis=1, keepdims=True)
        g = p - y
        w -= 0.1 * (x.T @ g / len(y) + l2 * w)
        b -= 0.1 * g.mean(axis=0)
    return AttributeModel(embedder, classes, mean, scale, w, b)


def examples() -> list[dict[str, Any]]:
    """The labelled set the shipped model is trained on: {text, lang, attribute}."""
    text = resources.files(__package__).joinpath(EXAMPLES_FILE).read_text(encoding="utf-8")
    return [json.loads(line) for line in text.splitlines() if line.strip()]


@cache
def shipped() -> AttributeModel:
    raw = json.loads(resources.files(__package__).joinpath(MODEL_FILE).read_text(encoding="utf-8"))
    return AttributeModel(
        raw["embedder"],
        tuple(raw["classes"]),
        np.asarray(raw["mean"]),
        np.asarray(raw["scale"]),
        np.asarray(raw["weights"]),
        np.asarray(raw["bias"]),
    )


def for_embedder(name: str) -> AttributeModel | None:
    model = shipped()
    return model if model.embedder == name else None
