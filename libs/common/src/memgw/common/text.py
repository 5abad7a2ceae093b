"""Chunking that respects Markdown structure and CJK text, with token counts.

Text is cut at headings first, then at blank lines (paragraphs), then at sentence ends (Chinese
and Latin punctuation), then at spaces or between CJK characters. A cut never lands inside a Latin
word, between a character and its combining marks / variation selectors / zero-width joiner, or
between the two halves of a surrogate pair that slipped in undecoded.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

_HEADING = re.compile(r"^(#{1,6})\s+(.+?)\s*#*\s*$")
_FENCE = re.compile(r"^\s*(```|~~~)")
_SENTENCE_END = re.compile(r"(?<=[。！？!?；;…])|(?<=[.](?=\s))|\n")
_WORD = re.compile(r"[A-Za-z0-9_\u00C0-\u024F\u0400-\u04FF'’-]+")


def is_cjk(ch: str) -> bool:
    cp = ord(ch)
    return (
        0x3040 <= cp <= 0x30FF  # kana
        or 0x3400 <= cp <= 0x4DBF
        or 0x4E00 <= cp <= 0x9FFF
        or 0xAC00 <= cp <= 0xD7AF  # hangul
        or 0xF900 <= cp <= 0xFAFF
        or 0x20000 <= cp <= 0x2FA1F
    )


def estimate_tokens(text: str) -> int:
    """Roughly what a multilingual subword tokenizer produces: a CJK character is about one token,
    a Latin word about 1.3, punctuation one each."""
    cjk = sum(1 for ch in text if is_cjk(ch))
    words = _WORD.findall(text)
    word_tokens = sum(max(1, round(len(w) / 4 + 0.3)) for w in words)
    other = sum(1 for ch in text if not ch.isspace() and not is_cjk(ch) and not _WORD.match(ch))
    return cjk + word_tokens + other


def _joins_previous(ch: str) -> bool:
    """True when ``ch`` must stay with the character before it."""
    cp = ord(ch)
    return (
        unicodedata.combining(ch) != 0
        or unicodedata.category(ch) in ("Mn", "Me", "Mc")
        or cp == 0x200D  # zero-width joiner
        or 0xFE00 <= cp <= 0xFE0F  # variation selectors
        or 0x1F3FB <= cp <= 0x1F3FF  # skin tone modifiers
        or 0xDC00 <= cp <= 0xDFFF  # low surrogate: its high half is just before it
    )


def _is_boundary(text: str, pos: int) -> bool:
    """May text be cut before position ``pos``?"""
    if pos <= 0 or pos >= len(text):
        return True
    return not _joins_previous(text[pos]) and text[pos - 1] != "\u200d"


def _safe_cut(text: str, limit: int) -> int:
    """The best cut position <= limit: a space, else a CJK boundary, else a grapheme boundary."""
    limit = min(limit, len(text))
    window = text[:limit]
    space = max(window.rfind(" "), window.rfind("\t"), window.rfind("\n"))
    if space > limit // 3:
        return space + 1
    for pos in range(limit, max(0, limit // 3), -1):
        before, after = text[pos - 1], text[pos] if pos < len(text) else ""
        if after and (is_cjk(before) or is_cjk(after)) and _is_boundary(text, pos):
            return pos
    pos = limit  # one enormous "word" (a URL, base64 ...): cut at a grapheme boundary
    while not _is_boundary(text, pos):
        pos -= 1
    return pos if pos > 0 else limit


def _split_long(text: str, max_chars: int) -> list[str]:
    pieces: list[str] = []
    rest = text
    while len(rest) > max_chars:
        cut = _safe_cut(rest, max_chars)
        pieces.append(rest[:cut])
        rest = rest[cut:]
    if rest:
        pieces.append(rest)
    return pieces


def sentences(text: str) -> list[str]:
    """The sentences of ``text`` (cut where chunking cuts them), each without surrounding blank space
    or a leading list marker; empty ones left out. How memory formation reads what someone said."""
    return [cut for piece in _SENTENCE_END.split(text) if (cut := piece.strip().strip("-•* "))]


def _sentences(paragraph: str, max_chars: int) -> list[str]:
    out: list[str] = []
    for sentence in _SENTENCE_END.split(paragraph):
        if not sentence:
            continue
        out.extend(_split_long(sentence, max_chars) if len(sentence) > max_chars else [sentence])
    return out


@dataclass(frozen=True)
class Chunk:
    index: int
    text: str
    heading: str
    tokens: int


def _sections(text: str) -> list[tuple[str, list[str]]]:
    """(heading path, paragraphs) per Markdown section; fenced code stays one paragraph."""
    sections: list[tuple[str, list[str]]] = []
    path: list[tuple[int, str]] = []
    paragraphs: list[str] = []
    current: list[str] = []
    in_fence = False

    def flush_paragraph() -> None:
        if current and "".join(current).strip():
            paragraphs.append("\n".join(current).strip("\n"))
        current.clear()

    def flush_section() -> None:
        flush_paragraph()
        if paragraphs:
            sections.append((" > ".join(title for _, title in path), list(paragraphs)))
        paragraphs.clear()

    for line in text.splitlines():
        if _FENCE.match(line):
            in_fence = not in_fence
            current.append(line)
            continue
        heading = None if in_fence else _HEADING.match(line)
        if heading:
            flush_section()
            level = len(heading.group(1))
            path[:] = [(lvl, title) for lvl, title in path if lvl < level]
            path.append((level, heading.group(2)))
        elif not in_fence and not line.strip():
            flush_paragraph()
        else:
            current.append(line)
    flush_section()
    return sections


def chunk_text(text: str, *, max_chars: int = 1200, max_tokens: int = 380) -> list[Chunk]:
    """Split ``text`` into chunks of at most ``max_chars`` characters and about ``max_tokens``
    tokens (E5 reads 512 at most; Chinese runs about one token per character, English about one per
    four), headings prefixed so each chunk stands on its own in a search result."""
    chunks: list[Chunk] = []
    for heading, paragraphs in _sections(text):
        prefix = f"{heading}\n" if heading else ""
        budget = max(max_chars - len(prefix), max_chars // 2)
        units: list[str] = []
        for paragraph in paragraphs:
            density = estimate_tokens(paragraph) / max(1, len(paragraph))
            limit = max(40, min(budget, int(max_tokens / max(density, 0.05))))
            units.extend([paragraph] if len(paragraph) <= limit else _sentences(paragraph, limit))
            units.append("\n\n")
        buffer, buffer_tokens = "", 0
        for unit in units:
            unit_tokens = estimate_tokens(unit)
            too_big = len(buffer) + len(unit) > budget or buffer_tokens + unit_tokens > max_tokens
            if too_big and buffer.strip():
                chunks.append(_make(len(chunks), prefix, buffer, heading))
                buffer, buffer_tokens = "", 0
            if buffer or unit.strip():
                buffer += unit
                buffer_tokens += unit_tokens
        if buffer.strip():
            chunks.append(_make(len(chunks), prefix, buffer, heading))
    return chunks


def _make(index: int, prefix: str, body: str, heading: str) -> Chunk:
    text = (prefix + body.strip()).strip()
    return Chunk(index=index, text=text, heading=heading, tokens=estimate_tokens(text))
