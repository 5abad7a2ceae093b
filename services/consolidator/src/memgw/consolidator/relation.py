"""What a new statement of the user does to an older one of theirs: says the ``same`` again, gives a new
value of the same single-valued fact (a ``change``: where they live, their employer, relationship, diet,
number …, or a habit given up), or neither (``other``: another fact, or an addition to a many-valued one,
"I also like jazz"). A multinomial logistic model over the pair's passage vectors (their cosine, their
element-wise product and difference, the usual features of a sentence pair), trained on labelled Chinese
and English pairs shipped beside it (``pairs.jsonl``, written by ``bench/formation/make_pairs.py``;
``bench/formation.py train`` makes ``relation.json`` again).

"I live in Lisbon" and "I moved to Oslo" are near in meaning, and so are "I live in Lisbon" and "Lisbon
is home": no cut on their cosine tells a change from a paraphrase on every CPU, but which dimensions
differ does. Whose statement it is, and whether it is a hypothetical or a past, is left to
``structure.py``: the model is asked only about the user's own statements. Like the durable model, it
answers only for the embedder it was trained on.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

import numpy as np

MODEL_FILE = "relation.json"
PAIRS_FILE = "pairs.jsonl"
SAME, CHANGE, OTHER = "same", "change", "other"


def features(old: np.ndarray, new: np.ndarray) -> np.ndarray:
    """One row per pair of unit vectors: cosine, element-wise product, absolute difference."""
    return np.hstack([np.sum(old * new, axis=1, keepdims=True), old * new, np.abs(old - new)])


@dataclass(frozen=True)
class RelationModel:
    embedder: str
    classes: tuple[str, ...]
    mean: np.ndarray
    scale: np.ndarray
    weights: np.ndarray  # features × classes
    bias: np.ndarray

    def probabilities(self, old: list[list[float]], new: list[list[float]]) -> list[dict[str, float]]:
        """For each pair (an older statement, a newer one), how likely the newer says the same again, is a
        change of the older, or other."""
        if not old:
            return []
        pairs = features(np.asarray(old, dtype=np.float64), np.asarray(new, dtype=np.float64))
        return [dict(zip(self.classes, map(float, row), strict=True)) for row in _softmax(self._logits(pairs))]

    def _logits(self, x: np.ndarray) -> np.ndarray:
        return np.asarray(((x - self.mean) / self.scale) @ self.weights + self.bias)

    def as_json(self) -> dict[str, Any]:
        return {
            "embedder": self.embedder,
            "classes": list(self.classes),
            "mean": self.mean.round(6).tolist(),
            "scale": self.scale.round(6).tolist(),
            "weights": self.weights.round(6).tolist(),
            "bias": self.bias.round(6).tolist(),
        }


def _softmax(logits: np.ndarray) -> np.ndarray:
    z = np.exp(logits - logits.max(axis=1, keepdims=True))
    return np.asarray(z / z.sum(axis=1, keepdims=True))


def fit(
    embedder: str, old: np.ndarray, new: np.ndarray, labels: list[str], *, l2: float = 1e-2, steps: int = 2000
) -> RelationModel:
    """Softmax regression on standardised pair features, by full-batch gradient descent (deterministic)."""
    x = features(old, new)
    classes = (SAME, CHANGE, OTHER)
    y = np.eye(len(classes))[[classes.index(label) for label in labels]]
    mean, scale = x.mean(axis=0), x.std(axis=0) + 1e-6
    x = (x - mean) / scale
    w, b = np.zeros((x.shape[1], len(classes))), np.zeros(len(classes))
    for _ in range(steps):
        g = _softmax(x @ w + b) - y
        w -= 0.1 * (x.T @ g / len(y) + l2 * w)
        b -= 0.1 * g.mean(axis=0)
    return RelationModel(embedder, classes, mean, scale, w, b)


def pairs() -> list[dict[str, Any]]:
    """The labelled pairs the shipped model is trained on: {lang, old, new, label}."""
    text = resources.files(__package__).joinpath(PAIRS_FILE).read_text(encoding="utf-8")
    return [json.loads(line) for line in text.splitlines() if line.strip()]


@cache
def shipped() -> RelationModel:
    raw = json.loads(resources.files(__package__).joinpath(MODEL_FILE).read_text(encoding="utf-8"))
    return RelationModel(
        raw["embedder"],
        tuple(raw["classes"]),
        np.asarray(raw["mean"]),
        np.asarray(raw["scale"]),
        np.asarray(raw["weights"]),
        np.asarray(raw["bias"]),
    )


def for_embedder(name: str) -> RelationModel | None:
    model = shipped()
    return model if model.embedder == name else None
