"""The structure of a statement that its meaning alone does not settle: who it is about, whether it
asks, whether it tells of a past that no longer holds. Chinese and English. These decide nothing by
themselves: they keep a decision of the models from reaching where it must not (a relative's move is
never the user's change of residence)."""

from __future__ import annotations

import re

# The subject is the user, not something of theirs ("my brother …", "我的…") nor a condition ("If I …").
_ABOUT_USER = re.compile(
    r"^\s*(?:(?:i|i'm|i've|i'd|i'll|we)\b(?!')|(?:the )?user\b(?!'s)|我(?!的)|我们|用户(?!的))", re.IGNORECASE
)
# The subject is another person or thing: a relative, a friend, a colleague, an organisation, "his …".
_SOMEONE_ELSE = re.compile(
    r"^\s*(?:(?:my|our)\s+(?:\w+\s+){0,2}?(?:mom|mum|dad|father|mother|parents?|brother|sister|sibling|son|daughter"
    r"|wife|husband|partner|boyfriend|girlfriend|friend|boss|manager|colleague|co-?worker|teammate|neighbou?r"
    r"|room-?mate|flatmate|uncle|aunt|cousin|nephew|niece|grand\w+|kids?|child(?:ren)?|family|team|company|office"
    r"|landlord|in-laws?|\w+-in-law)s?\b|(?:his|her|their|its)\b|the\s+(?!user\b)\w+|(?:he|she|they)\b)"
    r"|^\s*(?:我的?|我们的?|用户的)?(?:爸|妈|父|母|哥|姐|弟|妹|儿子|女儿|孩子|老婆|老公|太太|先生|丈夫|妻子|男朋友|女朋友"
    r"|朋友|同事|老板|领导|邻居|室友|舅|姨|叔|姑|表|堂|侄|外甥|爷|奶|外公|外婆|家人|公司|单位|办公室|房东|岳|公公|婆婆)"
    r"|^\s*(?:他|她|他们|她们|它)",
    re.IGNORECASE,
)
_QUESTION = re.compile(r"[?？]\s*$")
# A past that no longer holds: a habit given up, a childhood, "back then".
_PAST = re.compile(
    r"\bused to\b|\bas a (?:kid|child|teenager|student)\b|\bback then\b|\bwhen i was (?:young|little|a kid)\b"
    r"|以前|小时候|曾经|过去|那时候|年轻时",
    re.IGNORECASE,
)


def about_user(sentence: str) -> bool:
    return bool(_ABOUT_USER.match(sentence))


def about_someone_else(sentence: str) -> bool:
    """Whether the statement's subject is another person or thing ("My sister moved …", "公司的电话换了")."""
    return bool(_SOMEONE_ELSE.match(sentence))


def is_question(sentence: str) -> bool:
    return bool(_QUESTION.search(sentence))


def in_the_past(sentence: str) -> bool:
    return bool(_PAST.search(sentence))
