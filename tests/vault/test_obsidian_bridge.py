"""The Obsidian bridge end to end: the real bus and Postgres, the consolidator, and a vault on disk
that the bridge watches while a "person" (this test) moves and edits its notes."""

from __future__ import annotations

import asyncio
import dataclasses
import json
import os
import stat
import sys
import uuid
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any, TypeVar

import frontmatter
import pytest

from memgw.obsidian_bridge.main import bridge_for
from memgw.obsidian_bridge.vault import Vault, VaultLocked
from tests.conftest import System

T = TypeVar("T")


async def eventually(check: Callable[[], Awaitable[T | None]], timeout: float = 30) -> T:
    async with asyncio.timeout(timeout):
        while True:
            if found := await check():
                return found
            await asyncio.sleep(0.05)


class Person:
    def __init__(self, system: System, user_id: str, key: str):
        self.system, self.user_id, self.key = system, user_id, key
        settings = system.infra.settings
        self.vault = settings.vault.root(settings.data.data_dir) / user_id

    @property
    def h(self) -> dict[str, str]:
        return self.system.auth(self.key)

    async def remember(self, content: str, **extra: Any) -> dict[str, Any]:
        body = {"content": content, "memory_type": "fact", "importance": 0.9, **extra}
        answer = await self.system.client.post("/v1/memory", json=body, headers=self.h)
        assert answer.status_code == 201, answer.text
        return dict(answer.json())

    async def memory(self, memory_id: str) -> dict[str, Any]:
        answer = await self.system.client.get(f"/v1/memory/{memory_id}", headers=self.h)
        assert answer.status_code == 200, answer.text
        return dict(answer.json())

    async def contradiction(self, old: str, new: str) -> str:
        """Two sessions whose statements contradict; the review's id."""
        job: dict[str, Any] = {}
        for text in (old, new):
            sid = f"s_{uuid.uuid4().hex[:8]}"
            r = await self.system.client.post("/v1/episodes", json={"session_id": sid, "content": text}, headers=self.h)
            assert r.status_code == 201, r.text
            answer = await self.system.client.post(f"/v1/sessions/{sid}/commit", json={}, headers=self.h)
            job_url = answer.json()["job"]

            async def done(url: str = job_url) -> dict[str, Any] | None:
                state = (await self.system.client.get(url, headers=self.h)).json()
                return state if state["state"] in ("done", "failed") else None

            job = await eventually(done)
        [review_id] = job["result"]["reviews"]
        return str(review_id)

    async def note(self, rel: str, containing: str = "") -> str:
        async def present() -> str | None:
            path = self.vault / rel
            text = path.read_text() if path.exists() else None
            return text if text is not None and containing in text else None

        return await eventually(present)

    async def note_of(self, memory_id: str) -> Path:
        await self.note(f"Memories/LongTerm/{memory_id}.md")
        return self.vault / f"Memories/LongTerm/{memory_id}.md"

    def all_text(self) -> str:
        return "\n".join(p.read_text() for p in self.vault.rglob("*.md")) if self.vault.exists() else ""


@pytest.fixture
async def person(system: System) -> Person:
    uid = f"vault_{uuid.uuid4().hex[:8]}"
    return Person(system, uid, await system.user(uid))


async def _exists(path: Path, wanted: bool) -> bool:
    return path.exists() == wanted


async def _status(person: Person, memory_id: str, status: str) -> dict[str, Any]:
    async def reached() -> dict[str, Any] | None:
        memory = await person.memory(memory_id)
        return memory if memory["status"] == status else None

    return await eventually(reached)


async def test_a_contradiction_becomes_a_draft_and_accepting_it_applies_the_new(person: Person) -> None:
    review_id = await person.contradiction("我住在北京。", "我搬到上海了。")
    draft = frontmatter.loads(await person.note(f"Reviews/Queue/{review_id}.md"))
    old_id, new_id = draft["memory_ids"]
    assert (draft["status"], draft["kind"]) == ("open", "contradiction")
    assert {"memory/review", "memory/conflict"} <= set(draft["tags"])
    for shown in ("我住在北京。", "我搬到上海了。", f"[[{old_id}]]", f"[[{new_id}]]"):
        assert shown in draft.content
    linked = frontmatter.loads(await person.note(f"Memories/LongTerm/{new_id}.md"))
    assert linked["status"] == "needs_review"

    (person.vault / "Reviews/Accepted").mkdir(exist_ok=True)
    os.rename(person.vault / f"Reviews/Queue/{review_id}.md", person.vault / f"Reviews/Accepted/{review_id}.md")

    assert (await _status(person, new_id, "active"))["content"] == "我搬到上海了。"
    await _status(person, old_id, "archived")
    filed = frontmatter.loads(await person.note(f"Reviews/Accepted/{review_id}.md", "status: decided"))
    assert filed["decision"] == "accept_new"
    await person.note(f"Memories/Archived/{old_id}.md")  # the old one moved with its status


async def test_a_rejected_draft_keeps_the_old(person: Person) -> None:
    review_id = await person.contradiction("The user prefers tea.", "The user no longer drinks tea.")
    draft = frontmatter.loads(await person.note(f"Reviews/Queue/{review_id}.md"))
    old_id, new_id = draft["memory_ids"]
    os.rename(person.vault / f"Reviews/Queue/{review_id}.md", person.vault / f"Reviews/Rejected/{review_id}.md")
    assert (await _status(person, old_id, "active"))["content"] == "The user prefers tea."
    await _status(person, new_id, "archived")


async def test_an_edit_decision_takes_the_persons_version(person: Person) -> None:
    review_id = await person.contradiction("The user lives in Paris.", "The user moved to Rome.")
    path = person.vault / f"Reviews/Queue/{review_id}.md"
    draft = frontmatter.loads(await person.note(f"Reviews/Queue/{review_id}.md"))
    _, new_id = draft["memory_ids"]
    draft["decision"] = "edit"
    draft.content = draft.content.replace(
        "## 你的版本 · Your version\n\nThe user moved to Rome.",
        "## 你的版本 · Your version\n\nThe user moved to Rome in 2026.",
    )
    path.write_text(frontmatter.dumps(draft))
    edited = await _status(person, new_id, "active")
    assert edited["content"] == "The user moved to Rome in 2026."
    await person.note(f"Reviews/Accepted/{review_id}.md", "status: decided")
    assert await eventually(lambda: _exists(path, False))


async def test_an_edited_note_becomes_one_new_version_and_nothing_loops(person: Person) -> None:
    made = await person.remember("我最喜欢的编辑器是 Vim。")
    path = await person.note_of(made["id"])
    note = frontmatter.loads(path.read_text())
    assert (note["memory_id"], note["version"], note["namespace"]) == (made["id"], 1, made["namespace"])
    path.write_text(path.read_text().replace("我最喜欢的编辑器是 Vim。", "我最喜欢的编辑器是 Helix。"))

    async def changed() -> dict[str, Any] | None:
        memory = await person.memory(made["id"])
        return memory if memory["version"] > 1 else None

    memory = await eventually(changed)
    assert memory["content"] == "我最喜欢的编辑器是 Helix。"
    assert (memory["source"], memory["source_ref"]) == ("obsidian", f"Memories/LongTerm/{made['id']}.md")

    async def rewritten() -> bool:
        return frontmatter.loads(path.read_text())["version"] == 2

    await eventually(rewritten)
    await asyncio.sleep(1.5)  # ten debounce periods: a loop would have made version 3 by now
    history = (await person.system.client.get(f"/v1/memory/{made['id']}/history", headers=person.h)).json()
    assert [v["version"] for v in history] == [2, 1]
    audit = await person.system.infra.pool.fetchval(
        "SELECT count(*) FROM audit_log WHERE target_id = $1 AND action = 'memory_update' AND reason LIKE 'obsidian:%'",
        made["id"],
    )
    assert audit == 1


async def test_a_persons_new_note_becomes_a_memory(person: Person) -> None:
    (person.vault / f"Users/{person.user_id}/LongTerm").mkdir(parents=True, exist_ok=True)
    path = person.vault / f"Users/{person.user_id}/LongTerm/tea.md"
    path.write_text("---\nmemory_type: preference\n---\n# 早茶 Morning tea\n\n我每天早上喝乌龙茶。\n")

    async def stored() -> str | None:
        return frontmatter.loads(path.read_text()).get("memory_id")

    memory_id = await eventually(stored)
    memory = await person.memory(memory_id)
    assert (memory["content"], memory["summary"], memory["memory_type"]) == (
        "我每天早上喝乌龙茶。",
        "早茶 Morning tea",
        "preference",
    )
    assert memory["namespace"] == f"user/{person.user_id}/long_term"
    assert memory["source"] == "obsidian"
    found = await person.system.client.post("/v1/memory/search", json={"query": "乌龙茶"}, headers=person.h)
    assert memory_id in [hit["memory"]["id"] for hit in found.json()["results"]]
    await person.note(f"Users/{person.user_id}/Preferences.md", containing=f"[[{memory_id}|")  # listed once settled
    assert not (person.vault / f"Memories/LongTerm/{memory_id}.md").exists()  # one note per memory


async def test_a_burst_of_notes_is_listed_whole_once_it_settles(person: Person) -> None:
    """The pages are rebuilt once a burst settles, not per note: every note of the burst is listed."""
    body = {
        "memories": [
            {"content": f"I prefer tea number {n} in the afternoon.", "memory_type": "preference"} for n in range(12)
        ]
    }
    made = await person.system.client.post("/v1/memory/batch", json=body, headers=person.h)
    assert made.status_code == 200, made.text
    ids = [r["id"] for r in made.json()["results"]]

    async def listed() -> str | None:
        path = person.vault / f"Users/{person.user_id}/Preferences.md"
        text = path.read_text() if path.exists() else ""
        return text if all(f"[[{i}|" in text for i in ids) else None

    await eventually(listed)


async def test_a_secret_never_reaches_the_vault(person: Person) -> None:
    secret = await person.remember("The deploy token is ghp_abcdefghijklmnopqrstuvwxyz0123")
    after = await person.remember("Deploys happen on Fridays.")
    await person.note_of(after["id"])
    assert "[redacted]" in (await person.note_of(secret["id"])).read_text()  # stored redacted, so it may go out
    assert "ghp_" not in person.all_text()


async def test_a_private_note_only_in_its_owners_vault_and_workspace_knowledge_only_with_members(
    system: System,
) -> None:
    alice, bob, carol = [
        Person(system, uid, await system.user(uid)) for uid in (f"va_{uuid.uuid4().hex[:6]}" for _ in range(3))
    ]
    ws = f"ws_{uuid.uuid4().hex[:6]}"
    made = await system.client.post("/v1/workspaces", json={"workspace_id": ws}, headers=alice.h)
    assert made.status_code == 201, made.text
    assert (await system.client.put(f"/v1/workspaces/{ws}/members/{bob.user_id}", headers=alice.h)).status_code == 200
    assert (await system.client.post(f"/v1/workspaces/{ws}/join", headers=bob.h)).status_code == 200
    private = await alice.remember("Alice's private diary: I am planning a surprise.")
    shared = await alice.remember(
        "Release checklist: tag, build, announce.", visibility="workspace-shared", workspace_id=ws
    )
    await alice.note_of(private["id"])
    await alice.note_of(shared["id"])
    await bob.note_of(shared["id"])
    await bob.note(f"Workspaces/{ws}/Shared.md", containing=f"[[{shared['id']}|")
    await carol.remember("Carol's own note, so her vault is written to.")
    await asyncio.sleep(1)
    assert "surprise" not in bob.all_text()
    assert "surprise" not in carol.all_text()
    assert "Release checklist" not in carol.all_text()

    left = await system.client.delete(f"/v1/workspaces/{ws}/members/{bob.user_id}", headers=alice.h)
    assert left.status_code == 200, left.text
    await eventually(lambda: _exists(bob.vault / f"Memories/LongTerm/{shared['id']}.md", False))
    assert "Release checklist" not in bob.all_text()  # the page that listed it too
    assert (alice.vault / f"Memories/LongTerm/{shared['id']}.md").exists()


async def test_a_broken_note_is_left_as_it_is_with_an_error_beside(person: Person) -> None:
    made = await person.remember("The office is on the 5th floor.")
    path = await person.note_of(made["id"])
    good = path.read_text()
    path.write_text(good.replace("memory_id:", "memory_id: [unclosed").replace("5th floor", "9th floor"))
    error = path.with_name(path.stem + ".error.md")
    await eventually(lambda: _exists(error, True))
    assert "nothing was applied" in error.read_text()
    assert "9th floor" in path.read_text()  # the person's text is kept
    assert (await person.memory(made["id"]))["version"] == 1
    path.write_text(good.replace("5th floor", "9th floor"))

    async def applied() -> dict[str, Any] | None:
        memory = await person.memory(made["id"])
        return memory if memory["version"] == 2 else None

    assert (await eventually(applied))["content"] == "The office is on the 9th floor."
    await eventually(lambda: _exists(error, False))


async def test_editor_litter_half_saves_and_bursts_are_read_once_whole(person: Person) -> None:
    long_term = person.vault / f"Users/{person.user_id}/LongTerm"
    long_term.mkdir(parents=True, exist_ok=True)
    for litter in (".draft.md.swp", "draft.md~", ".#draft.md", "draft.md.tmp"):
        (long_term / litter).write_text("# half\n\nnot a note")
    half = long_term / "half.md"
    half.write_text("---\nmemory_type: not")  # a save cut off inside the properties
    await eventually(lambda: _exists(long_term / "half.error.md", True))
    made = await person.remember("Lunch is at noon.")
    path = await person.note_of(made["id"])
    text = path.read_text()
    for minute in range(1, 6):  # an editor's burst of saves: the last one is what counts
        path.write_text(text.replace("Lunch is at noon.", f"Lunch is at 12:0{minute}."))

    async def settled() -> dict[str, Any] | None:
        memory = await person.memory(made["id"])
        return memory if memory["content"] == "Lunch is at 12:05." else None

    await eventually(settled)
    listed = await person.system.client.get("/v1/memory", params={"limit": 100}, headers=person.h)
    mine = [m["id"] for m in listed.json()["items"] if m["user_id"] == person.user_id]
    assert mine == [made["id"]]  # none from litter or a half save


def _bridge_on(system: System, vault_dir: Path) -> Any:
    """A second bridge of the system's services, on a vault of its own (as after a restart)."""
    vault = system.infra.settings.vault.model_copy(update={"vault_dir": vault_dir})
    return bridge_for(
        dataclasses.replace(system.infra, settings=system.infra.settings.model_copy(update={"vault": vault}))
    )


async def test_one_bridge_per_vault_and_catch_up_after_a_restart(person: Person, tmp_path: Path) -> None:
    system = person.system
    with pytest.raises(VaultLocked):
        Vault(system.infra.settings.vault.root(system.infra.settings.data.data_dir)).acquire()

    made = await person.remember("The team meets on Mondays.")
    vault_dir = tmp_path / "other-vault"
    first = _bridge_on(system, vault_dir)
    first.vault.acquire()
    await first.exporter.export_user(person.user_id)
    note = vault_dir / person.user_id / f"Memories/LongTerm/{made['id']}.md"
    assert "Mondays" in note.read_text()
    first.vault.release()  # the bridge stops

    note.write_text(note.read_text().replace("Mondays", "Tuesdays"))  # edited while it was down

    again = _bridge_on(system, vault_dir)
    again.vault.acquire()
    try:
        outcomes = await again.importer.catch_up()
        assert outcomes.get("edited") == 1
        assert (await person.memory(made["id"]))["content"] == "The team meets on Tuesdays."
        assert (await again.importer.catch_up()).get("edited") is None  # applied once, not again
    finally:
        again.vault.release()


async def _memgw(system: System, *args: str, extra: dict[str, str] | None = None) -> tuple[int, str]:
    settings = system.infra.settings
    env = {k: v for k, v in os.environ.items() if not k.startswith("MEMGW_")}
    env |= {
        "MEMGW_DATA_DIR": str(settings.data.data_dir),
        "MEMGW_DATABASE_URL": system.infra.database_url,
        "MEMGW_NATS_URL": system.infra.nats_url,
        "MEMGW_BUS_PREFIX": settings.nats.bus_prefix,
        "MEMGW_LOG_LEVEL": "INFO",
        "MEMGW_LOG_FORMAT": "console",
        **(extra or {}),
    }
    proc = await asyncio.create_subprocess_exec(
        str(Path(sys.executable).parent / "memgw"),
        *args,
        env=env,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT,
    )
    try:
        out, _ = await asyncio.wait_for(proc.communicate(), 120)  # under pytest-timeout: its output shows
    except TimeoutError:
        proc.kill()
        out, _ = await proc.communicate()
        raise AssertionError(f"memgw {' '.join(args)} did not end:\n{out.decode()[-3000:]}") from None
    return proc.returncode or 0, out.decode()


async def test_the_vault_commands_report_and_refuse_to_race_a_running_bridge(person: Person) -> None:
    made = await person.remember("Standup is at 9:30.")
    path = await person.note_of(made["id"])
    path.write_text(path.read_text().replace("---\nmemory_id:", "---\nmemory_id: [", 1))  # broken: stays unapplied
    await eventually(lambda: _exists(path.with_name(path.stem + ".error.md"), True))
    code, out = await _memgw(person.system, "vault", "status", "--user", person.user_id)
    assert code == 0, out
    report = json.loads(out)["users"][person.user_id]
    assert report["changed_not_applied"] == [f"Memories/LongTerm/{made['id']}.md"]
    assert report["errors"] == [f"Memories/LongTerm/{made['id']}.error.md"]
    code, out = await _memgw(person.system, "vault", "import")
    assert code == 2, out
    assert "another Obsidian bridge holds" in out


async def test_the_evolved_profile_reaches_the_profiles_folder(person: Person) -> None:
    await person.system.infra.pool.execute(
        "INSERT INTO profiles (user_id, stable_facts, preferences) VALUES ($1, $2, $3)",
        person.user_id,
        ["我在上海工作。"],
        {},
    )
    await person.remember("Any change refreshes the pages.")
    page = frontmatter.loads(await person.note(f"Profiles/{person.user_id}.md"))
    assert "我在上海工作。" in page.content
    assert page["user_id"] == person.user_id


async def test_vault_export_and_import_at_a_terminal_while_no_bridge_holds_the_vault(
    person: Person, tmp_path: Path
) -> None:
    made = await person.remember("The printer is on the second floor.")
    elsewhere = {"MEMGW_DATA_DIR": str(tmp_path / "data"), "MEMGW_VAULT_DIR": str(tmp_path / "vault")}
    code, out = await _memgw(person.system, "vault", "export", "--user", person.user_id, extra=elsewhere)
    assert code == 0, out
    assert json.loads(out[out.index("{") :]) == {person.user_id: 1}
    note = tmp_path / "vault" / person.user_id / f"Memories/LongTerm/{made['id']}.md"
    note.write_text(note.read_text().replace("second floor", "third floor"))
    code, out = await _memgw(person.system, "vault", "import", extra=elsewhere)
    assert code == 0, out
    assert json.loads(out[out.index("{") :])["edited"] == 1
    assert (await person.memory(made["id"]))["content"] == "The printer is on the third floor."


async def _probe(person: Person, name: str, memory_id: str) -> str:
    """A note the person writes naming ``memory_id`` without a version; what the vault shows after."""
    path = person.vault / f"Memories/LongTerm/{name}.md"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f"---\nmemory_id: {memory_id}\n---\nshow me\n")
    error = path.with_name(f"{name}.error.md")
    await eventually(lambda: _exists(error, True))
    assert "there is no memory" in error.read_text()
    return person.all_text()


async def test_a_note_naming_a_memory_reaches_no_further_than_the_export(system: System) -> None:
    """A note is a request from whoever could write it: naming another user's memory, one the secret
    detector flagged, or a workspace's after leaving it shows nothing of it, and the refusal is audited."""
    alice, bob = [Person(system, uid, await system.user(uid)) for uid in (f"vn_{uuid.uuid4().hex[:6]}" for _ in "ab")]
    private = await alice.remember("Alice's diagnosis is kept between her and her doctor.")
    assert "diagnosis" not in await _probe(bob, "theirs", private["id"])
    assert "diagnosis" not in (bob.vault / "Memories/LongTerm/theirs.md").read_text()

    flagged = await bob.remember("The deploy token is kept in the safe.")
    await system.infra.pool.execute(  # written before secrets were redacted on every write
        "UPDATE memories SET content = 'The deploy token is ghp_abcdefghijklmnopqrstuvwxyz0123' WHERE id = $1",
        flagged["id"],
    )
    assert "ghp_" not in await _probe(bob, "flagged", flagged["id"])

    ws = f"ws_{uuid.uuid4().hex[:6]}"
    assert (await system.client.post("/v1/workspaces", json={"workspace_id": ws}, headers=alice.h)).status_code == 201
    assert (await system.client.put(f"/v1/workspaces/{ws}/members/{bob.user_id}", headers=alice.h)).status_code == 200
    assert (await system.client.post(f"/v1/workspaces/{ws}/join", headers=bob.h)).status_code == 200
    shared = await alice.remember("Roadmap: the merger closes in May.", visibility="workspace-shared", workspace_id=ws)
    await bob.note_of(shared["id"])
    left = await system.client.delete(f"/v1/workspaces/{ws}/members/{bob.user_id}", headers=alice.h)
    assert left.status_code == 200, left.text
    await eventually(lambda: _exists(bob.vault / f"Memories/LongTerm/{shared['id']}.md", False))
    assert "merger" not in await _probe(bob, "left", shared["id"])

    refused = await system.infra.pool.fetchval(
        "SELECT array_agg(DISTINCT target_id) FROM audit_log"
        " WHERE actor_user_id = $1 AND decision = 'deny' AND reason LIKE '%obsidian%'",
        bob.user_id,
    )
    assert sorted(refused) == sorted([private["id"], flagged["id"], shared["id"]])  # a note read twice is two rows


async def test_a_bad_note_fails_alone_for_its_owner_after_a_restart(system: System, tmp_path: Path) -> None:
    """A link, a file that is not UTF-8, an over-long name and a note of nested YAML aliases in one
    user's folder: each gets its own error note, and another user's edit made meanwhile is applied."""
    mallory, alice = [
        Person(system, uid, await system.user(uid)) for uid in (f"vb_{uuid.uuid4().hex[:6]}" for _ in "ma")
    ]
    made = await alice.remember("The team meets on Mondays.")
    await mallory.remember("Mallory's own memory, so her folder exists.")
    vault_dir = tmp_path / "vault"
    first = _bridge_on(system, vault_dir)
    first.vault.acquire()
    for person in (mallory, alice):
        await first.exporter.export_user(person.user_id)
    first.vault.release()
    assert stat.S_IMODE(vault_dir.stat().st_mode) == 0o700
    assert stat.S_IMODE((vault_dir / alice.user_id).stat().st_mode) == 0o700

    theirs = vault_dir / mallory.user_id / "Memories/LongTerm"
    (theirs / "link.md").symlink_to(vault_dir / alice.user_id / f"Memories/LongTerm/{made['id']}.md")
    (theirs / "latin1.md").write_bytes("---\nmemory_type: note\n---\ncaf\xe9\n".encode("latin-1"))
    long_name = "长" * 80 + ".md"  # 242 bytes: the note fits, a name with ".error.md" added would not
    (theirs / long_name).write_text("---\nmemory_id: mem_x\n---\ntext\n")
    aliases = "---\na: &a [x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]\n"
    aliases += "".join(f"{c}: &{c} [{', '.join(['*' + p] * 9)}]\n" for p, c in zip("bcdefg", "cdefgh", strict=True))
    (theirs / "aliases.md").write_text(aliases + "memory_id: mem_x\n---\nboom\n")
    note = vault_dir / alice.user_id / f"Memories/LongTerm/{made['id']}.md"
    note.write_text(note.read_text().replace("Mondays", "Tuesdays"))

    again = _bridge_on(system, vault_dir)
    again.vault.acquire()
    try:
        outcomes = await asyncio.wait_for(again.importer.catch_up(), timeout=60)
    finally:
        again.vault.release()
    assert outcomes.get("edited") == 1, outcomes
    assert (await alice.memory(made["id"]))["content"] == "The team meets on Tuesdays."
    errors = {p.name: p.read_text() for p in theirs.glob("*.error.md")}
    assert "a link" in errors.pop("link.error.md")
    assert "UTF-8" in errors.pop("latin1.error.md")
    assert "anchors or aliases" in errors.pop("aliases.error.md")
    [(_, long_error)] = errors.items()
    assert long_name in long_error
    assert not list((vault_dir / alice.user_id).rglob("*.error.md"))
    assert all(len(p.read_bytes()) < 10_000 for p in theirs.glob("*.error.md"))
