"""The secret detector: tokens, keys and passwords in free text. Whatever reads people's text into
memory uses it, so a secret never becomes a memory (the consolidator's extraction) nor a searchable
chunk (the Conversation source), and is redacted from what is sent to an LLM."""

from __future__ import annotations

import re

_SECRET_PATTERNS = [
    re.compile(p, re.IGNORECASE)
    for p in (
        r"\bsk-[A-Za-z0-9_-]{16,}",  # OpenAI-style keys
        r"\bgh[pousr]_[A-Za-z0-9]{20,}",  # GitHub tokens
        r"\bAKIA[0-9A-Z]{16}\b",  # AWS access keys
        r"\bxox[abpr]-[A-Za-z0-9-]{10,}",  # Slack tokens
        r"\beyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}",  # JWTs
        r"-----BEGIN [A-Z ]*PRIVATE KEY-----",
        r"(password|passwd|pwd|secret|api[_ -]?key|token|密码|口令|密钥)\s*[:=：是为]\s*\S+",
        r"\bmgw_[A-Za-z0-9_-]{20,}",  # our own API keys
    )
]


def contains_secret(text: str) -> bool:
    return any(p.search(text) for p in _SECRET_PATTERNS)


def redact(text: str) -> str:
    for pattern in _SECRET_PATTERNS:
        text = pattern.sub("[redacted]", text)
    return text
