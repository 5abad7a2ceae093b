"""The secret detector: keys, tokens, passwords, PINs, passphrases and card numbers in free text, and
the one rule for what is written into memory that holds one.

Whatever reads people's text uses the detector: a secret never becomes an extracted fact (the
consolidator), is redacted from what is sent to an LLM, and no note of it reaches the vault. Every
write into ``memories`` — REST, MCP, the faces, vault notes, the consolidator, every source's chunks —
goes through ``MemoryStore``, which applies ``screen`` with the operator's rule
(``MEMGW_SECRETS_ON_WRITE``): ``redact`` (the default) stores the text with each secret replaced by
``[redacted]``; ``refuse`` refuses the write (a request answers 422; a source skips the chunk and
counts it).

Two kinds of detection: a credential's own shape (``sk-…``, ``ghp_…``, ``AKIA…``, a JWT, a PEM key, a
card number that passes the Luhn check and starts like a card), and a value a person names as one
("my password is …", "PIN: 4821", "密码是 …"). The second needs the value to look like one: "the
password is wrong" names no password.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Literal

SecretsOnWrite = Literal["redact", "refuse"]
REDACTED = "[redacted]"

_SHAPES = [
    re.compile(p, re.IGNORECASE)
    for p in (
        r"\bsk-[A-Za-z0-9_-]{16,}",  # OpenAI-style keys
        r"\b(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{10,}",  # Stripe secret and restricted keys
        r"\bgh[pousr]_[A-Za-z0-9]{20,}",  # GitHub tokens
        r"\bgithub_pat_[A-Za-z0-9_]{20,}",
        r"\bAKIA[0-9A-Z]{16}\b",  # AWS access keys
        r"\bAIza[0-9A-Za-z_-]{30,}",  # Google API keys
        r"\bxox[abpr]-[A-Za-z0-9-]{10,}",  # Slack tokens
        r"\beyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}",  # JWTs
        r"-----BEGIN [A-Z ]*PRIVATE KEY-----",
        r"\bmgw_[A-Za-z0-9_-]{20,}",  # our own API keys
    )
]

# What a person calls a secret, then how they say what it is.
_NAMED = (
    r"(?:pass(?:word|wd|code|phrase)|pass phrase|pwd|pin(?: code| number)?|secret(?: key)?"
    r"|api[_ -]?key|access[_ -]?key|private[_ -]?key|auth(?:entication)? token|token|security code|cvv|cvc)"
)
# Words that follow "password is" when no password is named ("is wrong", "is too short", "is the
# same"): the value must not start with one of them and must look like a value (quoted, with a digit or
# a symbol inside), or follow a colon or an equals sign.
_NOT_A_VALUE = (
    r"(?:a|an|the|my|your|his|her|their|our|this|that|it|not|no|too|very|so|still|now|also|being|been"
    r"|wrong|incorrect|invalid|expired|required|needed|missing|empty|weak|strong|long|short|same|different"
    r"|reset|changed|set|saved|stored|written|hidden|secret|safe|unknown|forgotten|lost|easy|hard"
    r"|in|on|at|for|to|of|from|with|by|under|somewhere|here|there|and|or|but)\b"
)
_VALUE = r"(?:[\"'“‘][^\"'”’\n]{3,}[\"'”’]|\S*\d\S*|\w*[^\w\s]\w\S*)"  # quoted, with a digit, or a symbol inside
_NAMED_EN = re.compile(
    rf"\b{_NAMED}\b(?:\s*[:=]\s*(?!{_NOT_A_VALUE})\S{{3,}}|\s+(?:is|was)\s+(?!{_NOT_A_VALUE}){_VALUE})",
    re.IGNORECASE,
)
# A passphrase is words: three or more of them, named as one.
_PASSPHRASE = re.compile(
    rf"\bpass ?phrase\b(?:\s+(?:is|was)|\s*[:=])\s*(?!{_NOT_A_VALUE})[A-Za-z]+(?:[\s-]+[A-Za-z]+){{2,}}",
    re.IGNORECASE,
)
_NAMED_ZH = re.compile(
    r"(?:密码|口令|密钥|暗码|支付密码|PIN\s*码?|验证码|安全码|令牌)\s*(?:是|为|:|：|=)\s*[\"'“‘]?[^\s，。,;；]{3,}",
    re.IGNORECASE,
)
_CARD = re.compile(r"(?<![\d-])(?:\d[ -]?){12,18}\d(?![\d-])")
_CARD_START = re.compile(r"^(?:4|5[1-5]|2[2-7]|3[47]|35|6)")


def _luhn(digits: str) -> bool:
    total = 0
    for i, ch in enumerate(reversed(digits)):
        d = int(ch)
        if i % 2:
            d = d * 2 - 9 if d > 4 else d * 2
        total += d
    return total % 10 == 0


def _is_card(number: str) -> bool:
    digits = re.sub(r"[ -]", "", number)
    return 13 <= len(digits) <= 19 and bool(_CARD_START.match(digits)) and _luhn(digits)


def _cards(text: str, replace: Callable[[str], str]) -> str:
    return _CARD.sub(lambda m: replace(m.group()) if _is_card(m.group()) else m.group(), text)


def contains_secret(text: str) -> bool:
    if any(p.search(text) for p in (*_SHAPES, _PASSPHRASE, _NAMED_EN, _NAMED_ZH)):
        return True
    return any(_is_card(m.group()) for m in _CARD.finditer(text))


def redact(text: str) -> str:
    for pattern in (*_SHAPES, _PASSPHRASE, _NAMED_EN, _NAMED_ZH):
        text = pattern.sub(REDACTED, text)
    return _cards(text, lambda _: REDACTED)


class SecretRefused(ValueError):
    """A write holds a secret, and the operator's rule refuses such writes."""


def screen(text: str, rule: SecretsOnWrite) -> str:
    """``text`` as it may be stored under ``rule``: itself, redacted, or SecretRefused."""
    if not contains_secret(text):
        return text
    if rule == "refuse":
        raise SecretRefused(
            "the text looks like it holds a secret (a key, token, password, PIN or card number);"
            " this install refuses such writes (MEMGW_SECRETS_ON_WRITE=refuse)"
        )
    return redact(text)
