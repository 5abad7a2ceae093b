"""What the user says in answer to the assistant's question about them. Agents ask ("Where are you based?",
"你平时住在哪个城市？") and the user answers in a word ("Leeds", "成都", "yes, shellfish"): the word alone says
nothing, the question and the word together say where the user lives. So a short answer to such a question is
read as one statement, the question turned to the user's own voice and the answer after it ("Where am I based?
Leeds"), as the user would note it.

Whether such a statement lasts is the question's as much as the answer's ("What do you do for work? nurse" against
"How are you feeling? tired", "What time works for you today? 3pm"), and the durable model has never seen the
form. It is judged by a model of the same kind (``durable.DurableModel``) trained only on such statements
(``answers.jsonl``: the assistant's question, the user's answer, whether what they say together lasts), in the
durable model's place, as ``ongoing`` judges what the user says they are doing.

A bare "no" is left as it is: "Are you vegetarian? no" says what the user is not, which no one looks up, and the
same "no" declines an offer ("Shall I book it? no").
"""

from __future__ import annotations

import re
from typing import Any

from memgw.common.formation import durable
from memgw.common.formation.structure import is_question
from memgw.common.text import is_cjk, sentences

MODEL_FILE = "answers.json"
STATEMENTS_FILE = "answers.jsonl"

# A few words, and no statement of the user's own, in any clause: "I live in Leeds", "我在上海" or "帮我写个请假条，
# 我在物流公司做调度" answers as well, but it stands alone; "my CV" or "四口，我爸妈、我老婆和我" names what the
# question asks, with no subject of its own. An address's "me" ("jo@proton.me") is not the user.
_MOST_WORDS, _MOST_CHARACTERS, _MOST_CJK = 6, 40, 12  # Chinese writes no spaces: its words are counted apart
_OWN_STATEMENT = re.compile(
    r"(?<![\w.@-])(?:i|i'm|i've|i'd|i'll|we|we're|we've)(?![\w.@-])|(?:^|[，,、；;])\W*我(?!的|[爸妈家老儿女哥姐弟妹])",
    re.IGNORECASE,
)
_DECLINED = re.compile(
    r"^\W*(?:no+|nope|nah|not really|none|no thanks?|no,? thank you|不(?:是|用|要|了|需要)?|没有?|没有的?|算了)\W*$",
    re.IGNORECASE,
)

# The question in the user's voice: the two persons swapped in one pass ("are you" to "am I", "your" to "my", the
# assistant's "me" to "you", "你" to "我"). "you" is the subject after an auxiliary or a question word, the object
# elsewhere ("for you").
_SWAPS = {
    "are you": "am I",
    "were you": "was I",
    "you are": "I am",
    "you were": "I was",
    "you're": "I'm",
    "you've": "I've",
    "you'll": "I'll",
    "you'd": "I'd",
    "yourself": "myself",
    "yours": "mine",
    "your": "my",
    "i'm": "you're",
    "i've": "you've",
    "i'll": "you'll",
    "i'd": "you'd",
    "myself": "yourself",
    "mine": "yours",
    "my": "your",
    "me": "you",
    "i": "you",
}
_PERSON = re.compile(
    r"\b(?:" + "|".join(sorted(map(re.escape, _SWAPS), key=len, reverse=True)) + r"|you)\b", re.IGNORECASE
)
_BEFORE_A_SUBJECT = re.compile(
    r"(?:^|\b(?:do|does|did|can|could|would|will|should|shall|have|has|had|may|might|must|when|where|what|how|why"
    r"|which|who|if|that)\s+)$",
    re.IGNORECASE,
)


_SWAPS_ZH = {"你们": "我们", "您们": "我们", "我们": "你们", "你": "我", "您": "我", "我": "你"}
_PERSON_ZH = re.compile("|".join(sorted(_SWAPS_ZH, key=len, reverse=True)))


def _swapped(found: re.Match[str]) -> str:
    said = found.group(0).lower()
    if said != "you":
        return _SWAPS[said]
    return "I" if _BEFORE_A_SUBJECT.search(found.string[: found.start()]) else "me"


def in_the_users_voice(question: str) -> str:
    """``question`` as the user would ask it of themselves ("Where am I based?" of "Where are you based?")."""
    turned = _PERSON_ZH.sub(lambda found: _SWAPS_ZH[found.group(0)], _PERSON.sub(_swapped, question))
    return turned[:1].upper() + turned[1:]


def with_its_question(asked: str, answer: str) -> str:
    """``answer``, the first sentence of the user's turn, with the question the assistant's turn ``asked`` ended
    with, when it is a short answer to it; else ``answer`` as it is. Whether the question was about the user, and
    about what lasts, is the answers model's to judge ("Mac or Windows?" asks the user without a "you")."""
    said = sentences(asked)
    question = said[-1] if said else ""
    short = (
        len(answer) <= _MOST_CHARACTERS and len(answer.split()) <= _MOST_WORDS and sum(map(is_cjk, answer)) <= _MOST_CJK
    )
    if not (is_question(question) and short) or is_question(answer):
        return answer
    if _OWN_STATEMENT.search(answer) or _DECLINED.match(answer):
        return answer
    return f"{in_the_users_voice(question)}{'' if question.endswith('？') else ' '}{answer}"


_AN_ANSWER = re.compile(r"[?？]\s*\S")


def answered(statement: str) -> bool:
    """Whether the statement is a question of the assistant's with the user's answer (``with_its_question``): a
    sentence of the user's own never holds a question mark before its end, where sentences are cut."""
    return bool(_AN_ANSWER.search(statement))


def the_answer(statement: str) -> str:
    """What the user said of a statement read with its question ("Leeds" of "Where am I based? Leeds")."""
    return re.split(r"[?？]", statement)[-1].strip()


def statements() -> list[dict[str, Any]]:
    """The labelled set the answers model is trained on, each as formation reads it ({text, lang, keep}: keep
    means what the question and answer say together lasts)."""
    return [
        {"text": with_its_question(r["asked"], r["answer"]), "lang": r["lang"], "keep": r["keep"]}
        for r in durable.labelled(STATEMENTS_FILE)
    ]


def for_embedder(name: str) -> durable.DurableModel | None:
    return durable.for_embedder(name, MODEL_FILE)
