"""What the user says they are, of an attribute that holds one value at a time and that the vectors cannot tell
apart: their relationship (single, seeing someone, engaged, married), their diet (vegan, vegetarian, pescatarian, or
eating meat) and whether they drink.

The embedder reads "我单身" and "我有男朋友了", "I'm not seeing anyone" and "I'm dating someone now", or "I don't drink"
and "I've started having a beer at weekends" as one and the same fact (they share every word but the one that
matters), and "I'm single" beside "I'm the best man!" too, so the relation model may take a change for the same fact
said again, and the same value for a change ("我和老公吵架了" beside "我结婚了"). Each attribute is a closed set of
values, told by a closed set of forms: said outright with the user as its subject ("I'm single", "Tom and I got
engaged", "我和小周分了", "I've gone vegan", "as a vegan …", "我现在不喝酒了"; "my sister got married" is hers), or
taken for granted in naming a partner ("my girlfriend and I …", "我老公…"), which counts only where nothing says it
outright. A break-up or a
divorce leaves one single. A plan, a past or a hypothetical is weighed before this is asked (``reading.py``)."""

from __future__ import annotations

import re
from dataclasses import dataclass

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
_DROPPED_ZH = r"(?:^|[,.;!?，。；！？]\s*)(?:还是|还|也|一直|依然|现在|目前|如今)?"

_RELATIONSHIP_SAID = {
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
_RELATIONSHIP_TAKEN = {
    DATING: re.compile(r"\bmy\s+(?:boyfriend|girlfriend|bf|gf)\b|我[的和跟与]?" + _PARTNER_ZH, re.IGNORECASE),
    ENGAGED: re.compile(r"\bmy\s+fianc[eé]e?\b|我[的和跟与]?未婚[夫妻]", re.IGNORECASE),
    MARRIED: re.compile(
        r"\bmy\s+(?:wife|husband|spouse)\b|我[的和跟与]?(?:老公|老婆|丈夫|妻子|爱人|先生|太太)", re.IGNORECASE
    ),
}

VEGAN, VEGETARIAN, PESCATARIAN, EATS_MEAT = "vegan", "vegetarian", "pescatarian", "eats meat"
_I_AM_EN = (
    r"\b(?:i'm|i am|i've been|i have been|i've gone|i have gone|i went|gone|going|turned|went)\s+"
    r"(?:back\s+to\s+|\w+\s+)?"  # "I've gone back to vegetarian"
)
_AS_A = r"\bas\s+an?\s+"  # the role one speaks in: "as a vegan I need more protein"
_I_EAT = r"\bi(?:'m|\s+am|'ve|\s+have)?\s+(?:now\s+)?(?:eat|eating|started eating|been eating)"
_MEAT_EN = r"(?:meat|chicken|beef|pork|lamb|steak|bacon|burgers?|turkey)"
_MEAT_ZH = r"(?:肉|鸡|牛肉|猪肉|羊肉|荤)"
_DIET_SAID = {
    VEGAN: re.compile(
        rf"{_I_AM_EN}(?:vegan|plant[- ]based)\b|{_DROPPED}(?:vegan|plant[- ]based){_STATUS_ENDS}|{_AS_A}vegan\b"
        r"|\b(?:i\s+(?:don't|do not|never|no longer)\s+eat\s+(?:any\s+)?|no\s+)animal\s+products\b"
        rf"|我{_WHEN_ZH}(?:是|吃)?(?:纯素|全素)|不吃任何动物(?:制品|产品)",
        re.IGNORECASE,
    ),
    VEGETARIAN: re.compile(
        rf"{_I_AM_EN}(?:vegetarian|veggie)\b|{_DROPPED}(?:vegetarian|veggie){_STATUS_ENDS}|{_AS_A}(?:vegetarian|veggie)\b"
        # no meat and no fish: no meat alone may be a pescatarian's
        r"|\bi\s+(?:don't|do not|never|no longer)\s+eat\s+(?:any\s+)?meat\s+(?:or|and|nor)\s+fish\b"
        r"|\b(?:without|no)\s+meat\b|\bmeat-free\b"
        rf"|我{_WHEN_ZH}(?:吃素|是素食(?:者|主义者)?)|{_DROPPED_ZH}吃素|作为(?:一个|一名)?素食(?:者|主义者)"
        r"|不吃肉也不吃鱼|肉和鱼都不吃|不吃肉和鱼",
        re.IGNORECASE,
    ),
    PESCATARIAN: re.compile(
        rf"{_I_AM_EN}pesc[ae]tarian\b|{_DROPPED}pesc[ae]tarian{_STATUS_ENDS}"
        r"|\b(?:i\s+)?(?:only|just)\s+eat\s+fish\b|\beat\s+fish\s+but\s+(?:not|no)\s+meat\b"
        r"|只吃鱼|吃鱼不吃肉",
        re.IGNORECASE,
    ),
    EATS_MEAT: re.compile(
        rf"{_I_EAT}\s+(?:\w+\s+)?{_MEAT_EN}\b(?!\s+(?:tonight|today|for (?:dinner|lunch)))"
        r"|\bi\s+eat\s+(?:anything|everything)\b|\bno\s+(?:dietary\s+)?restrictions\b"
        rf"|我{_WHEN_ZH}(?:开始|又|也|重新)*吃{_MEAT_ZH}了|我{_WHEN_ZH}(?:开始|又|重新)+吃{_MEAT_ZH}|我(?:什么都吃|不忌口)|开荤",
        re.IGNORECASE,
    ),
}
_DIET_WORDS = re.compile(
    r"\b(?:eat\w*|ate|meat|fish|chicken|beef|pork|lamb|bacon|steak|vegan|vegetarian|veggie|plant|animal|diet|dairy"
    r"|eggs?|pesc[ae]tarian|salmon|tuna|seafood)\b|吃|素|肉|鱼|荤|蛋|奶|海鲜",
    re.IGNORECASE,
)

TEETOTAL, DRINKS = "teetotal", "drinks"
_ALCOHOL_EN = r"(?:beer|pint|lager|wine|prosecco|champagne|cocktail|whisky|whiskey|gin|vodka|cider|drink)s?"
_DRINKING_SAID = {
    TEETOTAL: re.compile(
        r"\bi\s+(?:don't|do not|never|no longer)\s+drink\b(?=\s*(?:$|[,.;!?]|alcohol|at all|any ?more|now|these days"
        r"|because|since|so))|\btee-?total\b|\b(?:i'm|i am)\s+(?:\w+\s+){0,2}sober\b"
        r"|\b(?:i|i've)\s+(?:quit|stopped|gave up)\s+(?:drinking|alcohol|booze)\b"
        # alcohol not touched, as "酒我从来不碰": "I never touch alcohol", "no booze for me"
        r"|\bi\s+(?:don't|do not|never)\s+touch\s+(?:alcohol|booze)\b|\bno\s+(?:alcohol|booze)\s+for\s+me\b"
        rf"|我{_WHEN_ZH}(?:不|没)喝酒|{_DROPPED_ZH}(?:不|没)喝酒|滴酒不沾|一滴酒都不(?:喝|沾)|酒我?是?(?:从来)?不(?:碰|沾)"
        rf"|我?{_WHEN_ZH}戒酒",
        re.IGNORECASE,
    ),
    DRINKS: re.compile(
        r"\bi(?:'ve|\s+have)?\s+(?:now\s+)?(?:started\s+)?(?:having|have|drinking|drink)\s+"
        rf"(?:a|an|the odd|the occasional|some|the|a few)\s+(?:glass\s+of\s+)?{_ALCOHOL_EN}\b(?!\s+(?:tonight|today))"
        rf"|(?:^|[,.;!?]\s*)(?:the odd|the occasional)\s+(?:glass\s+of\s+)?{_ALCOHOL_EN}\b"
        rf"|我{_WHEN_ZH}(?:开始|又)?(?:偶尔)?喝(?:点|些|一点)?酒了|我{_WHEN_ZH}(?:开始|又)喝(?:点|些|一点)?酒|偶尔喝(?:点|一点)?酒",
        re.IGNORECASE,
    ),
}
_DRINKING_WORDS = re.compile(
    rf"\b(?:drink\w*|drank|alcohol|booze|sober|tee-?total|{_ALCOHOL_EN})\b|酒|喝",
    re.IGNORECASE,
)

# What a statement of a status alone may say beside it: who, when, and the words that only set its tone.
_BESIDE_A_STATUS = re.compile(
    r"\b(?:i'm|i am|i|now|still|currently|again|at the moment|right now|btw|by the way|happily|though)\b"
    r"|我是?|现在|目前|还|了|哈|啦|呢|啊|的|[\s\W_]",
    re.IGNORECASE,
)
# The words of a bond between two people: a statement with none says nothing of the user's relationship.
_BOND_WORDS = re.compile(
    r"\b(?:together|relationship|partner|boyfriend|girlfriend|husband|wife|fianc\w*|marri\w*|wedding|engag\w*"
    r"|divorc\w*|dat(?:e|es|ed|ing)|single|seeing|met|ex|split|broke up|dumped|proposed)\b"
    r"|在一起|恋爱|对象|朋友|老公|老婆|丈夫|妻子|爱人|婚|分手|分开|单身|约会|相亲|表白|追",
    re.IGNORECASE,
)


def _values(patterns: dict[str, re.Pattern[str]], statement: str) -> set[str]:
    return {value for value, pattern in patterns.items() if pattern.search(statement)}


def _one(values: set[str]) -> str | None:
    return next(iter(values)) if len(values) == 1 else None


@dataclass(frozen=True)
class Attribute:
    """One attribute of the user's: its values as said outright, as taken for granted, and the words of its kind."""

    said_as: dict[str, re.Pattern[str]]
    taken_as: dict[str, re.Pattern[str]]
    words: re.Pattern[str]

    def of(self, statement: str) -> str | None:
        """The value ``statement`` gives the user, said outright or else taken for granted; None when it gives none,
        or more than one."""
        said = _values(self.said_as, statement)
        return _one(said if said else _values(self.taken_as, statement))

    def said(self, statement: str) -> str | None:
        """The value ``statement`` says outright ("I'm single", "我和小周分了"), if one."""
        return _one(_values(self.said_as, statement))

    def said_alone(self, statement: str) -> bool:
        """Whether ``statement`` says a value outright and nothing more ("I'm single", "我吃素"; not "I'm married with
        two kids")."""
        if self.said(statement) is None:
            return False
        rest = statement
        for pattern in self.said_as.values():
            rest = pattern.sub("", rest)
        return not _BESIDE_A_STATUS.sub("", rest)

    def speaks_of(self, statement: str) -> bool:
        """Whether ``statement`` has a word of this attribute's kind ("together", "分手"; "meat", "吃"; "酒")."""
        return bool(self.words.search(statement))


RELATIONSHIP = Attribute(_RELATIONSHIP_SAID, _RELATIONSHIP_TAKEN, _BOND_WORDS)
DIET = Attribute(_DIET_SAID, {}, _DIET_WORDS)
DRINKING = Attribute(_DRINKING_SAID, {}, _DRINKING_WORDS)
ATTRIBUTES = (RELATIONSHIP, DIET, DRINKING)


def said_outright(statement: str) -> bool:
    """Whether ``statement`` says a value of one of the user's attributes outright."""
    return any(attribute.said(statement) is not None for attribute in ATTRIBUTES)


def the_same_said(old: str, new: str) -> bool:
    """Whether ``new`` says outright the value ``old`` says outright of one attribute ("I'm teetotal" beside "I don't
    drink"): one said with a denial, the other without, the words still settle it."""
    return any((was := attribute.said(old)) is not None and was == attribute.said(new) for attribute in ATTRIBUTES)


def changed(old: str, new: str) -> bool:
    """Whether ``new`` gives the user another value of an attribute than ``old`` does."""
    return any(
        (was := attribute.of(old)) is not None and (now := attribute.of(new)) is not None and was != now
        for attribute in ATTRIBUTES
    )
