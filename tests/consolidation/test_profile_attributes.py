"""Which attribute a preference is about, in Chinese and English."""

from __future__ import annotations

import pytest

from memgw.consolidator.profile_attributes import attribute_of, is_working_style

pytestmark = pytest.mark.unit


@pytest.mark.parametrize(
    ("text", "attribute"),
    [
        ("用户偏好中文输出。", "language"),
        ("Please answer in English.", "language"),
        ("回答要简洁，用列表。", "output_style"),
        ("The user likes concise, structured answers.", "output_style"),
        ("语气正式一点。", "tone"),
        ("我每天早上喝乌龙茶。", "food_drink"),
        ("The user drinks green tea.", "food_drink"),
        ("Meetings only on weekday mornings.", "schedule"),
        ("The user likes dark mode.", None),
    ],
)
def test_a_preference_is_filed_under_what_it_is_about(text: str, attribute: str | None) -> None:
    assert attribute_of(text) == attribute


def test_working_style_is_told_apart() -> None:
    assert is_working_style("偏好可落地 POC")
    assert is_working_style("We iterate in small steps, tests first.")
    assert not is_working_style("The user likes dark mode.")
