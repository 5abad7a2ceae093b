"""Notes as a person reads them in Obsidian, and what a person's edit of one says. Pure functions.

A note is YAML front matter (Obsidian's properties) and Markdown. Front matter is read and written by
python-frontmatter over PyYAML's safe loader; nothing here parses YAML by hand. Anchors and aliases
are refused before anything is built: Obsidian never writes them, and a few hundred bytes of nested
aliases expand to gigabytes. The bridge's own instructions sit
in an Obsidian comment (``%%memgw … %%``): hidden in reading view, and never part of a memory.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import frontmatter
import yaml
from frontmatter.default_handlers import YAMLHandler

from memgw.common.domain import MemoryRecord, MemoryStatus
from memgw.common.secrets import contains_secret

DECISIONS = ("accept_new", "keep_old", "keep_both", "edit")
_OURS = re.compile(r"%%memgw.*?%%\s*", re.DOTALL)
_YOUR_VERSION = re.compile(
    r"^##[^\n]*(?:Your version|你的版本)[^\n]*\n(.*?)(?=^## |%%memgw|\Z)", re.DOTALL | re.MULTILINE
)
_TAG_SAFE = re.compile(r"[^\w/-]+")
_SOURCE_TAG = {"consolidator": "evermemos", "evermemos": "evermemos", "obsidian": "manual", "manual": "manual"}

MEMORY_FOOTER = (
    "%%memgw\n"
    "编辑上面的文字并保存，即成为这条记忆的新版本（一级标题是摘要）。\n"
    "Edit the text above and save: it becomes a new version of this memory (the heading is its summary).\n"
    "%%\n"
)
INDEX_FOOTER = (
    "%%memgw\n"
    "这一页由链接的笔记生成；请编辑那些笔记，而不是这个列表。\n"
    "This page is made from the linked notes: edit those, not this list.\n"
    "%%\n"
)
REVIEW_FOOTER = (
    "%%memgw\n"
    "How to decide / 决定方式:\n"
    "- move this note to Reviews/Accepted to take the new / 移到 Reviews/Accepted 采用新的\n"
    "- move it to Reviews/Rejected to keep the old / 移到 Reviews/Rejected 保留旧的\n"
    "- or set the property `decision` to accept_new, keep_old, keep_both or edit; with edit, the text under\n"
    "  “Your version” becomes the memory / 或设属性 decision；选 edit 时，“你的版本”下的文字成为这条记忆\n"
    "%%\n"
)


class BrokenNote(ValueError):
    """The note's properties cannot be read."""


@dataclass(frozen=True)
class Note:
    meta: dict[str, Any]
    body: str


class _PlainYaml(YAMLHandler):
    def load(self, fm: str, **kwargs: object) -> Any:
        for token in yaml.scan(fm, Loader=yaml.SafeLoader):  # tokens only: nothing is expanded yet
            if isinstance(token, yaml.AnchorToken | yaml.AliasToken):
                raise BrokenNote(
                    "the properties (front matter) use YAML anchors or aliases (& or *), which notes may not"
                )
        return super().load(fm, **kwargs)


def parse(text: str) -> Note:
    try:
        post = frontmatter.loads(text, handler=_PlainYaml())
    except BrokenNote:
        raise
    except (yaml.YAMLError, ValueError, TypeError, AttributeError) as exc:
        raise BrokenNote(f"the properties (front matter) are not valid YAML: {exc}") from exc
    if not isinstance(post.metadata, dict):
        raise BrokenNote("the properties (front matter) must be a mapping of names to values")
    if not post.metadata and text.lstrip().startswith("---"):
        raise BrokenNote("the properties (front matter) are opened with --- but never closed")
    return Note(dict(post.metadata), post.content)


def _dump(meta: dict[str, Any], body: str) -> str:
    return frontmatter.dumps(frontmatter.Post(body, **meta), sort_keys=False, allow_unicode=True) + "\n"


def _stamp(moment: datetime) -> str:
    return moment.isoformat(timespec="seconds")


def tags_of(m: MemoryRecord) -> list[str]:
    """The seed's tag system (004 §F), then the memory's own tags."""
    kind = {"profile": "memory/profile", "preference": "memory/preference"}.get(m.memory_type)
    if kind is None:
        kind = {"workspace-shared": "memory/workspace", "agent-only": "memory/agent-experience"}.get(
            m.visibility.value, "memory/long-term"
        )
    tags = [kind]
    if m.status is MemoryStatus.ARCHIVED:
        tags.append("memory/deprecated")
    if m.status is MemoryStatus.NEEDS_REVIEW:
        tags += ["memory/review", "memory/conflict"]
    tags += [f"source/{_SOURCE_TAG.get(m.source, 'manual')}", f"visibility/{m.visibility.value}"]
    own = [_TAG_SAFE.sub("-", t).strip("-") for t in m.tags]
    return tags + [t for t in own if t and t not in tags]


def memory_note(m: MemoryRecord) -> str:
    meta: dict[str, Any] = {
        "memory_id": m.id,
        "namespace": m.namespace,
        "memory_type": m.memory_type,
        "visibility": m.visibility.value,
        "importance": round(m.importance, 3),
        "confidence": round(m.confidence, 3),
        "version": m.version,
        "source": m.source,
        "status": m.status.value,
        "updated_at": _stamp(m.updated_at),
        "tags": tags_of(m),
    }
    if m.summary:
        meta["aliases"] = [m.summary]
    heading = f"# {m.summary}\n\n" if m.summary else ""
    return _dump(meta, f"{heading}{m.content.strip()}\n\n{MEMORY_FOOTER}")


def memory_text(body: str) -> tuple[str | None, str]:
    """(summary or None when the note has no heading, content) of a memory note's body."""
    text = _OURS.sub("", body).strip()
    first, _, rest = text.partition("\n")
    if first.startswith("# "):
        return first[2:].strip(), rest.strip()
    return None, text


def your_version(body: str) -> str:
    found = _YOUR_VERSION.search(body)
    return _OURS.sub("", found.group(1)).strip() if found else ""


def _quoted(text: str) -> str:
    return "\n".join(f"> {line}" if line else ">" for line in text.strip().splitlines())


def _facts(m: MemoryRecord) -> str:
    sessions = m.metadata.get("sessions") or ([m.session_id] if m.session_id else [])
    line = (
        f"*confidence {m.confidence:.2f} · importance {m.importance:.2f} · version {m.version} · "
        f"source {m.source} · updated {_stamp(m.updated_at)}*"
    )
    evidence = f"\n\nevidence 证据: {m.evidence_count} · sessions 会话: {', '.join(sessions)}" if sessions else ""
    return line + evidence


def _side(title: str, m: MemoryRecord | None, memory_id: str, withheld: bool) -> str:
    if m is None:
        return f"## {title} — [[{memory_id}]]\n\n*(gone: this memory no longer exists / 已不存在)*\n"
    if withheld:
        text = "> *(withheld: it looks like a credential; decide through the API / 疑似凭据，未写入 vault)*"
    else:
        text = _quoted(m.content)
    return f"## {title} — [[{memory_id}]]\n\n{text}\n\n{_facts(m)}\n"


def review_note(
    review: dict[str, Any], memories: dict[str, MemoryRecord | None], withheld: set[str], *, status: str = "open"
) -> str:
    ids: list[str] = list(review["memory_ids"])
    contradiction = review["kind"] == "contradiction"
    meta: dict[str, Any] = {
        "review_id": review["id"],
        "kind": review["kind"],
        "status": status,
        "decision": review.get("decision"),
        "user_id": review["user_id"],
        "memory_ids": ids,
        "created_at": _stamp(review["created_at"]),
        "tags": ["memory/review", *(["memory/conflict"] if contradiction else []), "source/evermemos"],
    }
    why = _quoted(str(review["reason"]))
    parts = [f"# 待你决定 · Needs your decision\n\n> [!question] 为什么需要你 · Why the machine is unsure\n{why}\n"]
    if contradiction:
        parts.append(_side("旧 · Old", memories.get(ids[0]), ids[0], ids[0] in withheld))
        parts.append(_side("新 · New", memories.get(ids[1]), ids[1], ids[1] in withheld))
        proposal = memories.get(ids[1])
        hint = "accept_new = take the new · keep_old = keep the old · keep_both = both stay · edit = your text below"
    else:
        parts.append(_side("记忆 · The memory", memories.get(ids[0]), ids[0], ids[0] in withheld))
        proposal = memories.get(ids[0])
        hint = "accept_new = the reader is right (archive it) · keep_old = it stays · edit = correct it below"
    mine = "" if proposal is None or proposal.id in withheld else proposal.content.strip()
    parts.append(f"> [!tip] {hint}\n")
    parts.append(f"## 你的版本 · Your version\n\n{mine}\n")
    return _dump(meta, "\n".join(parts) + "\n" + REVIEW_FOOTER)


def index_note(title: str, tag: str, records: list[MemoryRecord]) -> str:
    lines = [f"# {title}\n"]
    for m in records:
        label = m.summary or m.content.strip().splitlines()[0][:120]
        lines.append(f"- {label} [[{m.id}|↗]]")
    if not records:
        lines.append("*(nothing yet / 暂无)*")
    return _dump({"generated": True, "tags": [tag]}, "\n".join(lines) + "\n\n" + INDEX_FOOTER)


def _preference_line(key: str, text: str, memory_id: str | None) -> str:
    """``- **language**: 中文 [[mem_…|↗]]``; a profile from before attributes is keyed by memory id."""
    if key.startswith("mem_"):
        return f"- {text} [[{key}|↗]]"
    link = f" [[{memory_id}|↗]]" if memory_id else ""
    return f"- **{key}**: {text}{link}"


def profile_note(profile: dict[str, Any]) -> str:
    """The profile the consolidator evolved from repeated evidence (read-only, like the index pages);
    nothing the secrets detector flags is shown."""
    facts = [str(f) for f in profile["stable_facts"] if not contains_secret(str(f))]
    prefs = {key: str(text) for key, text in profile["preferences"].items() if not contains_secret(str(text))}
    sources = profile.get("preference_sources") or {}
    style = [str(s) for s in profile["working_style"] if not contains_secret(str(s))]
    lines = [f"# {profile['user_id']} · 画像 Profile\n", "## 稳定事实 · Stable facts"]
    lines += [f"- {f}" for f in facts] or ["*(none yet / 暂无)*"]
    lines += ["", "## 偏好 · Preferences"]
    lines += [_preference_line(key, text, sources.get(key)) for key, text in prefs.items()] or ["*(none yet / 暂无)*"]
    if style:
        lines += ["", "## 工作方式 · Working style", *[f"- {s}" for s in style]]
    meta = {
        "user_id": profile["user_id"],
        "version": profile["version"],
        "updated_at": _stamp(profile["updated_at"]),
        "generated": True,
        "tags": ["memory/profile", "source/evermemos"],
    }
    return _dump(meta, "\n".join(lines) + "\n\n" + INDEX_FOOTER)


def with_meta(text: str, **changes: Any) -> str:
    """The same note with some properties changed (a person's text kept as it is)."""
    note = parse(text)
    return _dump({**note.meta, **changes}, note.body.rstrip() + "\n")
