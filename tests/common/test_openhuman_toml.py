"""OpenHuman's [[memory_sources]] written and read back (pure functions)."""

from __future__ import annotations

import tomllib

import pytest

from memgw.common.sources import CREDENTIAL_PLACEHOLDER, MemorySourceEntry, SourceKind, from_openhuman, to_openhuman
from memgw.sync_worker.readers.base import SourceContent
from memgw.sync_worker.readers.listed import ListedContent

pytestmark = pytest.mark.unit


def test_an_export_reads_back_as_the_same_entries_with_credentials_as_placeholders() -> None:
    entry = MemorySourceEntry(
        id="gh",
        kind=SourceKind.GITHUB_REPO,
        owner_user_id="u",
        label='quote " and \\ backslash\n',
        fields={"repo": "o/r", "include": ["commits", "issues"], "token": "secret"},
        max_cost_per_sync_usd=0.5,
    )
    [table] = tomllib.loads(to_openhuman([entry]))["memory_sources"]
    assert table["token"] == CREDENTIAL_PLACEHOLDER
    back = from_openhuman(table, "u")
    assert (back.fields, back.secrets, back.label, back.max_cost_per_sync_usd) == (
        {"repo": "o/r", "include": ["commits", "issues"]},
        {},  # the placeholder means "as it is": it never becomes a credential
        entry.label,
        0.5,
    )


def test_a_field_without_a_value_is_left_out_and_a_table_inside_is_refused() -> None:
    empty = MemorySourceEntry(id="f", kind=SourceKind.FOLDER, owner_user_id="u", fields={"path": "/p", "glob": None})
    assert "glob" not in to_openhuman([empty])
    nested = MemorySourceEntry(id="f", kind=SourceKind.FOLDER, owner_user_id="u", fields={"path": {"a": 1}})
    with pytest.raises(TypeError):
        to_openhuman([nested])
    holed = MemorySourceEntry(
        id="f", kind=SourceKind.FOLDER, owner_user_id="u", fields={"path": "/p", "x": ["a", None]}
    )
    with pytest.raises(TypeError):
        to_openhuman([holed])


def test_listings_are_kept_for_the_most_recent_sources_only() -> None:
    listed = ListedContent(keep_sources=2)
    for n in range(5):
        source = MemorySourceEntry(id=f"s{n}", kind=SourceKind.RSS_FEED, owner_user_id="u", fields={"url": "u"})
        listed.remember(source, [SourceContent(item_id="i", title="t", text=f"text {n}")])
    assert len(listed._by_source) == 2
    assert sorted(listed._by_source) == ["s3", "s4"]
