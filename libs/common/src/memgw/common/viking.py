"""OpenViking's addresses for what the gateway holds (seed 004 §G): one scheme for memories, vault
resources and skills, so an agent that speaks OpenViking addresses our records as its own.

    viking://memory/user/{user}/long_term            a namespace (profile, preferences, long_term, …)
    viking://memory/user/{user}/long_term/{memory}    one memory in it
    viking://resources/user/{user}/obsidian/{note}.md a vault note
    viking://skills/memory-gateway/{skill}            a skill

Wherever a memory id is taken, its URI is taken too (``memory_id_of``).
"""

from __future__ import annotations

import re

SCHEME = "viking://"
_ID = r"[A-Za-z0-9][A-Za-z0-9_.@-]{0,127}"
_MEMORY_URI = re.compile(rf"^viking://memory/((?:user|agent|workspace|session)/{_ID}/[a-z_]+|global/public)/({_ID})$")
_PLAIN_ID = re.compile(rf"^{_ID}$")


def namespace_uri(namespace: str) -> str:
    return f"{SCHEME}memory/{namespace}"


def memory_uri(namespace: str, memory_id: str) -> str:
    return f"{namespace_uri(namespace)}/{memory_id}"


def note_uri(user_id: str, note: str) -> str:
    """A note of ``user_id``'s vault folder, by its path there (``Memories/LongTerm/x.md``)."""
    return f"{SCHEME}resources/user/{user_id}/obsidian/{note}"


def skill_uri(name: str) -> str:
    return f"{SCHEME}skills/memory-gateway/{name}"


def memory_id_of(ref: str) -> str:
    """The memory id a reference names: a plain id, or a memory's viking:// URI. ValueError for
    anything else (a namespace's URI, another scheme, a malformed id)."""
    if ref.startswith(SCHEME):
        found = _MEMORY_URI.match(ref)
        if found is None:
            raise ValueError(f"{ref!r} is not a memory's URI (viking://memory/<namespace>/<memory id>)")
        return found.group(2)
    if not _PLAIN_ID.match(ref):
        raise ValueError(f"{ref!r} is neither a memory id nor a memory's viking:// URI")
    return ref
