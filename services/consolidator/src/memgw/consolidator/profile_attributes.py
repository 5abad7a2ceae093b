"""What a preference is about, so a profile reads as a person would write it (seed 004 §B
ProfileRecord): ``{"language": "…", "output_style": "…"}`` rather than a list keyed by memory ids,
and how someone likes to work in ``working_style``.

Rules by words, Chinese and English; a preference about nothing listed here keeps a key of its own
(``preference_<n>``). The newest preference of an attribute is the one the profile states."""

from __future__ import annotations

import re

_ATTRIBUTES: list[tuple[str, re.Pattern[str]]] = [
    (
        "language",
        re.compile(
            r"(中文|汉语|普通话|英文|英语|日语|日文|法语|德语|西班牙语|\b(?:chinese|mandarin|english|japanese|french|"
            r"german|spanish)\b)",
            re.IGNORECASE,
        ),
    ),
    (
        "output_style",
        re.compile(
            r"(结构化|简洁|简短|精炼|详细|列表|要点|表格|少废话|\b(?:structured|concise|short|brief|detailed|"
            r"bullet(?: point)?s?|tables?|markdown|verbose|terse)\b)",
            re.IGNORECASE,
        ),
    ),
    ("tone", re.compile(r"(正式|随意|轻松|友好|直接|礼貌|\b(?:formal|casual|friendly|direct|polite|tone)\b)", re.I)),
    ("food_drink", re.compile(r"(茶|咖啡|素食|吃|喝|\b(?:tea|coffee|vegetarian|vegan|drinks?|eats?|food)\b)", re.I)),
    (
        "schedule",
        re.compile(
            r"(早上|上午|下午|晚上|周末|工作日|\b(?:mornings?|afternoons?|evenings?|weekends?|weekdays?)\b)", re.I
        ),
    ),
]
_WORKING_STYLE = re.compile(
    r"(POC|落地|迭代|小步|先写测试|测试驱动|务实|评审|复盘|\b(?:iterat\w*|prototyp\w*|test[- ]first|tdd|pragmatic|"
    r"small steps|code reviews?|ship\w*|mvp)\b)",
    re.IGNORECASE,
)


def attribute_of(text: str) -> str | None:
    """The first attribute ``text`` states a preference about, or None."""
    for name, pattern in _ATTRIBUTES:
        if pattern.search(text):
            return name
    return None


def is_working_style(text: str) -> bool:
    """Whether ``text`` says how its person likes to work (POCs, small steps, tests first, …)."""
    return bool(_WORKING_STYLE.search(text))
