"""Does a new statement contradict an old one on the same subject? Two signs, Chinese and English:

- a changed value of the same attribute ("住在北京" / "搬到上海了", "lives in Paris" / "moved to Rome");
- the same topic with the opposite polarity ("prefers tea" / "no longer drinks tea").

Which memories are compared is decided by subject, not by a similarity cut: the user's memories that
state the same attribute (``attribute_triggers``: found by their trigger words), and those the index
ranks nearest by words (BM25) and by meaning (dense). "lives in Paris" / "moved to Rome" embed at a
cosine that straddles any fixed threshold across CPUs; their shared attribute does not.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator

_NEGATION = re.compile(
    r"(不再|不喜欢|不想|不要|不用|不是|没有|从不|别|戒了|\bno longer\b|\bnot\b|\bnever\b|n't\b|\bstopped\b|\bquit\b|"
    r"\bgave up\b|\bno more\b)",
    re.IGNORECASE,
)
# Each attribute: its name, the pattern that finds its value, and literal trigger words by which
# memories stating it are looked up in the database (lower case; the pattern's own alternatives).
_ATTRIBUTES: list[tuple[str, re.Pattern[str]]] = [
    (
        "residence",
        re.compile(
            r"(?:住在|搬到了?|搬去|定居在?|\blives? in\b|\bmoved to\b|\brelocated to\b)\s*([A-Za-z\u4e00-\u9fff]+)",
            re.IGNORECASE,
        ),
    ),
    (
        "workplace",
        re.compile(
            r"(?:在|入职|加入了?|\bworks? (?:at|for)\b|\bjoined\b)\s*([A-Za-z\u4e00-\u9fff]+?)(?:工作|上班|\b)",
            re.IGNORECASE,
        ),
    ),
    (
        "name",
        re.compile(r"(?:我叫|名字是|名叫|\bmy name is\b|\bis called\b)\s*([A-Za-z\u4e00-\u9fff]+)", re.IGNORECASE),
    ),
]
ATTRIBUTE_TRIGGERS: dict[str, tuple[str, ...]] = {
    "residence": ("住在", "搬到", "搬去", "定居", "live in", "lives in", "moved to", "relocated to"),
    "workplace": ("入职", "加入", "work at", "works at", "work for", "works for", "joined"),
    "name": ("我叫", "名字是", "名叫", "my name is", "is called"),
}


# Where someone lives and where they work: two attributes the embedder puts side by side ("I live in
# Leeds" and "I work in Leeds" read alike to it), so a statement's kind is told by its verb (and an adverb of how:
# "I work remotely for …").
_KINDS = {
    "residence": re.compile(
        r"\b(?:live[sd]?|living|moved|relocated|settled)\s+(?:in|to)\b|\b(?:my |our )?home(?: for (?:me|us))? is\b"
        r"|\brent(?:s|ing)? (?:a|my|our|in)\b"
        r"|住在|搬到|搬去|搬过去|搬进|定居|家在|租房",
        re.IGNORECASE,
    ),
    "workplace": re.compile(
        r"\b(?:work(?:s|ed|ing)?|employed)\s+(?:(?:\w+ly|full[- ]time|part[- ]time)\s+)?(?:at|for|in|as|by)\b"
        r"|\bjob (?:at|in)\b|\bjoined\b"
        r"|[在去到]\S{1,12}?(?:工作|上班)|入职|就职",
        re.IGNORECASE,
    ),
}


def kinds(text: str) -> set[str]:
    """Which of residence and workplace ``text`` states (by its verb), if any."""
    return {kind for kind, pattern in _KINDS.items() if pattern.search(text)}


# The kind of a contact the words before it name ("my work email", "personal number", "工作邮箱", "家里电话"): one
# of each kind may stand beside the others.
_CONTACT_KIND = re.compile(
    r"\b(work|personal|home|office|business|private|school|uni|university|backup|spare)\s+"
    r"(?:e-?mail|address|number|phone|mobile|line)\b|(工作|私人|家里|家庭|办公室|公司|单位|备用|学校)的?(?:邮箱|电话|手机|号码|微信)",
    re.IGNORECASE,
)


def _contact_kinds(text: str) -> set[str]:
    return {(m.group(1) or m.group(2)).lower() for m in _CONTACT_KIND.finditer(text)}


def other_kinds(old: str, new: str) -> bool:
    """Whether the two state different ones of residence and workplace, or ``new`` a contact of a kind ``old``
    does not name ("My work email is …" beside "My email is …"): never the same fact."""
    said, stated = kinds(old), kinds(new)
    return bool(said and stated and said.isdisjoint(stated)) or bool(_contact_kinds(new) - _contact_kinds(old))


def attribute_triggers(text: str) -> tuple[str, ...]:
    """The trigger words of every attribute ``text`` states a value for."""
    found: list[str] = []
    for attribute, pattern in _ATTRIBUTES:
        if _value(pattern, text):
            found += ATTRIBUTE_TRIGGERS[attribute]
    return tuple(found)


# Words that carry the predicate, not the topic: sharing them says nothing about the subject.
_PREDICATES = {
    "user",
    "users",
    "the",
    "and",
    "for",
    "with",
    "prefer",
    "prefers",
    "preferred",
    "like",
    "likes",
    "love",
    "loves",
    "drink",
    "drinks",
    "drinking",
    "use",
    "uses",
    "want",
    "wants",
    "longer",
    "does",
    "not",
    "never",
    "anymore",
    "every",
    "day",
    "morning",
    "now",
    "still",
    "stopped",
    "quit",
    "more",
    "any",
}
_CJK_NOISE = set("用户我他她的了在是不再没有喜欢偏好想要")
_WORD = re.compile(r"[A-Za-z]{3,}|[\u4e00-\u9fff]+")


def _topic(text: str) -> set[str]:
    tokens: set[str] = set()
    for word in _WORD.findall(text.lower()):
        if word.isascii():
            if word not in _PREDICATES:
                tokens.add(word.rstrip("s") if len(word) > 4 else word)
        else:
            chars = [c for c in word if c not in _CJK_NOISE]
            tokens |= {a + b for a, b in itertools.pairwise(chars)}
            tokens |= set(chars) if len(chars) == 1 else set()
    return tokens


def _value(pattern: re.Pattern[str], text: str) -> str | None:
    found = pattern.search(text)
    return found.group(1).lower().rstrip("了的啦呢") if found else None


# Latin letters and digits only: ``\w`` would run on into the Chinese around a name ("QQ的昵称").
_VALUE = re.compile(
    r"[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+\.[A-Za-z0-9.-]+"  # an email
    r"|\b[A-Za-z][A-Za-z0-9_.-]*?(?:_|\d)[A-Za-z0-9_.-]*"  # a handle or an identifier: lily_2020, ab12
    r"|\d[\d\s-]*\d|\d"  # a number, a phone number
    r"|(?<=[\s\u4e00-\u9fff])[A-Z][A-Za-z0-9_-]+"  # a name in the middle of a sentence, or Latin inside Chinese
    r"|(?<=[\u4e00-\u9fff])[A-Za-z][A-Za-z0-9_-]*"
)


def named_values(text: str) -> set[str]:
    """The values ``text`` names: numbers, emails, handles, names."""
    return set(_VALUE.findall(text))


def new_values(old: str, new: str) -> set[str]:
    """The values ``new`` names that ``old`` does not (numbers, emails, names): what a paraphrase of the
    same fact never brings, and a changed fact usually does. A number ``old`` spells out is one it names
    ("I'm usually asleep by 11" beside "I go to bed around eleven")."""
    said = {_plain(v) for v in named_values(old)} | _spelled(old)
    return {v for v in named_values(new) if not _among(_plain(v), said)}


def kept_values(old: str, new: str) -> set[str]:
    """The values of ``old`` that ``new`` names again ("VS Code" in "switched from VS Code to Zed"), wherever
    ("Liverpool till I die" beside "I'm a big Liverpool fan": a name opening a sentence is no value of its
    own, but it is one ``old`` named)."""
    said = {_plain(v) for v in named_values(new)} | _spelled(new)
    return {
        v
        for v in named_values(old)
        if _among(_plain(v), said) or (len(v) > 2 and re.search(rf"(?<!\w){re.escape(v)}(?!\w)", new))
    }


_NUMBER_WORDS = (
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen"
    " seventeen eighteen nineteen twenty"
).split()
_NUMBER_EN = re.compile(rf"\b(?:{'|'.join(_NUMBER_WORDS)})\b", re.IGNORECASE)
# Chinese numerals count as a number before a unit only: "十一点", "两个", "二十岁"; not "一起", "三亚".
_NUMBER_ZH = re.compile(
    r"(?:([一二两三四五六七八九])?(十)([一二三四五六七八九])?|([一二两三四五六七八九]))"
    r"(?=点|个|岁|号|月|年|天|次|公里|小时|分钟|口|只)"
)
_DIGIT_ZH = {c: i for i, c in enumerate("零一二三四五六七八九")} | {"两": 2}


def _spelled(text: str) -> set[str]:
    """The numbers ``text`` spells out, as digits ("eleven" → "11", "十一点" → "11", "二十岁" → "20")."""
    numbers = {_NUMBER_WORDS.index(w.lower()) for w in _NUMBER_EN.findall(text)}
    for tens, _ten, ones, alone in _NUMBER_ZH.findall(text):
        numbers.add(_DIGIT_ZH[alone] if alone else _DIGIT_ZH.get(tens, 1) * 10 + _DIGIT_ZH.get(ones, 0))
    return {str(n) for n in numbers}


def _among(value: str, said: set[str]) -> bool:
    """Whether ``value`` was said, or is inside one said ("Saturday" in "Saturdays"): another form of it."""
    return value in said or any(value in s or s in value for s in said if len(s) > 2)


def _plain(value: str) -> str:
    return value.replace(" ", "").replace("-", "").lower()


def _both_values(old: str, new: str) -> Iterator[tuple[str, str, str]]:
    """(attribute, old's value, new's value) of each of residence, workplace and name both give a value."""
    for attribute, pattern in _ATTRIBUTES:
        before, after = _value(pattern, old), _value(pattern, new)
        if before and after:
            yield attribute, before, after


def another_value(old: str, new: str) -> str | None:
    """Which of residence, workplace and name ``new`` gives another value than ``old`` does ("搬到大理" beside
    "住在昆明"; not "搬到北京朝阳" beside "住在北京", a value within the older one), as "attribute: old → new"."""
    for attribute, before, after in _both_values(old, new):
        if before != after and not (before in after or after in before):
            return f"{attribute} changed: {before} → {after}"
    return None


def the_same_value(old: str, new: str) -> bool:
    """Whether ``new`` gives one of residence, workplace and name the very value ``old`` does ("I live in Oslo" beside
    "I moved to Oslo in 2019", "我住在成都" beside "我2018年搬到了成都")."""
    return any(before == after for _, before, after in _both_values(old, new))


def contradiction(old: str, new: str) -> str | None:
    """Why ``new`` contradicts ``old`` (None when it does not)."""
    if changed := another_value(old, new):
        return changed
    if bool(_NEGATION.search(old)) != bool(_NEGATION.search(new)):
        shared = _topic(old) & _topic(new)
        if shared:
            return f"opposite statements about {', '.join(sorted(shared)[:3])}"
    return None
