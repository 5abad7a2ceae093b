"""What a new statement of the user does to an older one of theirs: says the ``same`` again, gives a new
value of the same single-valued fact (a ``change``: where they live, their employer, relationship, diet,
number …, or a habit given up), or neither (``other``: another fact, or an addition to a many-valued one,
"I also like jazz"). Read from the pair's passage vectors (their cosine, their element-wise product and
difference, the usual features of a sentence pair) by two models whose probabilities are averaged, both
trained on labelled Chinese and English pairs shipped beside them (``pairs.jsonl``, written by
``bench/formation/make_pairs.py``; ``bench/formation.py train`` makes ``relation.json`` again):

- a multinomial logistic model, on the ``core`` set: attributes and their values, composed;
- a network of one hidden layer, on those and the ``broad`` set: a life told as events ("Zoe and I went our
  separate ways", "I gave up meat in the spring"), a job's duties, a fact said again in other words.

A line drawn through the whole space cannot hold the events beside the values: trained on both, the
logistic model took a job's new shifts for a new job. The network reads the events; averaged with the
logistic model, a change must lean that way in both, so a false review, which costs a person's attention,
takes two mistakes.

"I live in Lisbon" and "I moved to Oslo" are near in meaning, and so are "I live in Lisbon" and "Lisbon
is home": no cut on their cosine tells a change from a paraphrase on every CPU, but which dimensions
differ does. Whose statement it is, and whether it is a hypothetical or a past, is left to
``structure.py``: the models are asked only about the user's own statements. Like the durable model, they
answer only for the embedder they were trained on.
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
CORE = "core"  # the set of pairs the logistic model learns


def features(old: np.ndarray, new: np.ndarray) -> np.ndarray:
    """One row per pair of unit vectors: cosine, element-wise product, absolute difference."""
    return np.hstack([np.sum(old * new, axis=1, keepdims=True), old * new, np.abs(old - new)])


@dataclass(frozen=True)
class Logistic:
    """Softmax regression on standardised pair features."""

    mean: np.ndarray
    scale: np.ndarray
    weights: np.ndarray  # features × classes
    bias: np.ndarray

    def logits(self, x: np.ndarray) -> np.ndarray:
        return np.asarray(self.standard(x) @ self.weights + self.bias)

    def standard(self, x: np.ndarray) -> np.ndarray:
        return np.asarray((x - self.mean) / self.scale)


@dataclass(frozen=True)
class Network(Logistic):
    """One hidden layer of rectified units on standardised pair features, then softmax regression."""

    hidden: np.ndarray  # features × units
    hidden_bias: np.ndarray

    def logits(self, x: np.ndarray) -> np.ndarray:
        units = np.maximum(0.0, self.standard(x) @ self.hidden + self.hidden_bias)
        return np.asarray(units @ self.weights + self.bias)  # weights: units × classes


@dataclass(frozen=True)
class RelationModel:
    embedder: str
    classes: tuple[str, ...]
    members: tuple[Logistic, ...]  # a Network is one too

    def probabilities(self, old: list[list[float]], new: list[list[float]]) -> list[dict[str, float]]:
        """For each pair (an older statement, a newer one), how likely the newer says the same again, is a
        change of the older, or other: the members' probabilities, averaged."""
        if not old:
            return []
        pairs = features(np.asarray(old, dtype=np.float64), np.asarray(new, dtype=np.float64))
        mean = np.mean([_softmax(member.logits(pairs)) for member in self.members], axis=0)
        return [dict(zip(self.classes, map(float, row), strict=True)) for row in mean]

    def as_json(self) -> dict[str, Any]:
        return {
            "embedder": self.embedder,
            "classes": list(self.classes),
            "members": [
                {"kind": type(m).__name__.lower(), **{k: v.round(6).tolist() for k, v in vars(m).items()}}
                for m in self.members
            ],
        }


def _softmax(logits: np.ndarray) -> np.ndarray:
    z = np.exp(logits - logits.max(axis=1, keepdims=True))
    return np.asarray(z / z.sum(axis=1, keepdims=True))


def fit(embedder: str, old: np.ndarray, new: np.ndarray, labels: list[str], core: np.ndarray) -> RelationModel:
    """The logistic model on the pairs ``core`` marks, the network on all of them (deterministic)."""
    x = features(old, new)
    classes = (SAME, CHANGE, OTHER)
    y = np.eye(len(classes))[[classes.index(label) for label in labels]]
    return RelationModel(embedder, classes, (fit_logistic(x[core], y[core]), fit_network(x, y)))


def _standardised(x: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``x`` with each feature at mean 0 and deviation 1, and the mean and scale that make it so."""
    mean, scale = x.mean(axis=0), x.std(axis=0) + 1e-6
    return (x - mean) / scale, mean, scale


def fit_logistic(x: np.ndarray, y: np.ndarray, *, l2: float = 1e-2, steps: int = 2000) -> Logistic:
    """By full-batch gradient descent."""
    x, mean, scale = _standardised(x)
    w, b = np.zeros((x.shape[1], y.shape[1])), np.zeros(y.shape[1])
    for _ in range(steps):
        g = _softmax(x @ w + b) - y
        w -= 0.1 * (x.T @ g / len(y) + l2 * w)
        b -= 0.1 * g.mean(axis=0)
    return Logistic(mean, scale, w, b)


def fit_network(
    x: np.ndarray, y: np.ndarray, *, units: int = 64, l2: float = 1e-2, steps: int = 300, rate: float = 5e-3
) -> Network:
    """By full-batch Adam from a seeded start, few steps and weight decay: the pairs are composed, so a
    network trained to fit every one of them would learn their templates."""
    x, mean, scale = _standardised(x)
    start = np.random.default_rng(0)
    params = [
        start.normal(0.0, 1 / np.sqrt(x.shape[1]), (x.shape[1], units)),
        np.zeros(units),
        start.normal(0.0, 1 / np.sqrt(units), (units, y.shape[1])),
        np.zeros(y.shape[1]),
    ]
    first, second = [np.zeros_like(p) for p in params], [np.zeros_like(p) for p in params]
    for step in range(1, steps + 1):
        hidden, hidden_bias, w, b = params
        h = np.maximum(0.0, x @ hidden + hidden_bias)
        g = (_softmax(h @ w + b) - y) / len(y)
        back = g @ w.T * (h > 0)
        grads = [x.T @ back + l2 * hidden, back.sum(axis=0), h.T @ g + l2 * w, g.sum(axis=0)]
        for p, grad, m, v in zip(params, grads, first, second, strict=True):
            m *= 0.9
            m += 0.1 * grad
            v *= 0.999
            v += 0.001 * grad * grad
            p -= rate * (m / (1 - 0.9**step)) / (np.sqrt(v / (1 - 0.999**step)) + 1e-8)
    hidden, hidden_bias, w, b = params
    return Network(mean, scale, w, b, hidden, hidden_bias)


def pairs() -> list[dict[str, Any]]:
    """The labelled pairs the shipped model is trained on: {lang, old, new, label, set}, the set ``core`` or
    ``broad``."""
    text = resources.files(__package__).joinpath(PAIRS_FILE).read_text(encoding="utf-8")
    return [json.loads(line) for line in text.splitlines() if line.strip()]


MEMBERS: dict[str, type[Logistic]] = {"logistic": Logistic, "network": Network}


@cache
def shipped() -> RelationModel:
    raw = json.loads(resources.files(__package__).joinpath(MODEL_FILE).read_text(encoding="utf-8"))
    members = tuple(MEMBERS[m.pop("kind")](**{k: np.asarray(v) for k, v in m.items()}) for m in raw["members"])
    return RelationModel(raw["embedder"], tuple(raw["classes"]), members)


def for_embedder(name: str) -> RelationModel | None:
    model = shipped()
    return model if model.embedder == name else None
