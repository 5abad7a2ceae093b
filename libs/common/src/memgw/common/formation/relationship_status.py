"""Whether the user says they are single, seeing someone, engaged or married: one attribute, with one value at a time.

The embedder reads "我单身" and "我有男朋友了", or "I'm not seeing anyone" and "I'm dating someone now", as one and
the same fact (they share every word but the one that matters), and "I'm single" beside "I'm the best man!" too, so
the relation model may take a change of status for the same fact said again, and the same status for a change ("我和
老公吵架了" beside "我结婚了"). The status is a closed set of values, told by a closed set of forms: said outright with
the user as its subject ("I'm single", "Tom and I got engaged", "我和小周分了"; "my sister got married" is hers), or
taken for granted in naming a partner ("my girlfriend and I …", "我老公…"), which counts only where nothing says it
outright. A break-up or a divorce leaves one single. A plan, a past or a hypothetical is weighed before this is asked
(``reading.py``)."""

from __future__ import annotations

import re

SINGLE, DATING, ENGAGED, MARRIED = "single", "dating", "engaged", "married"

_WITH_EN = r"(?:i|we|[a-z]+ and i)"  # the user, alone or with someone: "Tom and I got engaged"
_WITH_ZH = r"(?:我们?|[我咱]们?俩|我[和跟与][^，,。\s]{1,4}?)"  # "我和小周", "我跟男朋友"
_WHEN_ZH = r"(?:现在|目前|已经|还是|一直|依然|最近|刚|刚刚|终于|[上这今去前昨][个星]?(?:周|月|年|天|礼拜|星期)|前几天)?"
_PARTNER_EN = r"(?:boyfriend|girlfriend|partner|bf|gf)"
_PARTNER_ZH = r"(?:对象|男朋友|女朋友|男友|女友)"
_I_HAVE = r"\b(?:i|we)(?:\s+now)?(?:\s+have|'ve got|\s+have got|\s+got)\s+an?\s+(?:new\s+)?"
# A clause that opens with the status, its subject dropped as chat drops it: "still single", "happily married",
# "没对象".
_DROPPED = r"(?:^|[,.;!?，。；！？]\s*)(?:(?:still|now|happily|newly|recently|just|and)\s+)?"
# What may follow a status whose subject was dropped: not "married people", "married to my job".
_STATUS_ENDS = r"\b(?=\s*(?:$|[,.;!?]|(?:and|with|now|again|for|since|too|though|lol|haha)\b))"
_DROPPED_ZH = r"(?:^|[,.;!?，。；！？]\s*)(?:还是|还|也|一直|依然)?"

_SAID = {
    SINGLE: re.compile(
        r"\b(?:i'm|i am|i've been|i have been)\s+(?:\w+\s+)?single\b(?!-)"  # not "single-handedly"
        r"|\b(?:i'm|i am)\s+not\s+(?:seeing|dating)\s+any(?:one|body)\b"
        rf"|\bi\s+(?:don't|do not)\s+have\s+an?\s+{_PARTNER_EN}\b"
        rf"|\b{_WITH_EN}\s+(?:\w+\s+)?(?:broke up|split up|separated|got divorced|called it quits|ended things"
        r"|went our separate ways)\b(?!\s+(?:the|a|an|our|my|it|them|this|that)\b)"  # not "we split up the bill"
        r"|\b(?:i'm|i am)\s+(?:now\s+)?(?:divorced|separated)\b|\bdumped me\b"
        r"|\b(?:my|the|our)\s+divorce\s+(?:went through|came through|is final|was finali[sz]ed)\b"
        rf"|{_DROPPED}(?:single|divorced){_STATUS_ENDS}"
        rf"|我{_WHEN_ZH}(?:是)?单身|我{_WHEN_ZH}(?:还)?没有?{_PARTNER_ZH}|{_DROPPED_ZH}(?:单身|没有?{_PARTNER_ZH})"
        rf"|{_WITH_ZH}{_WHEN_ZH}(?:分手|离婚|分开了|分了(?![\u4e00-\u9fff]))|我离异",
        re.IGNORECASE,
    ),
    DATING: re.compile(
        r"\b(?:i'm|i am|i've been|i have been)\s+(?:now\s+)?(?:dating\s+(?!any(?:one|body)\b)\w"
        r"|seeing\s+(?:some(?:one|body)|a\s+(?:guy|girl|man|woman|boy|lad|bloke)\b"
        r"|(?!(?:Dr|Doctor|Mr|Mrs|Ms|Miss)\b)(?-i:[A-Z])\w+))"  # not a physio
        rf"|{_I_HAVE}{_PARTNER_EN}\b"
        r"|\b(?:i'm|i am)\s+(?:now\s+)?in\s+a\s+relationship\b|\bnot\s+single\s+any\s?more\b"
        r"|\bi\s+(?:just\s+)?met\s+some(?:one|body)\b|\bwe(?:'ve|\s+have)\s+been\s+together\b"
        rf"|我{_WHEN_ZH}(?:有|交了?个?|找了?个?){_PARTNER_ZH}|我{_WHEN_ZH}(?:在)?谈恋爱|我{_WHEN_ZH}脱单"
        # together as a couple, for a while or from now: "我和小美在一起一个月了" (not "我们在一起吃饭")
        rf"|{_WITH_ZH}{_WHEN_ZH}在一起(?=[了啦，,。!！]|$|[\d一二两三四五六七八九十半几]+个?多?(?:月|年|周|星期|天))",
        re.IGNORECASE,
    ),
    ENGAGED: re.compile(
        rf"\b(?:i'm|i am|we're|we are|{_WITH_EN}\s+(?:just\s+)?got)\s+(?:now\s+)?engaged\b"
        rf"|{_DROPPED}engaged{_STATUS_ENDS}"
        rf"|{_WITH_ZH}{_WHEN_ZH}订婚",
        re.IGNORECASE,
    ),
    MARRIED: re.compile(
        r"\b(?:i'm|i am|we're|we are)\s+(?:now\s+)?(?:an?\s+)?(?:happily\s+|newly\s+)?married\b"
        r"|\b(?:i|we)(?:'ve|\s+have)\s+been\s+married\b"
        rf"|\b{_WITH_EN}\s+(?:just\s+|finally\s+)?(?:got married|tied the knot|got hitched)\b"
        rf"|{_DROPPED}married{_STATUS_ENDS}"
        rf"|{_WITH_ZH}{_WHEN_ZH}(?:结婚|领证|领了证)|我(?:是)?已婚",
        re.IGNORECASE,
    ),
}
# A partner named as the user's: "my girlfriend and I live in Hove", "Ruth's my wife", "我老公…". Not "my ex-wife", nor
# "my partner", who may be one at work.
_TAKEN_FOR_GRANTED = {
    DATING: re.compile(r"\bmy\s+(?:boyfriend|girlfriend|bf|gf)\b|我[的和跟与]?" + _PARTNER_ZH, re.IGNORECASE),
    ENGAGED: re.compile(r"\bmy\s+fianc[eé]e?\b|我[的和跟与]?未婚[夫妻]", re.IGNORECASE),
    MARRIED: re.compile(
        r"\bmy\s+(?:wife|husband|spouse)\b|我[的和跟与]?(?:老公|老婆|丈夫|妻子|爱人|先生|太太)", re.IGNORECASE
    ),
}
# What a statement of a status alone may say beside it: when, and the words that only set its tone.
_BESIDE_A_STATUS = re.compile(
    r"\b(?:now|still|currently|again|at the moment|right now|btw|by the way|happily|though)\b"
    r"|现在|目前|还|了|哈|啦|呢|啊|的|[\s\W_]",
    re.IGNORECASE,
)


# The words of a bond between two people: a statement with none says nothing of the user's status.
_OF_A_BOND = re.compile(
    r"\b(?:together|relationship|partner|boyfriend|girlfriend|husband|wife|fianc\w*|marri\w*|wedding|engag\w*"
    r"|divorc\w*|dat(?:e|es|ed|ing)|single|seeing|met|ex|split|broke up|dumped|proposed)\b"
    r"|在一起|恋爱|对象|朋友|老公|老婆|丈夫|妻子|爱人|婚|分手|分开|单身|约会|相亲|表白|追",
    re.IGNORECASE,
)


def _found(patterns: dict[str, re.Pattern[str]], statement: str) -> str | None:
    found = {status for status, pattern in patterns.items() if pattern.search(statement)}
    return found.pop() if len(found) == 1 else None


def of(statement: str) -> str | None:
    """The relationship status ``statement`` gives the user, said outright or else taken for granted; None when it
    gives none, or more than one."""
    if any(pattern.search(statement) for pattern in _SAID.values()):
        return said(statement)
    return _found(_TAKEN_FOR_GRANTED, statement)


def said(statement: str) -> str | None:
    """The relationship status ``statement`` says outright ("I'm single", "我和小周分了"), if one."""
    return _found(_SAID, statement)


def changed(old: str, new: str) -> bool:
    """Whether ``new`` gives the user another relationship status than ``old`` does."""
    was, now = of(old), of(new)
    return was is not None and now is not None and was != now


def holds_still(old: str, new: str) -> bool:
    """Whether ``new`` gives the user the relationship status ``old`` does ("我和老公吵架了" beside "我结婚了")."""
    was = of(old)
    return was is not None and of(new) == was


def speaks_of_a_bond(statement: str) -> bool:
    """Whether ``statement`` has a word of a bond between two people ("together", "wedding", "分手", "对象")."""
    return bool(_OF_A_BOND.search(statement))


def said_alone(statement: str) -> bool:
    """Whether ``statement`` says the user's relationship status outright and nothing more ("I'm single", "我单身"; not
    "I'm married with two kids")."""
    if said(statement) is None:
        return False
    rest = statement
    for pattern in _SAID.values():
        rest = pattern.sub("", rest)
    return not _BESIDE_A_STATUS.sub("", rest)
