"""Bytes to text: refuse binaries, decode UTF-8 leniently, strip HTML to its readable text."""

from __future__ import annotations

from selectolax.lexbor import LexborHTMLParser, LexborNode

from memgw.sync_worker.readers.base import ItemError

_NOISE = "script, style, noscript, template, svg, head"
_PAGE_NOISE = "nav, header, footer, aside, form"  # a whole page's furniture, not its text
_BLOCKS = "p, div, br, li, h1, h2, h3, h4, h5, h6, tr, section, article, pre, blockquote"
_MAIN = ("main", "article", "[role=main]", "body")


def html_to_text(html: str, *, selector: str | None = None, page: bool = False) -> str:
    """The readable text of HTML, blocks as paragraphs: the one way every reader turns HTML into text
    (a Folder's .html files, feed entries, web pages). ``page``: a whole page, so its navigation and
    furniture go and its main part is kept; ``selector``: only what the CSS selector picks."""
    tree = LexborHTMLParser(html)
    for node in tree.css(_NOISE + (", " + _PAGE_NOISE if page else "")):
        node.decompose()
    for block in tree.css(_BLOCKS):
        block.insert_after("\n\n")
    text = "\n\n".join(node.text(deep=True, separator="", strip=False) for node in _roots(tree, selector, page))
    lines = [" ".join(line.split()) for line in text.splitlines()]
    text = "\n".join(lines)
    while "\n\n\n" in text:
        text = text.replace("\n\n\n", "\n\n")
    return text.strip()


def _roots(tree: LexborHTMLParser, selector: str | None, page: bool) -> list[LexborNode]:
    if selector:
        picked = tree.css(selector)
        if not picked:
            raise ItemError(f"the selector {selector!r} matches nothing on the page")
        return list(picked)
    if page:
        for candidate in _MAIN:
            found = tree.css_first(candidate)
            if found is not None and (found.text(strip=True) or candidate == "body"):
                return [found]
    return [tree.body] if tree.body is not None else [tree.root] if tree.root is not None else []


def decode_text(data: bytes, *, name: str) -> str:
    if b"\x00" in data[:8192]:
        raise ItemError(f"{name}: binary content")
    return data.decode("utf-8", errors="replace")
