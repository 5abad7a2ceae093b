"""Who said what: a conversation's turns by speaker, so only what the user says about themselves can
become a fact about the user, and the assistant's lines never do.

Speakers come from the turn's role (mem0's and EverMemOS' message lists, the plugins' turns) or, in
an episode's text, from the prefixes agents write ("User: …", "Assistant: …", "用户：…", "助手：…"),
one per line; a line without one belongs to the speaker before it. An episode without any prefix is
its role's (the user's, when none is given).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from memgw.common.formation.answers import with_its_question
from memgw.common.formation.structure import (
    stated_before_ask,
    with_dropped_subject,
    without_closer,
    without_material,
    without_opener,
)
from memgw.common.text import sentences

USER, ASSISTANT, OTHER = "user", "assistant", "other"

_ROLES = {
    "user": USER,
    "human": USER,
    "用户": USER,
    "我": USER,
    "assistant": ASSISTANT,
    "ai": ASSISTANT,
    "bot": ASSISTANT,
    "agent": ASSISTANT,
    "model": ASSISTANT,
    "system": OTHER,
    "tool": OTHER,
    "function": OTHER,
    "助手": ASSISTANT,
    "助理": ASSISTANT,
    "机器人": ASSISTANT,
    "系统": OTHER,
}
_NAMES = "|".join(sorted(map(re.escape, _ROLES), key=len, reverse=True))
_PREFIX = re.compile(r"^\s*(?:\*\*)?(" + _NAMES + r")(?:\*\*)?\s*[:：]\s*", re.IGNORECASE)
# A turn that starts mid-line ("… that. Assistant: Sure"): after a space or a sentence's end only, so
# "他问我：" inside a sentence stays the sentence's.
_INLINE = re.compile(r"(?<=[\s.!?。！？])(?=(?:\*\*)?(?:" + _NAMES + r")(?:\*\*)?\s*[:：])", re.IGNORECASE)


@dataclass(frozen=True)
class Turn:
    speaker: str  # USER, ASSISTANT or OTHER
    text: str


def speaker_of(role: str | None) -> str:
    return _ROLES.get((role or "user").strip().lower(), OTHER)


def turns(text: str, role: str | None = None) -> list[Turn]:
    """The turns of one episode, each with its speaker."""
    current = speaker_of(role)
    out: list[Turn] = []
    for line in _INLINE.sub("\n", text).splitlines():
        if match := _PREFIX.match(line):
            current = _ROLES[match.group(1).lower()]
            line = line[match.end() :]
        if line.strip():
            if out and out[-1].speaker == current:
                out[-1] = Turn(current, f"{out[-1].text}\n{line.strip()}")
            else:
                out.append(Turn(current, line.strip()))
    return out


def user_statements(episodes: list[tuple[str | None, str]]) -> list[str]:
    """Each sentence the user said, in order, from (role, text) episodes; of a question that first
    states something ("I live in Leeds, any good walks nearby?"), the statement without its ask; and
    without what opens or closes it but says nothing ("btw", "对了，", ", just so you know"), nor the text an ask
    to translate or rewrite gives ("帮我翻译一下这句话：I love you"). A short answer to the assistant's question
    about the user is read with its question ("Where am I based? Leeds", ``answers``). Typographic
    apostrophes are typed ones: phones and word processors write "I don’t", and neither the structure's rules
    nor the embedder read it as "I don't" (the relation model took "I don’t eat meat these days" beside "I eat
    meat" for the same fact). So are those chat leaves out ("im vegan", "i dont drink": ``spelled_out``), and the "I" it
    drops before a change ("moved to Lewisham last weekend": ``structure.with_dropped_subject``)."""
    said: list[str] = []
    before: Turn | None = None
    for role, text in episodes:
        for turn in turns(spelled_out(text), role):
            if turn.speaker == USER:
                own = [
                    without_material(without_closer(without_opener(stated_before_ask(s) or s)))
                    for s in sentences(turn.text)
                ]
                own = [with_dropped_subject(s, own[i - 1] if i else None) for i, s in enumerate(own)]
                if own and before is not None and before.speaker == ASSISTANT:
                    own[0] = with_its_question(before.text, own[0])
                said += own
            before = turn
    return said


_APOSTROPHES = str.maketrans({"\u2019": "'", "\u2018": "'", "\u02bc": "'"})
# English contractions chat types without the apostrophe, where the bare word is no other word: not "ill", "id",
# "its", "were", "wont", "lets", "well", "hell", "shell".
_BARE = {
    "im": "I'm",
    "ive": "I've",
    **{
        f"{verb}nt": f"{verb}n't"
        for verb in ("do", "does", "did", "is", "are", "was", "were", "has", "have", "had", "would", "could", "should")
    },
    "cant": "can't",
    "thats": "that's",
    "whats": "what's",
    "youre": "you're",
    "theyre": "they're",
    "shes": "she's",
}
_BARE_WORD = re.compile(r"\b(" + "|".join(_BARE) + r")\b", re.IGNORECASE)
# The pronoun typed in lower case: a word alone, so not "i.e." nor "i-9".
_LOWER_I = re.compile(r"(?<![\w.'-])i(?![\w.-])")


def spelled_out(text: str) -> str:
    """``text`` with its apostrophes as typed ones ("I don’t" → "I don't"), the contractions chat types without one
    spelled out ("im" → "I'm", "dont" → "don't") and the pronoun capitalised ("i" → "I"): the structure's rules and
    the embedder read English as it is written."""
    text = _BARE_WORD.sub(lambda m: _with_case(m.group(1), _BARE[m.group(1).lower()]), text.translate(_APOSTROPHES))
    return _LOWER_I.sub("I", text)


def _with_case(typed: str, spelled: str) -> str:
    """``spelled`` opening in capitals as ``typed`` does ("Dont" → "Don't"); "I" always one."""
    return spelled[0].upper() + spelled[1:] if typed[0].isupper() else spelled
