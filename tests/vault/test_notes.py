"""Notes and the vault on disk, without the bus: rendering, reading a person's edit, atomic writes,
the manifest that tells the bridge's writes from a person's, the path guard and the lock."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import frontmatter
import pytest

from memgw.common.domain import MemoryRecord, MemoryStatus, Visibility
from memgw.common.paths import PathOutsideRoot
from memgw.obsidian_bridge.notes import (
    BrokenNote,
    index_note,
    memory_note,
    memory_text,
    parse,
    profile_note,
    review_note,
    tags_of,
    with_meta,
    your_version,
)
from memgw.obsidian_bridge.vault import ERROR_SUFFIX, UserVault, Vault, VaultLocked, is_note

pytestmark = pytest.mark.unit
NOW = datetime(2026, 11, 30, 9, 0, tzinfo=UTC)


def record(**changes: object) -> MemoryRecord:
    base = MemoryRecord(
        id="mem_1",
        user_id="alice",
        namespace="user/alice/long_term",
        memory_type="fact",
        content="我住在北京。\n第二行 second line",
        summary="住处",
        visibility=Visibility.PRIVATE,
        source="consolidator",
        tags=["家 home", "city"],
        created_at=NOW,
        updated_at=NOW,
    )
    return base.model_copy(update=changes)


def test_a_memory_note_reads_back_as_the_same_text_and_properties() -> None:
    text = memory_note(record())
    note = parse(text)
    assert note.meta["memory_id"] == "mem_1"
    assert (note.meta["version"], note.meta["status"], note.meta["visibility"]) == (1, "active", "private")
    assert memory_text(note.body) == ("住处", "我住在北京。\n第二行 second line")
    assert "%%memgw" in text  # the bridge's instructions, hidden in reading view


@pytest.mark.parametrize(
    ("changes", "expected"),
    [
        ({}, ["memory/long-term", "source/evermemos", "visibility/private", "家-home", "city"]),
        ({"memory_type": "profile", "tags": []}, ["memory/profile", "source/evermemos", "visibility/private"]),
        (
            {"status": MemoryStatus.NEEDS_REVIEW, "tags": [], "source": "manual"},
            ["memory/long-term", "memory/review", "memory/conflict", "source/manual", "visibility/private"],
        ),
        (
            {"status": MemoryStatus.ARCHIVED, "tags": [], "visibility": Visibility.WORKSPACE_SHARED},
            ["memory/workspace", "memory/deprecated", "source/evermemos", "visibility/workspace-shared"],
        ),
    ],
)
def test_tags_follow_the_seeds_tag_system(changes: dict[str, object], expected: list[str]) -> None:
    assert tags_of(record(**changes)) == expected


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ("# 标题\n\n正文", ("标题", "正文")),
        ("only text, no heading", (None, "only text, no heading")),
        ("text\n\n%%memgw\nours\n%%\n", (None, "text")),
        ("\n\n# T\n\nbody\n%%memgw x %%", ("T", "body")),
    ],
)
def test_a_persons_text_is_read_without_the_bridges_comments(body: str, expected: tuple[str | None, str]) -> None:
    assert memory_text(body) == expected


@pytest.mark.parametrize(
    "text",
    [
        "---\nmemory_id: [unclosed\n---\nbody",
        "---\n- a list\n- not a mapping\n---\nbody",
        "---\nmemory_type: note\n",  # a save cut off inside the properties
    ],
)
def test_broken_properties_are_refused_not_guessed(text: str) -> None:
    with pytest.raises(BrokenNote):
        parse(text)


def test_a_review_draft_shows_both_sides_links_them_and_takes_your_version() -> None:
    old, new = record(id="mem_old", content="我住在北京。"), record(id="mem_new", content="我搬到上海了。")
    review = {
        "id": "rev_1",
        "kind": "contradiction",
        "user_id": "alice",
        "memory_ids": ["mem_old", "mem_new"],
        "reason": "residence changed",
        "created_at": NOW,
    }
    text = review_note(review, {"mem_old": old, "mem_new": new}, set())
    post = frontmatter.loads(text)
    assert (post["review_id"], post["status"], post["decision"]) == ("rev_1", "open", None)
    for shown in ("[[mem_old]]", "[[mem_new]]", "我住在北京。", "residence changed"):
        assert shown in post.content
    assert your_version(post.content) == "我搬到上海了。"
    edited = post.content.replace("我搬到上海了。\n\n%%memgw", "我 2026 年搬到上海。\n\n%%memgw")
    assert your_version(edited) == "我 2026 年搬到上海。"
    withheld = review_note(review, {"mem_old": old, "mem_new": new}, {"mem_new"})
    assert "我搬到上海了。" not in withheld


def test_with_meta_keeps_the_persons_text() -> None:
    text = "---\nreview_id: r\nstatus: open\n---\nmy words, kept\n"
    changed = frontmatter.loads(with_meta(text, status="decided", decision="keep_old"))
    assert (changed["status"], changed["decision"], changed.content) == ("decided", "keep_old", "my words, kept")


def test_an_index_page_links_every_listed_memory() -> None:
    page = index_note("Profile", "memory/profile", [record(id="mem_a"), record(id="mem_b", summary="")])
    assert "[[mem_a|↗]]" in page
    assert "[[mem_b|↗]]" in page
    assert "我住在北京。" in page  # no summary: the first line stands for it


def test_the_evolved_profile_is_a_page_without_secrets() -> None:
    profile = {
        "user_id": "alice",
        "version": 3,
        "updated_at": NOW,
        "stable_facts": ["我在上海工作。", "password: hunter2"],
        "preferences": {"mem_p": "I prefer oolong tea."},
        "working_style": [],
    }
    page = profile_note(profile)
    assert "我在上海工作。" in page
    assert "[[mem_p|↗]]" in page
    assert "hunter2" not in page


def test_a_profile_by_attribute_links_each_preference_to_its_memory() -> None:
    profile = {
        "user_id": "alice",
        "version": 4,
        "updated_at": NOW,
        "stable_facts": [],
        "preferences": {"language": "用户偏好中文输出。", "preference_1": "I like dark mode."},
        "preference_sources": {"language": "mem_lang", "preference_1": "mem_dark"},
        "working_style": ["偏好可落地 POC"],
    }
    page = profile_note(profile)
    assert "- **language**: 用户偏好中文输出。 [[mem_lang|↗]]" in page
    assert "[[mem_dark|↗]]" in page
    assert "偏好可落地 POC" in page


@pytest.mark.parametrize(
    ("rel", "note"),
    [
        ("Memories/LongTerm/mem_1.md", True),
        ("Users/alice/LongTerm/新笔记.md", True),
        (".obsidian/workspace.md", False),
        ("Memories/.mem_1.md.swp", False),
        ("Memories/mem_1.md~", False),
        (f"Memories/LongTerm/mem_1{ERROR_SUFFIX}", False),
        ("Memories/LongTerm/.memgw-abc.part", False),
        ("Memories/LongTerm/image.png", False),
    ],
)
def test_what_counts_as_a_persons_note(rel: str, note: bool) -> None:
    assert is_note(Path(rel)) is note


def test_writes_are_atomic_recorded_and_told_from_a_persons(tmp_path: Path) -> None:
    uv = Vault(tmp_path).user("alice")
    assert (uv.root / "Reviews/Queue").is_dir()
    assert any((uv.root / "Templates").iterdir())
    assert uv.write("Memories/LongTerm/mem_1.md", "ours", memory_id="mem_1", version=1)
    assert not uv.write("Memories/LongTerm/mem_1.md", "ours", memory_id="mem_1", version=1)  # unchanged: untouched
    assert uv.is_own("Memories/LongTerm/mem_1.md", "ours")
    assert not uv.is_own("Memories/LongTerm/mem_1.md", "a person's edit")
    assert not list(uv.root.rglob("*.part"))  # no temp file left behind
    again = UserVault(tmp_path, "alice")  # a restart reads the manifest back
    assert again.where(memory_id="mem_1") == ["Memories/LongTerm/mem_1.md"]
    assert again.manifest["Memories/LongTerm/mem_1.md"].version == 1


def test_a_write_appends_to_the_manifest_journal_instead_of_rewriting_the_manifest(tmp_path: Path) -> None:
    uv = Vault(tmp_path).user("alice")
    snapshot = (uv.root / ".memgw/manifest.json").read_text()
    for n in range(30):
        uv.write(f"Memories/LongTerm/mem_{n}.md", f"note {n}", memory_id=f"mem_{n}", version=1)
    uv.write("Memories/LongTerm/mem_0.md", "note 0", memory_id="mem_0", version=1)  # the same again: no line
    uv.remove("Memories/LongTerm/mem_1.md")
    journal = (uv.root / ".memgw/manifest.log").read_text().splitlines()
    assert (uv.root / ".memgw/manifest.json").read_text() == snapshot  # untouched by 31 changes
    assert len(journal) == 31  # one line a change: 30 notes and a removal

    again = UserVault(tmp_path, "alice")  # a restart (or `memgw vault status`) replays the journal
    assert again.where(memory_id="mem_29") == ["Memories/LongTerm/mem_29.md"]
    assert again.where(memory_id="mem_1") == []
    assert again.manifest == uv.manifest
    assert (uv.root / ".memgw/manifest.log").read_text().splitlines() == journal  # and writes nothing


def test_a_journal_line_cut_short_by_a_crash_is_skipped_and_never_appended_to(tmp_path: Path) -> None:
    uv = Vault(tmp_path).user("alice")
    uv.write("Memories/LongTerm/mem_1.md", "one", memory_id="mem_1")
    with (uv.root / ".memgw/manifest.log").open("a") as journal:
        journal.write('{"rel": "Memories/LongTerm/mem_2.md", "entry": {"sha"')  # the crash
    again = UserVault(tmp_path, "alice")
    assert again.where(memory_id="mem_1") == ["Memories/LongTerm/mem_1.md"]
    assert again.where(memory_id="mem_2") == []  # its note was never written: the line came first
    again.write("Memories/LongTerm/mem_3.md", "three", memory_id="mem_3")
    third = UserVault(tmp_path, "alice")
    assert sorted(third.memory_ids()) == ["mem_1", "mem_3"]


def test_a_journal_longer_than_the_manifest_is_folded_into_it(tmp_path: Path) -> None:
    uv = Vault(tmp_path).user("alice")
    for version in range(50):  # ten notes rewritten fifty times: 500 lines for a manifest of ~13
        for n in range(10):
            uv.write(f"Memories/LongTerm/mem_{n}.md", f"v{version}", memory_id=f"mem_{n}", version=version)
    assert len((uv.root / ".memgw/manifest.log").read_text().splitlines()) < 200  # folded at the floor
    again = UserVault(tmp_path, "alice")
    assert again.is_own("Memories/LongTerm/mem_9.md", "v49")
    assert again.manifest["Memories/LongTerm/mem_0.md"].version == 49


@pytest.mark.parametrize("user_id", ["../bob", "a/b", ".."])
def test_a_user_id_cannot_leave_the_vault(tmp_path: Path, user_id: str) -> None:
    with pytest.raises((ValueError, PathOutsideRoot)):
        Vault(tmp_path).user(user_id)


def test_a_note_path_cannot_leave_the_users_folder(tmp_path: Path) -> None:
    uv = Vault(tmp_path).user("alice")
    Vault(tmp_path).user("bob")
    with pytest.raises(PathOutsideRoot):
        uv.write("../bob/Memories/LongTerm/x.md", "planted")


def test_one_bridge_holds_a_vault(tmp_path: Path) -> None:
    first, second = Vault(tmp_path), Vault(tmp_path)
    first.acquire()
    try:
        with pytest.raises(VaultLocked):
            second.acquire()
    finally:
        first.release()
    second.acquire()
    second.release()


def test_anchors_and_aliases_are_refused_before_anything_is_expanded() -> None:
    levels = "a: &a [x, x, x, x, x, x, x, x, x]\n"
    levels += "".join(f"{c}: &{c} [{', '.join(['*' + p] * 9)}]\n" for p, c in zip("abcdefgh", "bcdefghi", strict=True))
    with pytest.raises(BrokenNote, match="anchors or aliases"):
        parse(f"---\n{levels}---\nbody\n")  # 9^9 strings if it were expanded
    with pytest.raises(BrokenNote, match="anchors or aliases"):
        parse("---\nbase: &b {x: 1}\nmore:\n  <<: *b\n---\nbody\n")
    assert parse("---\ntitle: 'a & b * c'\n---\nbody\n").meta == {"title": "a & b * c"}
